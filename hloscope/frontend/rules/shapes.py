"""Lowering rules that move data without computing: reshape, transpose, squeeze and friends,
broadcast_to, concatenate/stack, pad, flip, tile/repeat, split, and dtype casts.

Shape changes are HLO `reshape`, axis permutations `transpose`, joins `concatenate`, flips
`reverse`, constant padding `pad`. Numpy's errors for impossible shapes become ShapeErrors
that show both shapes and the user's line.
"""

from __future__ import annotations

import math

import numpy as np

from .. import ops
from ..abstract import supported_dtype
from ..errors import shape_error, unsupported
from .common import (aval_of, as_tracer, broadcast_to, normalize_axis, one_axis, registrar,
                     result_dtype)
from .elementwise import to_bool

RULES: dict = {}
rule = registrar(RULES)


def _resolve_shape(shape, size: int, old) -> tuple[int, ...]:
    """A reshape target with at most one -1 filled in; a ShapeError if the sizes differ."""
    dims = (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(int(d) for d in shape)
    known = math.prod(d for d in dims if d != -1)
    if dims.count(-1) == 1 and known and size % known == 0:
        dims = tuple(size // known if d == -1 else d for d in dims)
    if dims.count(-1) or math.prod(dims) != size:
        raise shape_error(f"reshape: cannot reshape array of shape {tuple(old)} (size {size}) into shape {dims}")
    return dims


@rule(np.reshape)
def reshape(a, shape=None, order="C", *, newshape=None, copy=None):
    if order != "C":
        raise unsupported(f"reshape with order={order!r}", "only C order is traced")
    t = as_tracer(a)
    return ops.reshape(t, _resolve_shape(shape if shape is not None else newshape, t.size, t.shape))


@rule(np.ravel)
def ravel(a, order="C"):
    return reshape(a, -1, order)


@rule(np.transpose, np.permute_dims)
def transpose(a, axes=None):
    t = as_tracer(a)
    if axes is None:
        return ops.transpose(t, tuple(reversed(range(t.ndim))))
    perm = tuple(one_axis(x, t.ndim) for x in axes)
    if sorted(perm) != list(range(t.ndim)):
        raise shape_error(f"transpose: axes {tuple(axes)} do not match an array of shape {t.shape}")
    return ops.transpose(t, perm)


@rule(np.swapaxes)
def swapaxes(a, axis1, axis2):
    t = as_tracer(a)
    perm = list(range(t.ndim))
    i, j = one_axis(axis1, t.ndim), one_axis(axis2, t.ndim)
    perm[i], perm[j] = perm[j], perm[i]
    return ops.transpose(t, perm)


@rule(np.matrix_transpose)
def matrix_transpose(x):
    return swapaxes(x, -1, -2)


@rule(np.moveaxis)
def moveaxis(a, source, destination):
    t = as_tracer(a)
    src = [one_axis(s, t.ndim) for s in np.atleast_1d(source)]
    dst = [one_axis(d, t.ndim) for d in np.atleast_1d(destination)]
    order = [i for i in range(t.ndim) if i not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return ops.transpose(t, order)


@rule(np.expand_dims)
def expand_dims(a, axis):
    t = as_tracer(a)
    axes = normalize_axis(axis, t.ndim + len(np.atleast_1d(axis)))
    dims = iter(t.shape)
    return ops.reshape(t, [1 if i in axes else next(dims) for i in range(t.ndim + len(axes))])


@rule(np.squeeze)
def squeeze(a, axis=None):
    t = as_tracer(a)
    axes = [i for i, d in enumerate(t.shape) if d == 1] if axis is None else normalize_axis(axis, t.ndim)
    if any(t.shape[i] != 1 for i in axes):
        raise shape_error(f"squeeze: cannot remove axes {tuple(axes)} of shape {t.shape}: not of size one")
    return ops.reshape(t, [d for i, d in enumerate(t.shape) if i not in axes])


@rule(np.broadcast_to)
def broadcast_to_(array, shape, subok=False):
    t = as_tracer(array)
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    if len(shape) < t.ndim or any(d not in (1, s) for d, s in zip(t.shape, shape[len(shape) - t.ndim :])):
        raise shape_error(f"broadcast_to: cannot broadcast shape {t.shape} to {shape}")
    return broadcast_to(t, shape)


def _atleast(n: int):
    def lower(*arys):
        outs = []
        for a in arys:
            t = as_tracer(a)
            outs.append(ops.reshape(t, (1,) * (n - t.ndim) + t.shape) if t.ndim < n else t)
        return outs[0] if len(outs) == 1 else outs

    lower.__doc__ = f"np.atleast_{n}d: reshape to rank {n} by adding leading size-1 axes"
    return lower


RULES[np.atleast_1d] = _atleast(1)
RULES[np.atleast_2d] = _atleast(2)


@rule(np.concatenate, np.concat)
def concatenate(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    if out is not None:
        raise unsupported("out= (writing into an existing array)")
    arrays = list(arrays)
    if axis is None:
        arrays, axis = [ravel(a) for a in arrays], 0
    dt = np.dtype(dtype) if dtype is not None else result_dtype(*arrays)
    ts = [as_tracer(a, dt) for a in arrays]
    ax = one_axis(axis, ts[0].ndim)
    for t in ts[1:]:
        same = t.ndim == ts[0].ndim and all(t.shape[i] == ts[0].shape[i] for i in range(t.ndim) if i != ax)
        if not same:
            shapes = ", ".join(str(u.shape) for u in ts)
            raise shape_error(f"concatenate: shapes {shapes} must match except in axis {ax}")
    return ops.concatenate(ts, ax)


@rule(np.stack)
def stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    arrays = list(arrays)
    shapes = {aval_of(a).shape for a in arrays}
    if len(shapes) != 1:
        raise shape_error(f"stack: all input arrays must have the same shape, got {sorted(shapes)}")
    ax = one_axis(axis, len(shapes.pop()) + 1)
    return concatenate([expand_dims(a, ax) for a in arrays], ax, out, dtype=dtype)


@rule(np.vstack)
def vstack(tup, *, dtype=None, casting="same_kind"):
    return concatenate([_atleast(2)(a) for a in tup], 0, dtype=dtype)


@rule(np.hstack)
def hstack(tup, *, dtype=None, casting="same_kind"):
    arrays = [_atleast(1)(a) for a in tup]
    return concatenate(arrays, 0 if aval_of(arrays[0]).ndim == 1 else 1, dtype=dtype)


@rule(np.pad)
def pad(array, pad_width, mode="constant", constant_values=0, **kwargs):
    """Constant padding: HLO pad with (low, high) per dimension and a scalar padding value."""
    if mode != "constant" or kwargs:
        raise unsupported(f"np.pad with mode={mode!r}", "only mode='constant' is traced")
    t = as_tracer(array)
    widths = np.broadcast_to(np.asarray(pad_width, dtype=np.int64), (t.ndim, 2))
    value = as_tracer(np.asarray(constant_values).astype(t.dtype).reshape(()), t.dtype)
    return ops.pad(t, value, [(int(lo), int(hi), 0) for lo, hi in widths])


@rule(np.flip)
def flip(m, axis=None):
    t = as_tracer(m)
    return ops.reverse(t, normalize_axis(axis, t.ndim))


RULES[np.fliplr] = lambda m: flip(m, 1)
RULES[np.flipud] = lambda m: flip(m, 0)


@rule(np.tile)
def tile(A, reps):
    """Broadcast to (r0, d0, r1, d1, ...) then reshape to (r0*d0, r1*d1, ...)."""
    t = as_tracer(A)
    reps = (reps,) if isinstance(reps, int) else tuple(reps)
    n = max(t.ndim, len(reps))
    t = ops.reshape(t, (1,) * (n - t.ndim) + t.shape)
    reps = (1,) * (n - len(reps)) + reps
    wide = ops.broadcast_in_dim(t, [x for r, d in zip(reps, t.shape) for x in (r, d)], range(1, 2 * n, 2))
    return ops.reshape(wide, [r * d for r, d in zip(reps, t.shape)])


@rule(np.repeat)
def repeat(a, repeats, axis=None):
    """Each element `repeats` times along `axis`: broadcast a new axis after it, merge the two."""
    if not isinstance(repeats, (int, np.integer)):
        raise unsupported("np.repeat with per-element repeat counts")
    t = ravel(a) if axis is None else as_tracer(a)
    ax = 0 if axis is None else one_axis(axis, t.ndim)
    shape = [*t.shape[: ax + 1], int(repeats), *t.shape[ax + 1 :]]
    dims = [i if i <= ax else i + 1 for i in range(t.ndim)]
    wide = ops.broadcast_in_dim(t, shape, dims)
    return ops.reshape(wide, [*t.shape[:ax], t.shape[ax] * int(repeats), *t.shape[ax + 1 :]])


@rule(np.split, np.array_split)
def split(ary, indices_or_sections, axis=0):
    t = as_tracer(ary)
    ax = one_axis(axis, t.ndim)
    n = t.shape[ax]
    if isinstance(indices_or_sections, (int, np.integer)):
        k = int(indices_or_sections)
        sizes = [n // k + (i < n % k) for i in range(k)]
        bounds = list(np.cumsum([0, *sizes]))
    else:
        bounds = [0, *[min(int(i), n) for i in indices_or_sections], n]
    out = []
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        starts = [lo if i == ax else 0 for i in range(t.ndim)]
        limits = [max(hi, lo) if i == ax else d for i, d in enumerate(t.shape)]
        out.append(ops.slice_(t, starts, limits))
    return out


@rule(np.astype)
def astype(x, dtype, /, *, copy=True, device=None):
    dtype = np.dtype(dtype)
    if not supported_dtype(dtype):
        raise unsupported(f"astype({dtype})", "HLO has no element type for it")
    return to_bool(x) if dtype == np.bool_ else ops.convert(as_tracer(x), dtype)


@rule(np.copy, np.asarray, np.array, np.ascontiguousarray)
def copy(a, *args, dtype=None, **kwargs):
    """Arrays are immutable values in HLO, so a copy is the value itself (converted if asked)."""
    return as_tracer(a, dtype)


RULES[np.shape] = lambda a: aval_of(a).shape
RULES[np.ndim] = lambda a: aval_of(a).ndim
RULES[np.size] = lambda a, axis=None: aval_of(a).size if axis is None else aval_of(a).shape[axis]
