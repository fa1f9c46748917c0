"""Lowering rules for indexing: `x[...]` and np.take.

Basic indexing (integers, slices with any step, None, Ellipsis) is static: a `reverse` for
negative steps, one `slice`, and a `reshape` that drops integer-indexed dimensions and adds
the new axes. A traced integer scalar (a loop counter) selects with `dynamic-slice`.
Integer-array indexing is `gather`, as JAX lowers it: the index arrays are broadcast together
and stacked into index vectors; numpy's rule for where the indexed dimensions go (in place if
the array indices are adjacent, else in front) becomes gather's `offset_dims`. A boolean mask
known at trace time becomes the integer arrays of its nonzero positions; a traced mask would
give a data-dependent shape and is refused.

Out-of-bounds traced indices are clamped (HLO's rule), where numpy would raise IndexError;
indices known at trace time are checked.
"""

from __future__ import annotations

import numpy as np

from .. import ops
from ..errors import unsupported
from ..tracer import Tracer
from .common import as_tracer, broadcast_to, broadcast_shapes, one_axis, registrar

RULES: dict = {}
rule = registrar(RULES)


def _classify(item):
    """(kind, value): kind is none, slice, int, dyn (a traced integer scalar) or array."""
    if item is None:
        return "none", None
    if isinstance(item, slice):
        return "slice", item
    if isinstance(item, (int, np.integer)) and not isinstance(item, (bool, np.bool_)):
        return "int", int(item)
    if isinstance(item, Tracer):
        if item.dtype == np.bool_:
            raise unsupported("indexing with a traced boolean mask",
                              "the result's shape would depend on the data; use np.where(mask, x, 0)")
        if item.dtype.kind not in "iu":
            raise IndexError(f"arrays used as indices must be of integer type, not {item.dtype}")
        return ("dyn" if item.ndim == 0 else "array"), item
    arr = np.asarray(item)
    if arr.dtype.kind not in "iu" or arr.ndim == 0:
        raise IndexError(f"only integers, slices, None, Ellipsis and integer or boolean arrays are valid indices, got {item!r}")
    return "array", arr


def _normalize(index, ndim: int) -> list[tuple[str, object]]:
    """One (kind, value) per entry, masks expanded, Ellipsis and missing trailing dims filled."""
    items = index if isinstance(index, tuple) else (index,)
    expanded = []
    for item in items:
        arr = np.asarray(item) if isinstance(item, list) else item
        if isinstance(arr, np.ndarray) and arr.dtype == np.bool_:
            expanded.extend(np.nonzero(arr))  # a known mask is its nonzero positions
        else:
            expanded.append(item)
    used = sum(1 for i in expanded if i is not None and i is not Ellipsis)
    if used > ndim:
        raise IndexError(f"too many indices for array: array is {ndim}-dimensional, but {used} were indexed")
    fill = [slice(None)] * (ndim - used)
    if any(i is Ellipsis for i in expanded):
        k = next(j for j, i in enumerate(expanded) if i is Ellipsis)
        expanded = expanded[:k] + fill + [i for i in expanded[k + 1 :] if i is not Ellipsis]
    else:
        expanded += fill
    return [_classify(i) for i in expanded]


def _slice_spec(s: slice, n: int):
    """(start, limit, stride, reversed, size) of a slice on a dim of size n, for HLO slice."""
    start, stop, step = s.indices(n)
    m = len(range(start, stop, step))
    if m == 0:
        return 0, 0, 1, False, 0
    if step > 0:
        return start, start + (m - 1) * step + 1, step, False, m
    rstart = n - 1 - start  # the same elements, counted on the reversed dimension
    return rstart, rstart + (m - 1) * -step + 1, -step, True, m


def _static_int(i: int, n: int, dim: int) -> int:
    if not -n <= i < n:
        raise IndexError(f"index {i} is out of bounds for axis {dim} with size {n}")
    return i % n


def _wrap(t: Tracer, n: int, dtype) -> Tracer:
    """A traced index with negatives counted from the end (idx < 0 ? idx + n : idx)."""
    t = ops.convert(t, dtype)
    negative = ops.compare(t, ops.full(t.shape, 0, dtype), "LT")
    return ops.select(negative, ops.binary("add", t, ops.full(t.shape, n, dtype)), t)


def basic_index(t: Tracer, items) -> Tracer:
    """Static slices and integers (reverse + slice), traced scalars (dynamic-slice), new axes."""
    starts, limits, strides, rev, out_shape, dyn = [], [], [], [], [], {}
    dim = 0
    for kind, v in items:
        if kind == "none":
            out_shape.append(1)
            continue
        n = t.shape[dim]
        if kind == "slice":
            a, b, s, r, m = _slice_spec(v, n)
            rev += [dim] if r else []
            out_shape.append(m)
        elif kind == "int":
            a, b, s = _static_int(v, n, dim), _static_int(v, n, dim) + 1, 1
        else:  # a traced scalar: a full range here, narrowed by dynamic-slice below
            a, b, s, dyn[dim] = 0, n, 1, v
        starts, limits, strides = starts + [a], limits + [b], strides + [s]
        dim += 1
    t = ops.slice_(ops.reverse(t, rev), starts, limits, strides)
    if dyn:
        index_dtype = np.result_type(*[v.dtype for v in dyn.values()])
        zero = ops.constant(0, index_dtype)
        begin = [_wrap(dyn[i], t.shape[i], index_dtype) if i in dyn else zero for i in range(t.ndim)]
        t = ops.dynamic_slice(t, begin, [1 if i in dyn else d for i, d in enumerate(t.shape)])
    return ops.reshape(t, out_shape)


def _index_tracer(v, n: int, dim: int) -> Tracer:
    if isinstance(v, Tracer):
        return _wrap(v, n, v.dtype)
    arr = np.asarray(v)
    if arr.size and (arr.min() < -n or arr.max() >= n):
        bad = arr[(arr < -n) | (arr >= n)].flat[0]
        raise IndexError(f"index {bad} is out of bounds for axis {dim} with size {n}")
    return as_tracer(np.where(arr < 0, arr + n, arr).astype(arr.dtype))


def advanced_index(t: Tracer, items) -> Tracer:
    """Integer-array indexing as one gather; slices on the other dims are applied first."""
    if any(kind == "none" for kind, _ in items):
        raise unsupported("mixing None (np.newaxis) with integer-array indexing")
    t = basic_index(t, [(k, v) if k == "slice" else ("slice", slice(None)) for k, v in items])
    adv = [d for d, (kind, _) in enumerate(items) if kind != "slice"]
    idx = [_index_tracer(items[d][1], t.shape[d], d) for d in adv]
    batch = broadcast_shapes(*[i.shape for i in idx], what="index arrays")
    dtype = np.result_type(*[i.dtype for i in idx])
    cols = [ops.reshape(broadcast_to(ops.convert(i, dtype), batch), (*batch, 1)) for i in idx]
    indices = ops.concatenate(cols, len(batch))
    rest = [d for d in range(t.ndim) if d not in adv]
    adjacent = adv == list(range(adv[0], adv[-1] + 1))
    front = sum(1 for d in rest if d < adv[0]) if adjacent else 0
    offset = list(range(front)) + list(range(front + len(batch), len(batch) + len(rest)))
    return ops.gather(t, indices, offset_dims=offset, collapsed_slice_dims=adv, start_index_map=adv,
                      index_vector_dim=len(batch),
                      slice_sizes=[1 if d in adv else n for d, n in enumerate(t.shape)])


@rule("getitem")
def getitem(x, index):
    """x[index] with numpy's semantics (see the module docstring)."""
    t = as_tracer(x)
    items = _normalize(index, t.ndim)
    if any(kind == "array" for kind, _ in items):
        return advanced_index(t, items)
    return basic_index(t, items)


@rule(np.take)
def take(a, indices, axis=None, out=None, mode=None):
    """x[..., indices, ...] along `axis` (on the flattened array when axis is None)."""
    t = as_tracer(a)
    if axis is None:
        t, axis = ops.reshape(t, (t.size,)), 0
    ax = one_axis(axis, t.ndim)
    return getitem(t, (slice(None),) * ax + (indices,))
