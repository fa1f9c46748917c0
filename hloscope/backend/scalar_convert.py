"""Conversions in the scalar table: convert (by value), bitcast-convert (by bits) and
reduce-precision, with the evaluator's rules (float -> int truncates, saturates and maps NaN
to 0; anything -> pred is `x != 0`; 16-bit floats round to nearest even).
"""

from __future__ import annotations

from llvmlite import ir

from .llvm_types import F64, emitted, from_storage, info, int_width, round_to, storage_type, to_storage, type_of, value_type
from .scalar_ops import ScalarContext, suffix
from .unsupported import unsupported


def emit_convert(ctx: ScalarContext, x: ir.Value, src: str, dst: str) -> ir.Value:
    """convert: XLA's value conversion (float -> int truncates, saturates, NaN -> 0)."""
    b = ctx.b
    s, d = info(src), info(dst)
    to = value_type(dst)
    if src == dst:
        return x
    xt = type_of(x)
    if d.kind == "pred":
        if s.is_float:
            return b.fcmp_unordered("!=", x, xt(0.0))
        return b.icmp_unsigned("!=", x, xt(0))
    if s.kind == "pred":
        return emitted(b.uitofp(x, to) if d.is_float else b.zext(x, to))
    if s.is_float and d.is_float:
        if xt != to:
            x = emitted(b.fpext(x, to) if to == F64 else b.fptrunc(x, to))
        return round_to(b, x, dst)
    if d.is_float:
        v = emitted(b.sitofp(x, to) if s.kind == "signed" else b.uitofp(x, to))
        return round_to(b, v, dst)
    if s.is_float:
        name = "fptosi" if d.kind == "signed" else "fptoui"
        fn = ctx.intrinsic(f"llvm.{name}.sat.{suffix(to)}.{suffix(xt)}", to, [xt])
        return b.call(fn, [x])
    if int_width(to) < int_width(xt):
        return emitted(b.trunc(x, to))
    if int_width(to) > int_width(xt):
        return emitted(b.sext(x, to) if s.kind == "signed" else b.zext(x, to))
    return x


def emit_bitcast_convert(ctx: ScalarContext, x: ir.Value, src: str, dst: str) -> ir.Value:
    """bitcast-convert between element types of the same width: the same bits, reread."""
    width = info(src).bits
    if width != info(dst).bits:
        raise unsupported(ctx.target, f"bitcast-convert {src} -> {dst} (widths differ)")
    b = ctx.b
    raw = to_storage(b, x, src)
    if type_of(raw) != ir.IntType(width):
        raw = emitted(b.bitcast(raw, ir.IntType(width)))
    if storage_type(dst) != type_of(raw):
        raw = emitted(b.bitcast(raw, storage_type(dst)))
    return from_storage(b, raw, dst)


def emit_reduce_precision(ctx: ScalarContext, x: ir.Value, dtype: str, exponent_bits: int, mantissa_bits: int):
    """Round to a float with fewer exponent/mantissa bits, keeping the type (as the evaluator).

    Works on the register type's bits (f32 for 16-bit floats, which f32 holds exactly).
    """
    b = ctx.b
    xt = type_of(x)
    wide = xt == F64
    it = ir.IntType(64 if wide else 32)
    src_mantissa, src_exponent = (52, 11) if wide else (23, 8)
    sign = 1 << (it.width - 1)
    exp_mask = ((1 << src_exponent) - 1) << src_mantissa
    bits = b.bitcast(x, it)
    is_nan = b.icmp_unsigned(">", b.and_(bits, it(~sign & ((1 << it.width) - 1))), it(exp_mask))
    if mantissa_bits < src_mantissa:
        dropped = src_mantissa - mantissa_bits
        last = 1 << dropped
        odd = b.lshr(b.and_(bits, it(last)), it(dropped))
        bits = b.and_(b.add(bits, b.add(it((last >> 1) - 1), odd)), it(~(last - 1) & ((1 << it.width) - 1)))
    if exponent_bits < src_exponent:
        bias = (1 << (src_exponent - 1)) - 1
        reduced = (1 << (exponent_bits - 1)) - 1
        exponent = b.and_(bits, it(exp_mask))
        signed_zero = b.and_(bits, it(sign))
        overflow = b.icmp_unsigned(">", exponent, it((bias + reduced) << src_mantissa))
        underflow = b.icmp_unsigned("<=", exponent, it((bias - reduced) << src_mantissa))
        bits = b.select(overflow, b.or_(signed_zero, it(exp_mask)), bits)
        bits = b.select(underflow, signed_zero, bits)
    result = b.bitcast(bits, xt)
    return b.select(is_nan, x if mantissa_bits > 0 else xt(float("inf")), result)
