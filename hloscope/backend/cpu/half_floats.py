"""f16 <-> f32 conversions for CPUs without F16C: the two runtime functions LLVM calls there.

f16 values live in f32 registers (llvm_types.from_storage / to_storage), so every load and
store of an f16 array is an `fpext half` or `fptrunc ... to half`. Where the CPU has F16C
(x86-64 from Ivy Bridge on, x86-64-v3) or is an ARM one, those are instructions; elsewhere
(x86-64 without AVX: older or low-power cores, virtual machines that hide the feature, or
`cpu="x86-64"`) LLVM calls the compiler runtime instead:

    float __extendhfsf2(half h)      half __truncsfhf2(float x)

which a JIT does not find: the call would jump to address 0. This module defines both, with
integer arithmetic only (so that compiling them never needs them), once per process; jit.py
registers them as it registers the thread pool. The rules are IEEE 754's and F16C's:

    extend    exact: normal and subnormal values, zeros and infinities keep their value; a
              NaN keeps its sign and payload
    truncate  round to nearest, ties to even; beyond the largest half (65504, and what rounds
              above it) an infinity; below 2**-14 a subnormal or zero; a NaN keeps its sign
              and the top ten bits of its payload, quieted (what vcvtps2ph gives)

AOT objects are linked by the C compiler, whose runtime library has both.
"""

from __future__ import annotations

from llvmlite import ir

from ..llvm_types import F16, F32, I16, I32

EXTEND, TRUNCATE = "__extendhfsf2", "__truncsfhf2"
SYMBOLS = (EXTEND, TRUNCATE)


def half_module() -> ir.Module:
    m = ir.Module(name="hloscope_half_floats")
    _extend(ir.Function(m, ir.FunctionType(F32, [F16]), EXTEND))
    _truncate(ir.Function(m, ir.FunctionType(F16, [F32]), TRUNCATE))
    return m


def _extend(fn: ir.Function) -> None:
    """f32 bits: the sign moved up; a normal value's exponent rebased (15 -> 127) and mantissa
    widened; a subnormal's value is its mantissa times 2**-24 (exact in f32); all-ones
    exponents stay all ones."""
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    h = b.zext(b.bitcast(fn.args[0], I16), I32)
    sign = b.shl(b.and_(h, I32(0x8000)), I32(16))
    exponent = b.and_(b.lshr(h, I32(10)), I32(0x1F))
    mantissa = b.and_(h, I32(0x3FF))
    normal = b.or_(b.shl(b.add(exponent, I32(127 - 15)), I32(23)), b.shl(mantissa, I32(13)))
    special = b.or_(I32(0x7F800000), b.shl(mantissa, I32(13)))
    subnormal = b.bitcast(b.fmul(b.uitofp(mantissa, F32), F32(2.0 ** -24)), I32)
    magnitude = b.select(b.icmp_unsigned("==", exponent, I32(0x1F)), special,
                         b.select(b.icmp_unsigned("==", exponent, I32(0)), subnormal, normal))
    b.ret(b.bitcast(b.or_(sign, magnitude), F32))


def _truncate(fn: ir.Function) -> None:
    """f16 bits of |x| by its range, then the sign:
    NaN           quieted, the payload's top ten bits kept
    >= 2**16      infinity (65520 and up round there through the normal case's carry)
    < 2**-14      |x| + 0.5 in f32 rounds it at the subnormal's last place (nearest even,
                  the FPU's own rounding); the bits above 0.5's are the half's
    otherwise     the exponent rebased (127 -> 15) and the mantissa rounded to nearest even:
                  add 0xFFF plus the lowest kept bit, then drop 13 bits (a carry may
                  round up into the exponent, as it should)"""
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    bits = b.bitcast(fn.args[0], I32)
    sign = b.and_(b.lshr(bits, I32(16)), I32(0x8000))
    magnitude = b.and_(bits, I32(0x7FFFFFFF))
    nan = b.or_(I32(0x7E00), b.and_(b.lshr(magnitude, I32(13)), I32(0x3FF)))
    half_magic = I32(126 << 23)  # 0.5f
    tiny = b.sub(b.bitcast(b.fadd(b.bitcast(magnitude, F32), b.bitcast(half_magic, F32)), I32), half_magic)
    odd = b.and_(b.lshr(magnitude, I32(13)), I32(1))
    normal = b.lshr(b.add(b.add(magnitude, I32(((15 - 127) << 23) + 0xFFF)), odd), I32(13))
    small = b.icmp_unsigned("<", magnitude, I32(113 << 23))
    huge = b.icmp_unsigned(">=", magnitude, I32((127 + 16) << 23))
    is_nan = b.icmp_unsigned(">", magnitude, I32(0x7F800000))
    result = b.select(is_nan, nan, b.select(huge, I32(0x7C00), b.select(small, tiny, normal)))
    b.ret(b.bitcast(b.trunc(b.or_(result, sign), I16), F16))
