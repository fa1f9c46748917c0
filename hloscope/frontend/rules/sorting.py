"""Lowering rules for sorting: np.sort and np.argsort, as HLO `sort` with a comparator.

As JAX writes it, the comparator of floats first makes every NaN the same (positive) NaN
and -0.0 a plain 0.0, then compares with `type=TOTALORDER`: NaNs go last (numpy's order)
and -0.0 ties with 0.0. argsort sorts the array and an iota of positions together by the
array's order and keeps the positions. HLO's sort here is always stable, so argsort gives
numpy's `kind="stable"` order whatever `kind` says (for ties, numpy's default quicksort may
order them differently).
"""

from __future__ import annotations

import numpy as np

from .. import ops
from ..errors import unsupported
from .common import as_tracer, one_axis, registrar

RULES: dict = {}
rule = registrar(RULES)


def _no_order(order):
    if order is not None:
        raise unsupported("order= (sorting structured arrays by field)")


def _key(v):
    """v with every NaN the same NaN and -0.0 as 0.0, ready for a TOTALORDER compare."""
    zero = ops.constant(0, v.dtype)
    v = ops.select(ops.compare(v, zero, "EQ"), zero, v)
    return ops.select(ops.compare(v, v, "NE"), ops.constant(np.nan, v.dtype), v)


def _ascending(dtypes):
    """Comparator: ascending by operand 0, numpy's order (NaN last); the rest ride along."""
    def first(a, b, *others):
        if np.dtype(a.dtype).kind == "f":
            return ops.compare(_key(a), _key(b), "LT", "TOTALORDER")
        if np.dtype(a.dtype).kind == "c":
            raise unsupported("sorting complex numbers")
        return ops.compare(a, b, "LT")

    return ops.comparator(dtypes, first)


def _flat_or_axis(a, axis):
    t = as_tracer(a)
    if axis is None:
        return ops.reshape(t, (t.size,)), 0
    return t, one_axis(axis, t.ndim)


@rule(np.sort)
def sort(a, axis=-1, kind=None, order=None, *, stable=None):
    _no_order(order)
    t, ax = _flat_or_axis(a, axis)
    if t.ndim == 0:
        raise unsupported("np.sort of a 0-d array", "numpy raises too: sort needs an axis")
    (out,) = ops.sort([t], ax, _ascending([t.dtype]))
    return out


@rule(np.argsort)
def argsort(a, axis=-1, kind=None, order=None, *, stable=None):
    _no_order(order)
    t, ax = _flat_or_axis(a, axis)
    if t.ndim == 0:
        raise unsupported("np.argsort of a 0-d array")
    index_dtype = np.dtype(np.intp)
    positions = ops.broadcast_in_dim(ops.iota(index_dtype, (t.shape[ax],), 0), t.shape, (ax,))
    _, order_of = ops.sort([t, positions], ax, _ascending([t.dtype, index_dtype]))
    return order_of
