"""Cotangents and tangents as values: a tracer, a list for a tuple-shaped value, or None (zero).

Kept symbolic: a zero is None, never a broadcast of 0.0, so a parameter the loss does not
depend on costs nothing, and sums of contributions are emitted only where two meet.
"""

from __future__ import annotations

import numpy as np

from ...ir.shape import ArrayShape, Shape, TupleShape
from .. import ops
from ..tracer import Tracer


def add(a, b):
    """a + b for cotangents of the same value (either may be None)."""
    if a is None:
        return b
    if b is None:
        return a
    if isinstance(a, list):
        return [add(x, y) for x, y in zip(a, b)]
    return ops.binary("add", a, b)


def accumulate(table: dict, name: str, ct) -> None:
    """table[name] += ct."""
    if ct is not None:
        table[name] = add(table.get(name), ct)


def zeros(shape: Shape):
    """An explicit zero of `shape` (for the places HLO needs a value: a branch's result)."""
    if isinstance(shape, TupleShape):
        return [zeros(s) for s in shape.elements]
    assert isinstance(shape, ArrayShape)
    return ops.full(shape.dims, 0, shape.numpy_dtype)


def materialize(ct, shape: Shape):
    """`ct` with every None replaced by an explicit zero of its part of `shape`."""
    if ct is None:
        return zeros(shape)
    if isinstance(shape, TupleShape):
        return [materialize(c, s) for c, s in zip(ct, shape.elements)]
    return ct


def cast_like(ct: Tracer, dtype) -> Tracer:
    """A cotangent in the dtype of the value it belongs to (seeds may come as other floats)."""
    return ops.convert(ct, np.dtype(dtype))
