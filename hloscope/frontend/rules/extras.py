"""Lowering rules for numpy functions that are a few elementwise ops and a reduce:
linalg.norm (its vector and elementwise matrix forms), nan_to_num, logaddexp, logaddexp2,
fmax, fmin, deg2rad, rad2deg, heaviside, nansum, nanmax, nanmin and ptp.

Each is written with numpy calls on tracers, so the HLO is what the other rules emit for
those calls (they nest silently inside this one operation). Edge cases follow numpy: NaN
propagates where numpy propagates it, infinities of the same sign in logaddexp stay
infinite, and a norm of integers is computed in float64 as numpy does. The matrix norms
that need an SVD (ord=2, -2, 'nuc') are refused by name: autojit runs them on the host.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..errors import unsupported
from ..tracer import Tracer
from .common import all_weak, as_tracer, is_static_scalar, normalize_axis, registrar, ufunc_dtypes, with_weak

RULES: dict = {}
rule = registrar(RULES)


def finish(t: Any, dtype, *operands) -> Tracer:
    """An elementwise result in numpy's output `dtype`, weak if every operand was (`t` is a
    tracer that numpy's stubs type as an array)."""
    return with_weak(as_tracer(t, dtype), all_weak(*operands))


def _converted(ufunc, *xs):
    """The operands as tracers of numpy's loop dtypes for `ufunc`, and its output dtype."""
    dts, (out,) = ufunc_dtypes(ufunc, list(xs))
    return [as_tracer(x, dt) for x, dt in zip(xs, dts)], out


@rule(np.logaddexp)
def logaddexp(x1, x2):
    """log(exp(a) + exp(b)) without overflow: max(a, b) + log1p(exp(-|a - b|)); a == b
    (both +inf or both -inf included) is a + log(2), where the difference would be NaN."""
    (a, b), out = _converted(np.logaddexp, x1, x2)
    spread = np.log1p(np.exp(-np.abs(a - b)))
    return finish(np.where(a == b, a + math.log(2.0), np.maximum(a, b) + spread), out, x1, x2)


@rule(np.logaddexp2)
def logaddexp2(x1, x2):
    """log2(2**a + 2**b): max(a, b) + log1p(2**-|a - b|) / ln 2; a == b is a + 1."""
    (a, b), out = _converted(np.logaddexp2, x1, x2)
    spread = np.log1p(np.exp2(-np.abs(a - b))) * (1.0 / math.log(2.0))
    return finish(np.where(a == b, a + 1.0, np.maximum(a, b) + spread), out, x1, x2)


def _nan_ignoring(ufunc, pick):
    def lower(x1, x2):
        (a, b), out = _converted(ufunc, x1, x2)
        return finish(np.where(np.isnan(b), a, np.where(np.isnan(a), b, pick(a, b))), out, x1, x2)

    lower.__doc__ = f"numpy.{ufunc.__name__}: {pick.__name__} of the two, ignoring a NaN on one side"
    return lower


RULES[np.fmax] = _nan_ignoring(np.fmax, np.maximum)
RULES[np.fmin] = _nan_ignoring(np.fmin, np.minimum)


def _scale(ufunc, factor: float):
    def lower(x):
        (a,), out = _converted(ufunc, x)
        return finish(a * factor, out, x)

    lower.__doc__ = f"numpy.{ufunc.__name__}: multiply by {factor!r}"
    return lower


RULES[np.deg2rad] = RULES[np.radians] = _scale(np.deg2rad, math.pi / 180.0)
RULES[np.rad2deg] = RULES[np.degrees] = _scale(np.rad2deg, 180.0 / math.pi)


@rule(np.heaviside)
def heaviside(x1, x2):
    """0 where x < 0, x2 where x == 0, 1 where x > 0; NaN stays NaN."""
    (a, h0), out = _converted(np.heaviside, x1, x2)
    step = np.where(a < 0, 0.0, np.where(a > 0, 1.0, h0))
    return finish(np.where(np.isnan(a), a, step), out, x1, x2)


def _static(name: str, value, what: str):
    if value is not None and not is_static_scalar(value):
        raise unsupported(f"np.{name} with a traced {what}=", f"pass {what} as a Python number")
    return value


@rule(np.nan_to_num)
def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """NaN -> `nan`, +inf -> `posinf` (default: the dtype's largest), -inf -> `neginf`
    (default: its most negative); integers and booleans come back unchanged."""
    t = as_tracer(x)
    if t.dtype.kind != "f":
        return t
    info = np.finfo(t.dtype)
    big = _static("nan_to_num", posinf, "posinf")
    small = _static("nan_to_num", neginf, "neginf")
    big = info.max if big is None else big
    small = info.min if small is None else small
    nan = _static("nan_to_num", nan, "nan")
    filled = np.where(np.isnan(t), np.asarray(nan, t.dtype), t)
    filled = np.where(filled == np.inf, np.asarray(big, t.dtype), filled)
    return np.where(filled == -np.inf, np.asarray(small, t.dtype), filled)


def _float_input(x) -> Tracer:
    """numpy's norm works in float64 for anything that is not already inexact."""
    t = as_tracer(x)
    return t if t.dtype.kind == "f" else as_tracer(t, np.float64)


def _vector_norm(t: Tracer, ord, axis: int, keepdims: bool):
    """numpy's vector norms along one axis."""
    mag = np.abs(t)
    if ord is None or ord == 2:
        return np.sqrt(np.sum(t * t, axis=axis, keepdims=keepdims))
    if ord == np.inf:
        return np.max(mag, axis=axis, keepdims=keepdims)
    if ord == -np.inf:
        return np.min(mag, axis=axis, keepdims=keepdims)
    if ord == 0:
        return np.sum(as_tracer(np.not_equal(t, 0), t.dtype), axis=axis, keepdims=keepdims)
    if ord == 1:
        return np.sum(mag, axis=axis, keepdims=keepdims)
    if isinstance(ord, str):
        raise ValueError(f"Invalid norm order '{ord}' for vectors")
    p = float(ord)
    return np.sum(mag ** p, axis=axis, keepdims=keepdims) ** (1.0 / p)


def _matrix_norm(t: Tracer, ord, rows: int, cols: int, keepdims: bool):
    """numpy's matrix norms over (rows, cols) that need no SVD: fro, 1, -1, inf, -inf."""
    if ord in (2, -2, "nuc"):
        raise unsupported(f"np.linalg.norm with ord={ord!r} on a matrix", "it needs a singular value decomposition")
    mag = np.abs(t)
    if ord is None or ord == "fro":
        r = np.sqrt(np.sum(t * t, axis=(rows, cols)))
    elif ord in (1, -1):
        pick = np.max if ord == 1 else np.min
        r = pick(np.sum(mag, axis=rows), axis=cols - 1 if cols > rows else cols)
    elif ord in (np.inf, -np.inf):
        pick = np.max if ord == np.inf else np.min
        r = pick(np.sum(mag, axis=cols), axis=rows - 1 if rows > cols else rows)
    else:
        raise ValueError(f"Invalid norm order {ord!r} for matrices")
    if keepdims:
        shape = list(t.shape)
        shape[rows] = shape[cols] = 1
        r = np.reshape(r, shape)
    return r


@rule(np.linalg.norm)
def norm(x, ord=None, axis=None, keepdims=False):
    """np.linalg.norm: the 2-norm of everything (no ord, no axis), a vector norm along one
    axis, or a matrix norm over two; each a few elementwise ops and reduces."""
    t = _float_input(x)
    if axis is None and ord is None:
        r = np.sqrt(np.sum(t * t))
        return np.reshape(r, (1,) * t.ndim) if keepdims else r
    if axis is None:
        axis = tuple(range(t.ndim))
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    if len(axes) == 1:
        return _vector_norm(t, ord, normalize_axis(axes[0], t.ndim)[0], keepdims)
    if len(axes) == 2:
        rows, cols = (a % t.ndim for a in axes)
        if rows == cols:
            raise ValueError("Duplicate axes given.")
        return _matrix_norm(t, ord, rows, cols, keepdims)
    raise ValueError("Improper number of dimensions to norm.")


@rule(np.nansum)
def nansum(a, axis=None, dtype=None, out=None, keepdims=False):
    """The sum with NaNs counted as zero."""
    t = as_tracer(a)
    if t.dtype.kind == "f":
        t = np.where(np.isnan(t), np.asarray(0, t.dtype), t)
    return np.sum(t, axis=axis, dtype=dtype, keepdims=keepdims)


def _nan_extreme(reduce, fill: float):
    def lower(a, axis=None, out=None, keepdims=False):
        t = as_tracer(a)
        if t.dtype.kind != "f":
            return reduce(t, axis=axis, keepdims=keepdims)
        nan = np.isnan(t)
        best = reduce(np.where(nan, np.asarray(fill, t.dtype), t), axis=axis, keepdims=keepdims)
        all_nan = np.all(nan, axis=axis, keepdims=keepdims)
        return np.where(all_nan, np.asarray(np.nan, t.dtype), best)

    lower.__doc__ = f"numpy's {reduce.__name__} ignoring NaN (NaN only where every element is NaN)"
    return lower


RULES[np.nanmax] = _nan_extreme(np.max, -np.inf)
RULES[np.nanmin] = _nan_extreme(np.min, np.inf)


@rule(np.ptp)
def ptp(a, axis=None, out=None, keepdims=False):
    """Peak to peak: max - min."""
    t = as_tracer(a)
    return np.max(t, axis=axis, keepdims=keepdims) - np.min(t, axis=axis, keepdims=keepdims)
