"""Floating-point element functions whose XLA rule differs from numpy's default.

Each takes and returns arrays of one float dtype. The rules are those of XLA's HloEvaluator
(xla/hlo/evaluator/hlo_evaluator_typed_visitor.h) and its CPU emitter.
"""

from __future__ import annotations

import math

import numpy as np

_ERF = np.frompyfunc(math.erf, 1, 1)


def logistic(x: np.ndarray) -> np.ndarray:
    """1 / (1 + exp(-x)) in the element type (XLA's HandleLogistic)."""
    one = x.dtype.type(1)
    return one / (one + np.exp(-x))


def rsqrt(x: np.ndarray) -> np.ndarray:
    """1 / sqrt(x) in the element type: two roundings, as XLA's evaluator does."""
    return x.dtype.type(1) / np.sqrt(x)


def round_afz(x: np.ndarray) -> np.ndarray:
    """Round half away from zero (C's `round`): 2.5 -> 3, -2.5 -> -3, -0.3 -> -0.

    `x + 0.5` is not safe (0.49999997f + 0.5f rounds up to 1), so the fraction is measured
    exactly: `x - trunc(x)` is exact for every float.
    """
    t = np.trunc(x)
    bump = np.abs(x - t) >= x.dtype.type(0.5)
    return np.where(bump, t + np.copysign(x.dtype.type(1), x), t)


def sign(x: np.ndarray) -> np.ndarray:
    """-1, 0 or 1 with the sign of x; NaN stays NaN and -0.0 stays -0.0 (copysign rule)."""
    magnitude = (x != 0).astype(x.dtype)
    return np.where(np.isnan(x), x, np.copysign(magnitude, x))


def erf(x: np.ndarray) -> np.ndarray:
    """The error function, computed in float64 with math.erf and rounded to the element type."""
    if x.size == 0:
        return x.copy()
    return np.asarray(_ERF(x.astype(np.float64)), dtype=np.float64).astype(x.dtype)


def maximum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """NaN if either is NaN (the lhs NaN first); otherwise std::max, which keeps the lhs on ties
    (so max(-0.0, +0.0) is -0.0)."""
    r = np.where(a < b, b, a)
    r = np.where(np.isnan(b), b, r)
    return np.where(np.isnan(a), a, r)


def minimum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """NaN if either is NaN (the lhs NaN first); otherwise std::min, which keeps the lhs on ties."""
    r = np.where(b < a, b, a)
    r = np.where(np.isnan(b), b, r)
    return np.where(np.isnan(a), a, r)


def power(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """C's pow; 0 ** 0 is 1 (XLA's evaluator says so explicitly, C agrees)."""
    return np.power(a, b)


def clamp(lo: np.ndarray, x: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """min(hi, max(x, lo)); a NaN in lo, x or hi (checked in that order) is the result."""
    m = np.where(x < lo, lo, x)
    r = np.where(m < hi, m, hi)
    r = np.where(np.isnan(hi), hi, r)
    r = np.where(np.isnan(x), x, r)
    return np.where(np.isnan(lo), lo, r)
