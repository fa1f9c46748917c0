"""Exact reduction modulo pi/2 for huge arguments (Payne-Hanek), in integers, without branches.

A float is x = m * 2^e with m an integer (24 bits for f32, 53 for f64). Then
x * 2/pi = m * sum_k b_k 2^(e-k), where b_k is bit k of 2/pi (weight 2^-k). Bits with
e - k >= 2 only add multiples of 4, a whole number of turns, so they are dropped; bits far
below add less than the precision needed. What is left is m times a window of 2/pi's bits
starting at bit e-1: an integer product whose top bits are the quadrant and the fraction.

    f32: a 96-bit window (3 limbs of 32 bits, one row per exponent in a table); the top 64
         bits of m * window (mod 2^96) are the quadrant (2 bits) and a 62-bit fraction.
    f64: a 192-bit window (6 limbs, cut out of one bit string of 2/pi with shifts); the top
         128 bits of m * window (mod 2^192) are the quadrant and a 126-bit fraction.

The closest float to a multiple of pi/2 leaves |r| of about 2^-30 (f32) or 2^-61 (f64) of a
quadrant, so these fractions keep at least 30 (f32) and 60 (f64) significant bits there.
Every lane computes this (32x32->64-bit multiplies, table loads) and trig.py selects it only
where |x| is beyond the Cody-Waite range; the table index is always in bounds.
"""

from __future__ import annotations

from functools import cache

from llvmlite import ir

from ..llvm_types import I32, I64, emitted, internal_global
from .builder import MathBuilder

LIMB = 32
F32_LIMBS = 3
F64_LIMBS = 6
F64_PAD_BITS = 64  # zero bits before 2/pi's first fraction bit, so a window may start above it
F64_FIRST_BIT = -F64_PAD_BITS + 1  # the lowest window start (k0) the table can serve
TWO_OVER_PI_BITS = 1300  # f64's largest window ends near bit 971 + 192


def _pi_fixed(bits: int) -> int:
    """floor(pi * 2^bits) (to within a few units), by Machin's formula in integers."""

    def arctan_inverse(n: int, scale: int) -> int:
        total, term, k, sign = 0, scale // n, 1, 1
        while term:
            total += sign * (term // k)
            term //= n * n
            k, sign = k + 2, -sign
        return total

    guard = 32
    scale = 1 << (bits + guard)
    return (16 * arctan_inverse(5, scale) - 4 * arctan_inverse(239, scale)) >> guard


@cache
def two_over_pi(bits: int = TWO_OVER_PI_BITS) -> int:
    """floor(2/pi * 2^bits): bit k of 2/pi (weight 2^-k) is bit (bits - k) of the result."""
    guard = 64
    return ((1 << (2 * (bits + guard) + 1)) // _pi_fixed(bits + guard)) >> guard


def window(k0: int, width: int) -> int:
    """Bits k0 .. k0+width-1 of 2/pi as an integer (bits above 2/pi's binary point are 0)."""
    shift = TWO_OVER_PI_BITS - (k0 + width - 1)
    value = two_over_pi()
    return (value >> shift if shift >= 0 else value << -shift) & ((1 << width) - 1)


def _limbs(value: int, count: int) -> list[int]:
    """`value` as `count` 32-bit limbs, most significant first."""
    return [(value >> (LIMB * (count - 1 - i))) & 0xFFFFFFFF for i in range(count)]


def _table(m: MathBuilder, name: str, words: list[int]) -> ir.GlobalVariable:
    g = m.module.globals.get(name)
    if isinstance(g, ir.GlobalVariable):
        return g
    ty = ir.ArrayType(I32, len(words))
    g = internal_global(m.module, ty, name, ir.Constant(ty, words), 16)
    g.global_constant = True
    return g


def _load(m: MathBuilder, table: ir.GlobalVariable, index) -> ir.Value:
    """table[index] zero-extended to i64 (index an in-bounds i64); lane by lane for a vector
    builder (LLVM makes a gather of it where the target has one)."""
    if not m.lanes:
        return _load_one(m, table, index)
    out: ir.Value = ir.Constant(m.like(I64), None)
    for lane in range(m.lanes):
        k = ir.Constant(I32, lane)
        out = m.b.insert_element(out, _load_one(m, table, m.b.extract_element(index, k)), k)
    return out


def _load_one(m: MathBuilder, table: ir.GlobalVariable, index) -> ir.Instruction:
    ptr = m.b.gep(table, [ir.Constant(I64, 0), index], inbounds=True)
    return emitted(m.b.zext(m.b.load(ptr), I64))


def _c(m: MathBuilder, value: int) -> ir.Constant:
    return m.const(I64, value)


def _lo(m: MathBuilder, v):
    return m.b.and_(v, _c(m, 0xFFFFFFFF))


def _hi(m: MathBuilder, v):
    return m.b.lshr(v, _c(m, LIMB))


def reduce_huge(m: MathBuilder, a):
    """(r, quadrant) for a = |x| finite and beyond the Cody-Waite range: a = q*pi/2 + r, with
    |r| <= pi/4 and q (an integer of m's width) taken mod 4. Garbage, but no poison and no
    out-of-bounds load, for smaller a: the caller selects it away there."""
    if m.wide:
        top, low = _f64_fraction(m, m.bits(a))
    else:
        top, low = _f32_fraction(m, m.bits(a)), None
    # top: bits 2^1 .. 2^-62 of the quadrant count x*2/pi (mod 4), then `low` below it.
    # Round to the nearest quadrant; the rest, shifted up 2 bits, is a signed fraction in
    # [-1/2, 1/2) of a quadrant.
    q = m.b.lshr(m.b.add(top, _c(m, 1 << 61)), _c(m, 62))
    signed = m.b.shl(top, _c(m, 2))
    if low is not None:
        signed = m.b.or_(signed, m.b.lshr(low, _c(m, 62)))
        low = m.b.shl(low, _c(m, 2))
    r = _to_radians(m, signed, low)
    q = q if m.wide else m.b.trunc(q, m.it)
    return r, q


def _f32_fraction(m: MathBuilder, bits):
    """Top 64 bits of m * window mod 2^96, for f32 bits (i32)."""
    exponent = m.b.and_(m.b.lshr(bits, m.ci(23)), m.ci(0xFF))
    mantissa = emitted(m.b.zext(m.b.or_(m.b.and_(bits, m.ci(0x7FFFFF)), m.ci(0x800000)), m.like(I64)))
    # x = mantissa * 2^(exponent - 150); the window starts at bit k0 = exponent - 151.
    rows = [_limbs(window(ex - 151, LIMB * F32_LIMBS), F32_LIMBS) for ex in range(256)]
    table = _table(m, "hloscope.two_over_pi.f32", [w for row in rows for w in row])
    row = m.b.mul(emitted(m.b.zext(exponent, m.like(I64))), _c(m, F32_LIMBS))
    w0, w1, w2 = (_load(m, table, m.b.add(row, _c(m, i))) for i in range(F32_LIMBS))
    # m*w0*2^64 + m*w1*2^32 + m*w2, mod 2^96, shifted down 32 (the dropped bits carry nothing).
    top = m.b.add(m.b.shl(m.b.mul(mantissa, w0), _c(m, LIMB)), m.b.mul(mantissa, w1))
    return m.b.add(top, _hi(m, m.b.mul(mantissa, w2)))


def _f64_window(m: MathBuilder, k0) -> list:
    """The 6 limbs (i64 values < 2^32, most significant first) of 2/pi's bits from k0 on."""
    # The bit string: F64_PAD_BITS zeros, then 2/pi's bits from 2^-1 on, then zeros up to
    # whole words plus one spare word for the last window's shifted-in bits.
    count = (F64_PAD_BITS + TWO_OVER_PI_BITS) // LIMB + 2
    words = _limbs(two_over_pi() << (count * LIMB - F64_PAD_BITS - TWO_OVER_PI_BITS), count)
    table = _table(m, "hloscope.two_over_pi.bits", words)
    start = m.b.add(k0, _c(m, F64_PAD_BITS - 1))  # stream position of bit k0
    word, shift = m.b.lshr(start, _c(m, 5)), m.b.and_(start, _c(m, LIMB - 1))
    raw = [_load(m, table, m.b.add(word, _c(m, i))) for i in range(F64_LIMBS + 1)]
    return [_hi(m, m.b.shl(m.b.or_(m.b.shl(raw[i], _c(m, LIMB)), raw[i + 1]), shift)) for i in range(F64_LIMBS)]


def _f64_fraction(m: MathBuilder, bits):
    """(top, low): the top 128 bits of m * window mod 2^192, for f64 bits (i64)."""
    exponent = m.b.and_(m.b.lshr(bits, _c(m, 52)), _c(m, 0x7FF))
    mantissa = m.b.or_(m.b.and_(bits, _c(m, (1 << 52) - 1)), _c(m, 1 << 52))
    # x = mantissa * 2^(exponent - 1075); the window starts at k0 = exponent - 1076, kept
    # within the table for the small lanes that the caller discards.
    k0 = m.b.sub(exponent, _c(m, 1076))
    k0 = m.b.select(m.b.icmp_signed("<", k0, _c(m, F64_FIRST_BIT)), _c(m, F64_FIRST_BIT), k0)
    w = list(reversed(_f64_window(m, k0)))  # w[j]: weight 2^(32j)
    lo_m, hi_m = _lo(m, mantissa), _hi(m, mantissa)
    # Schoolbook columns 2..5 (base 2^32) of mantissa * window; columns 0-1 would only carry
    # into bit 2^-126 of a quadrant, far below what the result keeps.
    limbs, carry = [], _c(m, 0)
    for col in range(2, 6):
        p_lo = m.b.mul(lo_m, w[col])
        p_hi = m.b.mul(hi_m, w[col - 1])
        q_lo = m.b.mul(lo_m, w[col - 1])
        q_hi = m.b.mul(hi_m, w[col - 2])
        s = m.b.add(m.b.add(_lo(m, p_lo), _lo(m, p_hi)), m.b.add(_hi(m, q_lo), _hi(m, q_hi)))
        s = m.b.add(s, carry)
        limbs.append(_lo(m, s))
        carry = _hi(m, s)
    top = m.b.or_(m.b.shl(limbs[3], _c(m, LIMB)), limbs[2])
    low = m.b.or_(m.b.shl(limbs[1], _c(m, LIMB)), limbs[0])
    return top, low


PIO2_HI = 1.5707963267948966
PIO2_LO = 6.123233995736766e-17


def _to_radians(m: MathBuilder, signed, low):
    """(signed * 2^-64 + low * 2^-128) quadrants in radians, in m's float type."""
    f64 = m.like(ir.DoubleType())
    scale = 2.0**-64
    if low is None:  # f32: the fraction in f64 (53 bits of its 64) times pi/2, rounded once to f32
        f = emitted(m.b.sitofp(signed, f64))
        return m.narrow(m.b.fmul(f, m.const(ir.DoubleType(), PIO2_HI * scale)))
    hi = emitted(m.b.sitofp(signed, f64))
    # What sitofp rounded off (a few units; exact in integers), added back with `low`.
    rest = m.b.sub(signed, m.to_int(hi))  # saturating: hi may round up to 2^63
    low_part = m.fma(emitted(m.b.sitofp(rest, f64)), m.c(scale),
                     m.mul(emitted(m.b.uitofp(low, f64)), m.c(scale * scale)))
    t = m.mul(hi, m.c(scale))
    head = m.mul(t, m.c(PIO2_HI))
    error = m.fma(t, m.c(PIO2_HI), m.neg(head))  # head's rounding error, exactly
    tail = m.fma(t, m.c(PIO2_LO), m.fma(low_part, m.c(PIO2_HI), error))
    return m.add(head, tail)
