"""What the numpy rules share: numpy 2's type promotion, numpy's broadcasting, turning
constants into HLO, and axis arguments.

Promotion is numpy's own: `ufunc.resolve_dtypes` and `np.result_type` are asked with each
operand's dtype, or for a weak value (a Python scalar) its Python type, so `f32 + 2.0 -> f32`
and `int32 / int32 -> f64` exactly as numpy 2 computes them.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from .. import ops
from ..abstract import ShapedArray, abstractify, python_scalar
from ..errors import shape_error
from ..tracer import Tracer


def aval_of(x) -> ShapedArray:
    """The abstract value of an operand: a tracer's, or a constant's (Python scalars weak)."""
    if isinstance(x, Tracer):
        return x.aval
    if isinstance(x, (list, tuple)):
        x = np.asarray(x)
    try:
        return abstractify(x)
    except TypeError:
        raise TypeError(f"expected an array or a number, got {type(x).__name__}") from None


def is_weak(x) -> bool:
    return aval_of(x).weak


def all_weak(*xs) -> bool:
    """A result is weak only if every operand was (JAX's rule, numpy's in effect)."""
    return all(is_weak(x) for x in xs)


def with_weak(t: Tracer, weak: bool) -> Tracer:
    return t if t.aval.weak == weak else Tracer(t.frame, t.inst, t.aval.weak_as(weak))


def ufunc_dtypes(ufunc, args) -> tuple[list[np.dtype], list[np.dtype]]:
    """(input dtypes, output dtypes) numpy's loop selection picks for `ufunc(*args)`."""
    avals = [aval_of(a) for a in args]
    # Only weak operands: numpy would compute with Python objects; use their default dtypes.
    keys = [a.dtype if all(b.weak for b in avals) else a.dtype_key() for a in avals]
    dts = ufunc.resolve_dtypes((*keys, *[None] * ufunc.nout))
    return list(dts[: ufunc.nin]), list(dts[ufunc.nin :])


def result_dtype(*args) -> np.dtype:
    """np.result_type over the operands, with weak operands standing in as Python types."""
    keys = [aval_of(a).dtype_key() for a in args]
    return np.result_type(*[k(0) if isinstance(k, type) else k for k in keys])


def as_tracer(x, dtype=None) -> Tracer:
    """A tracer for `x`, converted to `dtype` if given: constants become HLO constants."""
    if isinstance(x, Tracer):
        return x if dtype is None else ops.convert(x, dtype)
    if dtype is None:
        dtype = aval_of(x).dtype
    return ops.constant(np.asarray(x), dtype)


def broadcast_shapes(*shapes: Sequence[int], what: str = "operands") -> tuple[int, ...]:
    """numpy's broadcast of shapes; a ShapeError naming all of them when they do not fit."""
    try:
        return tuple(np.broadcast_shapes(*shapes))
    except ValueError:
        listed = " and ".join(str(tuple(s)) for s in shapes)
        raise shape_error(f"{what} could not be broadcast together: shapes {listed}") from None


def broadcast_to(x: Tracer, shape: Sequence[int]) -> Tracer:
    """numpy broadcasting as HLO: size-1 dims that expand are dropped with a reshape, then
    one `broadcast` maps the remaining dims into place (trailing-aligned)."""
    shape = tuple(shape)
    if x.shape == shape:
        return x
    lead = len(shape) - x.ndim
    keep = [i for i, d in enumerate(x.shape) if d == shape[lead + i]]
    squeezed = ops.reshape(x, [x.shape[i] for i in keep])
    return with_weak(ops.broadcast_in_dim(squeezed, shape, [lead + i for i in keep]), x.aval.weak)


def prepare(args, dtypes: Sequence, what: str = "operands") -> list[Tracer]:
    """Operands converted to `dtypes` (one per operand) and broadcast to their common shape."""
    shape = broadcast_shapes(*[aval_of(a).shape for a in args], what=what)
    return [broadcast_to(as_tracer(a, d), shape) for a, d in zip(args, dtypes)]


def normalize_axis(axis, ndim: int, what: str = "axis") -> tuple[int, ...]:
    """An axis argument (None, an int or a tuple; negatives allowed) as sorted axes."""
    if axis is None:
        return tuple(range(ndim))
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    out = []
    for a in axes:
        a = int(a)
        if not -ndim <= a < ndim:
            raise np.exceptions.AxisError(a, ndim)
        out.append(a % ndim)
    if len(set(out)) != len(out):
        raise ValueError(f"repeated {what} in {axis}")
    return tuple(sorted(out))


def one_axis(axis, ndim: int) -> int:
    (a,) = normalize_axis(axis, ndim)
    return a


def scalar_dtype_min(dtype: np.dtype):
    """The identity of max: -inf for floats, the smallest value for integers, False for bool."""
    if dtype.kind == "f":
        return -np.inf
    return False if dtype.kind == "b" else np.iinfo(dtype).min


def scalar_dtype_max(dtype: np.dtype):
    if dtype.kind == "f":
        return np.inf
    return True if dtype.kind == "b" else np.iinfo(dtype).max


def is_static_scalar(x) -> bool:
    """A number known now (Python or numpy scalar, or a 0-d numpy array)."""
    return python_scalar(x) or isinstance(x, np.generic) or (isinstance(x, np.ndarray) and x.ndim == 0)


def registrar(table: dict):
    """The decorator each rule file registers its rules with: `@rule(np.add, np.subtract)`."""

    def rule(*keys):
        def register(fn):
            for key in keys:
                table[key] = fn
            return fn

        return register

    return rule


def finish(t: Tracer, dtype, *operands) -> Tracer:
    """An elementwise result in numpy's output `dtype`, weak if every operand was."""
    return with_weak(ops.convert(t, dtype), all_weak(*operands))
