"""Integer element functions with XLA's rules for the cases C leaves undefined.

numpy's `//` and `%` floor (toward -inf); XLA's truncate toward zero like C. Division by
zero, INT_MIN / -1 and shifts past the bit width all have defined results in XLA (see
EmitIntegerDivide / EmitIntegerRemainder in xla/service/elemental_ir_emitter.cc and the
evaluator's HandleDivide / HandleShift*). Bit twiddling happens on the unsigned view of the
same width, where wrap-around is well defined.
"""

from __future__ import annotations

import numpy as np


def _unsigned(dtype: np.dtype) -> np.dtype:
    return np.dtype(f"u{dtype.itemsize}")


def _signed(dtype: np.dtype) -> np.dtype:
    return np.dtype(f"i{dtype.itemsize}")


def _bits(dtype: np.dtype) -> int:
    return dtype.itemsize * 8


def _is_signed(dtype: np.dtype) -> bool:
    return dtype.kind == "i"


def divide(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Truncating division. x / 0 is -1 (signed) or all ones (unsigned); INT_MIN / -1 is INT_MIN."""
    dt = a.dtype
    info = np.iinfo(dt)
    zero = b == 0
    overflow = (a == info.min) & (b == -1) if _is_signed(dt) else np.zeros_like(zero)
    safe_b = np.where(zero | overflow, dt.type(1), b)
    # C's % truncates, so a - rem is an exact multiple of b and // is exact on it.
    quotient = (a - np.fmod(a, safe_b)) // safe_b
    on_zero = dt.type(-1) if _is_signed(dt) else dt.type(info.max)
    return np.where(zero, on_zero, np.where(overflow, a, quotient)).astype(dt)


def remainder(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """C's % (the sign of the dividend). x % 0 is x; INT_MIN % -1 is 0."""
    dt = a.dtype
    zero = b == 0
    overflow = (a == np.iinfo(dt).min) & (b == -1) if _is_signed(dt) else np.zeros_like(zero)
    safe_b = np.where(zero | overflow, dt.type(1), b)
    rem = np.fmod(a, safe_b)
    return np.where(zero, a, np.where(overflow, dt.type(0), rem)).astype(dt)


def power(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Integer power by repeated squaring, wrapping like multiplication.

    A negative exponent gives 0 except for base 1 (always 1) and base -1 (1 or -1 by the
    exponent's parity): the exact result, truncated toward zero. This is what XLA:CPU
    computes (checked through jaxlib: power(s32 -1, -1) = -1, power(-1, -2) = 1).
    """
    dt = a.dtype
    u = _unsigned(dt)
    negative = b < 0 if _is_signed(dt) else np.zeros(np.shape(b), bool)
    exponent = np.where(negative, 0, b).astype(u)
    base = np.asarray(a).astype(u)
    result = np.ones(np.broadcast_shapes(np.shape(a), np.shape(b)), u)
    while np.any(exponent):
        result = np.where(exponent & u.type(1), result * base, result)
        base = base * base
        exponent = exponent >> u.type(1)
    result = result.astype(dt)
    if not _is_signed(dt):
        return result
    odd = (b & dt.type(1)) != 0
    on_negative = np.where(a == 1, 1, np.where(a == -1, np.where(odd, -1, 1), 0)).astype(dt)
    return np.where(negative, on_negative, result).astype(dt)


def _shift_count(a: np.ndarray, b: np.ndarray):
    """(count as unsigned, out-of-range mask): XLA reads the count as unsigned, so -1 is huge."""
    u = _unsigned(a.dtype)
    count = np.asarray(b).astype(u)  # a C cast: -1 becomes the largest unsigned value
    out_of_range = count >= _bits(a.dtype)
    return np.where(out_of_range, u.type(0), count), out_of_range


def shift_left(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a << b; 0 when b >= the bit width."""
    u = _unsigned(a.dtype)
    count, oob = _shift_count(a, b)
    shifted = (np.asarray(a).astype(u) << count).astype(a.dtype)
    return np.where(oob, a.dtype.type(0), shifted)


def shift_right_logical(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Unsigned a >> b (zeros shifted in); 0 when b >= the bit width."""
    u = _unsigned(a.dtype)
    count, oob = _shift_count(a, b)
    shifted = (np.asarray(a).astype(u) >> count).astype(a.dtype)
    return np.where(oob, a.dtype.type(0), shifted)


def shift_right_arithmetic(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Signed a >> b (sign bits shifted in); all sign bits when b >= the bit width."""
    s = _signed(a.dtype)
    count, oob = _shift_count(a, b)
    signed = np.asarray(a).astype(s)
    shifted = (signed >> count.astype(s)).astype(a.dtype)
    fill = np.where(signed < 0, s.type(-1), s.type(0)).astype(a.dtype)
    return np.where(oob, fill, shifted)


def popcnt(x: np.ndarray) -> np.ndarray:
    """Number of set bits of the two's complement pattern (numpy counts |x| for signed ints)."""
    return np.bitwise_count(np.asarray(x).astype(_unsigned(x.dtype))).astype(x.dtype)


def count_leading_zeros(x: np.ndarray) -> np.ndarray:
    """Leading zero bits of the pattern (the full width for 0), by binary search on the top bits."""
    bits = _bits(x.dtype)
    u = _unsigned(x.dtype)
    v = np.asarray(x).astype(u)
    count = np.zeros(v.shape, np.int64)
    shift = bits // 2
    while shift:
        top_clear = (v >> u.type(bits - shift)) == 0
        count += np.where(top_clear, shift, 0)
        v = np.where(top_clear, v << u.type(shift), v)
        shift //= 2
    count += (v >> u.type(bits - 1)) == 0
    return count.astype(x.dtype)


def clamp(lo: np.ndarray, x: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """min(hi, max(x, lo)) as std::min / std::max compute it."""
    m = np.where(x < lo, lo, x)
    return np.where(m < hi, m, hi)
