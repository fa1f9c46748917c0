"""Lowering rules for reductions: sum, prod, max, min, any, all, mean, var, std, argmax,
argmin, and the running reductions cumsum/cumprod.

A reduction is HLO `reduce` with a small scalar computation (`region_K.N`, e.g. an add) and
an init value; keepdims is a `reshape` afterwards, as JAX writes it. argmax/argmin reduce two
arrays at once (values and an iota of indices) with a comparator that prefers the first
maximum and propagates NaN. A running sum is a `reduce-window` whose window covers the whole
axis and is padded on the low side by n-1, so element i sums elements 0..i.
"""

from __future__ import annotations

import math

import numpy as np

from .. import ops
from ..errors import unsupported
from .common import as_tracer, normalize_axis, one_axis, registrar, scalar_dtype_max, scalar_dtype_min
from .elementwise import to_bool

RULES: dict = {}
rule = registrar(RULES)


def _no_extras(out=None, initial=None, where=None):
    if out is not None:
        raise unsupported("out= (writing into an existing array)", "use the returned array")
    if initial is not None or where is not None:
        raise unsupported("initial= and where= in reductions")


def reduce_with(x, axes, opcode: str, init, keepdims: bool = False, dtype=None):
    """`reduce(x, init)` over `axes` with a region applying `opcode`; keepdims by a reshape."""
    t = as_tracer(x, dtype)
    if not axes:
        return t
    region = ops.region([t.dtype], lambda a, b: [ops.binary(opcode, a, b)])
    (r,) = ops.reduce([t], [ops.constant(init, t.dtype)], axes, region)
    return keep_dims(r, t.shape, axes) if keepdims else r


def keep_dims(r, shape, axes):
    """Put size-1 dimensions back where `axes` were reduced."""
    return ops.reshape(r, [1 if i in axes else d for i, d in enumerate(shape)])


def _sum_dtype(dtype, requested):
    """numpy's accumulator type: small integers and bools sum as (u)int64."""
    return np.sum(np.zeros(1, dtype), dtype=requested).dtype


@rule(np.sum)
def sum_(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    _no_extras(out, initial, where)
    t = as_tracer(a)
    dt = _sum_dtype(t.dtype, dtype)
    opcode = "or" if dt == np.bool_ else "add"
    return reduce_with(t, normalize_axis(axis, t.ndim), opcode, 0, keepdims, dt)


@rule(np.prod)
def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    _no_extras(out, initial, where)
    t = as_tracer(a)
    dt = _sum_dtype(t.dtype, dtype)
    opcode = "and" if dt == np.bool_ else "multiply"
    return reduce_with(t, normalize_axis(axis, t.ndim), opcode, 1, keepdims, dt)


@rule(np.max, np.amax)
def max_(a, axis=None, out=None, keepdims=False, initial=None, where=None):
    _no_extras(out, initial, where)
    t = as_tracer(a)
    opcode = "or" if t.dtype == np.bool_ else "maximum"
    return reduce_with(t, normalize_axis(axis, t.ndim), opcode, scalar_dtype_min(t.dtype), keepdims)


@rule(np.min, np.amin)
def min_(a, axis=None, out=None, keepdims=False, initial=None, where=None):
    _no_extras(out, initial, where)
    t = as_tracer(a)
    opcode = "and" if t.dtype == np.bool_ else "minimum"
    return reduce_with(t, normalize_axis(axis, t.ndim), opcode, scalar_dtype_max(t.dtype), keepdims)


@rule(np.any)
def any_(a, axis=None, out=None, keepdims=False, where=None):
    _no_extras(out, None, where)
    t = to_bool(a)
    return reduce_with(t, normalize_axis(axis, t.ndim), "or", False, keepdims)


@rule(np.all)
def all_(a, axis=None, out=None, keepdims=False, where=None):
    _no_extras(out, None, where)
    t = to_bool(a)
    return reduce_with(t, normalize_axis(axis, t.ndim), "and", True, keepdims)


def _mean_dtypes(dtype, requested):
    """(result, accumulator): numpy averages float16 in float32, integers in float64."""
    out = np.mean(np.zeros(1, dtype), dtype=requested).dtype
    return out, (np.dtype(np.float32) if out.itemsize < 4 and out.kind == "f" else out)


@rule(np.mean)
def mean(a, axis=None, dtype=None, out=None, keepdims=False, where=None):
    """sum / count: reduce add, keepdims reshape, divide by the element count."""
    _no_extras(out, None, where)
    t = as_tracer(a)
    axes = normalize_axis(axis, t.ndim)
    out_dt, acc_dt = _mean_dtypes(t.dtype, dtype)
    s = reduce_with(t, axes, "add", 0, keepdims, acc_dt)
    count = math.prod(t.shape[i] for i in axes)
    return ops.convert(ops.binary("divide", s, ops.full(s.shape, count, acc_dt)), out_dt)


@rule(np.var)
def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, where=None, mean=None, correction=None):
    """mean((x - mean(x))**2) with n - ddof in the denominator."""
    _no_extras(out, None, where)
    if mean is not None or correction is not None:
        raise unsupported("np.var with mean= or correction=")
    t = as_tracer(a)
    axes = normalize_axis(axis, t.ndim)
    out_dt, acc_dt = _mean_dtypes(t.dtype, dtype)
    x = as_tracer(t, acc_dt)
    centered = x - np.mean(x, axis=axes, keepdims=True)
    s = reduce_with(centered * centered, axes, "add", 0, keepdims)
    count = math.prod(t.shape[i] for i in axes) - ddof
    return ops.convert(ops.binary("divide", s, ops.full(s.shape, count, acc_dt)), out_dt)


@rule(np.std)
def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, where=None, mean=None, correction=None):
    v = var(a, axis, dtype, out, ddof, keepdims, where, mean, correction)
    return ops.unary("sqrt", v)


def _arg_region(direction: str, dtypes):
    """(value, index) pairs: keep the larger (or smaller) value, NaN first, then the lower index."""

    def body(a, ai, b, bi):
        better = ops.compare(a, b, direction)
        if a.dtype.kind == "f":
            better = ops.binary("or", better, ops.compare(a, a, "NE"))
        tie = ops.binary("and", ops.compare(a, b, "EQ"), ops.compare(ai, bi, "LT"))
        take_index = ops.binary("or", better, tie)
        return [ops.select(better, a, b), ops.select(take_index, ai, bi)]

    return ops.region(dtypes, body)


def _arg_reduce(a, axis, keepdims, direction, init):
    t = as_tracer(a)
    if axis is None:
        t, axis = ops.reshape(t, (t.size,)), 0
    ax = one_axis(axis, t.ndim)
    index_dtype = np.dtype(np.intp)
    idx = ops.broadcast_in_dim(ops.iota(index_dtype, (t.shape[ax],), 0), t.shape, (ax,))
    region = _arg_region(direction, [t.dtype, index_dtype])
    inits = [ops.constant(init(t.dtype), t.dtype), ops.constant(0, index_dtype)]
    _, r = ops.reduce([t, idx], inits, (ax,), region)
    return keep_dims(r, t.shape, (ax,)) if keepdims else r


@rule(np.argmax)
def argmax(a, axis=None, out=None, *, keepdims=False):
    _no_extras(out)
    return _arg_reduce(a, axis, keepdims, "GT", scalar_dtype_min)


@rule(np.argmin)
def argmin(a, axis=None, out=None, *, keepdims=False):
    _no_extras(out)
    return _arg_reduce(a, axis, keepdims, "LT", scalar_dtype_max)


def accumulate(x, axis, opcode: str, init, dtype=None):
    """Running reduction along `axis` as a reduce-window over the whole padded axis."""
    t = as_tracer(x, dtype)
    if axis is None:
        t, axis = ops.reshape(t, (t.size,)), 0
    ax = one_axis(axis, t.ndim)
    n = t.shape[ax]
    window = ops.make_window([n if i == ax else 1 for i in range(t.ndim)],
                             padding=[(n - 1, 0) if i == ax else (0, 0) for i in range(t.ndim)])
    region = ops.region([t.dtype], lambda a, b: [ops.binary(opcode, a, b)])
    return ops.reduce_window(t, ops.constant(init, t.dtype), window, region)


@rule(np.cumsum)
def cumsum(a, axis=None, dtype=None, out=None):
    _no_extras(out)
    dt = _sum_dtype(as_tracer(a).dtype, dtype)
    return accumulate(a, axis, "or" if dt == np.bool_ else "add", 0, dt)


@rule(np.cumprod)
def cumprod(a, axis=None, dtype=None, out=None):
    _no_extras(out)
    dt = _sum_dtype(as_tracer(a).dtype, dtype)
    return accumulate(a, axis, "and" if dt == np.bool_ else "multiply", 1, dt)
