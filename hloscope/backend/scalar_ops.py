"""The per-opcode scalar table: how one element of each elementwise opcode is computed.

This is XLA's ElementalIrEmitter::EmitFloatUnaryOp / EmitIntegerBinaryOp / ... as data:
one table row per (opcode, element kind). Every row takes register values (see
llvm_types: i1 for pred, f32 for 16-bit floats) and returns one. The CPU and GPU
backends share this table, the transcendental rows (backend/mathlib/) included.

Rules follow the evaluator exactly where C leaves things undefined: integer division by
zero, INT_MIN / -1, shifts past the bit width, float -> int conversion (saturating, NaN -> 0),
NaN-propagating maximum/minimum and clamp.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from llvmlite import ir

from . import mathlib
from .llvm_types import F32, F64, I1, emitted, info, int_width, type_of
from .unsupported import unsupported


@dataclass
class ScalarContext:
    """What a scalar rule needs: the builder, the LLVM module (for intrinsics), the target's
    name (for error messages), the options."""

    b: ir.IRBuilder
    module: ir.Module
    target: str
    fast_math: bool = False
    _intrinsics: dict = field(default_factory=dict)
    # When a list: sin/cos/tan take the Cody-Waite-only path and append an i1 per call, true
    # where the argument is beyond that range (see backend/huge_trig_loop.py).
    huge_trig: list | None = None

    @property
    def flags(self) -> tuple[str, ...]:
        """Fast-math flags for float arithmetic (none unless fast_math is on)."""
        return ("fast",) if self.fast_math else ()

    def intrinsic(self, full_name: str, ret: ir.Type, args: list[ir.Type]) -> ir.Function:
        """Declare (once) and return the LLVM intrinsic `full_name`, e.g. `llvm.sqrt.f32`."""
        fn = self.module.globals.get(full_name)
        if fn is None:
            fn = ir.Function(self.module, ir.FunctionType(ret, args), full_name)
        return fn

    def call(self, name: str, *args: ir.Value) -> ir.Value:
        """Call `llvm.<name>.<type>`, an intrinsic overloaded on its first argument's type."""
        t = type_of(args[0])
        fn = self.intrinsic(f"llvm.{name}.{suffix(t)}", t, [type_of(a) for a in args])
        return self.b.call(fn, list(args), fastmath=self.flags if _is_float_type(t) else ())


def suffix(t: ir.Type) -> str:
    if t == F32:
        return "f32"
    if t == F64:
        return "f64"
    return f"i{int_width(t)}"


def _is_float_type(t: ir.Type) -> bool:
    return t in (F32, F64)


# ---------------------------------------------------------------- unary
def _float_sign(ctx, x):
    b = ctx.b
    one_or_zero = b.select(b.fcmp_ordered("==", x, x.type(0.0)), x.type(0.0), x.type(1.0))
    signed = ctx.call("copysign", one_or_zero, x)
    return b.select(b.fcmp_unordered("uno", x, x), x, signed)


FLOAT_UNARY = {
    "abs": lambda c, x: c.call("fabs", x),
    "negate": lambda c, x: c.b.fneg(x, flags=c.flags),
    "sqrt": lambda c, x: c.call("sqrt", x),
    "rsqrt": lambda c, x: c.b.fdiv(x.type(1.0), c.call("sqrt", x), flags=c.flags),
    "floor": lambda c, x: c.call("floor", x),
    "ceil": lambda c, x: c.call("ceil", x),
    "round-nearest-even": lambda c, x: c.call("roundeven", x),
    "round-nearest-afz": lambda c, x: c.call("round", x),
    "sign": _float_sign,
    "copy": lambda c, x: x,
    "is-finite": lambda c, x: c.b.fcmp_ordered("!=", c.call("fabs", x), x.type(float("inf"))),
}
for _name in mathlib.UNARY:
    FLOAT_UNARY[_name] = (lambda n: lambda c, x: mathlib.unary(c, n, x))(_name)


def _int_abs(ctx, x):
    b = ctx.b
    return b.select(b.icmp_signed("<", x, x.type(0)), b.neg(x), x)


def _int_sign(ctx, x, signed: bool):
    b = ctx.b
    if not signed:
        return emitted(b.zext(b.icmp_unsigned("!=", x, x.type(0)), x.type))
    pos = b.zext(b.icmp_signed(">", x, x.type(0)), x.type)
    neg = b.zext(b.icmp_signed("<", x, x.type(0)), x.type)
    return emitted(b.sub(pos, neg))


def emit_unary(ctx: ScalarContext, opcode: str, x: ir.Value, dtype: str, out_dtype: str) -> ir.Value:
    """One element of a unary elementwise op on a `dtype` value."""
    kind = info(dtype).kind
    if kind == "float":
        rule = FLOAT_UNARY.get(opcode)
        if rule is None:
            raise unsupported(ctx.target, f"{opcode} on {dtype}")
        return rule(ctx, x)
    b = ctx.b
    if opcode == "not":
        return emitted(b.not_(x))
    if opcode == "copy":
        return x
    if kind == "pred":
        raise unsupported(ctx.target, f"{opcode} on pred")
    if opcode == "negate":
        return emitted(b.neg(x))
    if opcode == "abs":
        return _int_abs(ctx, x) if kind == "signed" else x
    if opcode == "sign":
        return _int_sign(ctx, x, kind == "signed")
    if opcode == "popcnt":
        return ctx.call("ctpop", x)
    if opcode == "count-leading-zeros":
        t = type_of(x)
        fn = ctx.intrinsic(f"llvm.ctlz.{suffix(t)}", t, [t, I1])
        return b.call(fn, [x, I1(0)])
    raise unsupported(ctx.target, f"{opcode} on {dtype}")


# ---------------------------------------------------------------- binary
FLOAT_BINARY = {
    "add": lambda c, x, y: c.b.fadd(x, y, flags=c.flags),
    "subtract": lambda c, x, y: c.b.fsub(x, y, flags=c.flags),
    "multiply": lambda c, x, y: c.b.fmul(x, y, flags=c.flags),
    "divide": lambda c, x, y: c.b.fdiv(x, y, flags=c.flags),
    "remainder": lambda c, x, y: c.b.frem(x, y, flags=c.flags),
    "maximum": lambda c, x, y: c.call("maximum", x, y),
    "minimum": lambda c, x, y: c.call("minimum", x, y),
}
for _name in mathlib.BINARY:
    FLOAT_BINARY[_name] = (lambda n: lambda c, x, y: mathlib.binary(c, n, x, y))(_name)

PRED_BINARY = {  # pred arithmetic is logic: + is or, * is and (the evaluator's rules)
    "add": "or_", "maximum": "or_", "or": "or_",
    "multiply": "and_", "minimum": "and_", "and": "and_",
    "xor": "xor",
}


def _int_divide(ctx, x, y, signed: bool, remainder: bool):
    """XLA's rules: x / 0 = -1 (all ones), x % 0 = x, INT_MIN / -1 = INT_MIN, INT_MIN % -1 = 0."""
    b = ctx.b
    t = x.type
    zero = b.icmp_unsigned("==", y, t(0))
    bad = zero
    if signed:
        int_min = t(1 << (t.width - 1))
        overflow = b.and_(b.icmp_unsigned("==", x, int_min), b.icmp_signed("==", y, t(-1)))
        bad = b.or_(zero, overflow)
    safe = b.select(bad, t(1), y)
    if remainder:
        r = b.srem(x, safe) if signed else b.urem(x, safe)
        return b.select(zero, x, b.select(bad, t(0), r))
    q = b.sdiv(x, safe) if signed else b.udiv(x, safe)
    return b.select(zero, t(-1), q)  # on overflow q = INT_MIN / 1 = INT_MIN already


def _shift(ctx, x, y, op: str):
    """Shifts with XLA's out-of-range rule: counts >= the width give 0 (or all sign bits)."""
    b = ctx.b
    t = x.type
    in_range = b.icmp_unsigned("<", y, t(t.width))
    count = b.select(in_range, y, t(0))
    if op == "shl":
        return b.select(in_range, b.shl(x, count), t(0))
    if op == "lshr":
        return b.select(in_range, b.lshr(x, count), t(0))
    return b.ashr(x, b.select(in_range, y, t(t.width - 1)))


def _int_power(ctx, x, y, signed: bool):
    """Exponentiation by squaring, unrolled over the exponent's bits (so it vectorizes).

    A negative exponent gives 0, except base 1 (1) and base -1 (+-1 by parity), as the
    evaluator defines it.
    """
    b = ctx.b
    t = x.type
    result, base, e = t(1), x, y
    if signed:
        e = b.select(b.icmp_signed("<", y, t(0)), t(0), y)
    for _ in range(t.width):
        odd = b.trunc(e, I1)
        result = b.select(odd, b.mul(result, base), result)
        base = b.mul(base, base)
        e = b.lshr(e, t(1))
    if not signed:
        return result
    odd_y = b.trunc(y, I1)
    on_negative = b.select(
        b.icmp_signed("==", x, t(1)), t(1),
        b.select(b.icmp_signed("==", x, t(-1)), b.select(odd_y, t(-1), t(1)), t(0)),
    )
    return b.select(b.icmp_signed("<", y, t(0)), on_negative, result)


def _int_binary(ctx, opcode, x, y, signed: bool):
    b = ctx.b
    simple = {"add": b.add, "subtract": b.sub, "multiply": b.mul, "and": b.and_, "or": b.or_, "xor": b.xor}
    if opcode in simple:
        return simple[opcode](x, y)
    if opcode in ("maximum", "minimum"):
        cmp = b.icmp_signed if signed else b.icmp_unsigned
        pick_x = cmp(">=" if opcode == "maximum" else "<=", x, y)
        return b.select(pick_x, x, y)
    if opcode in ("divide", "remainder"):
        return _int_divide(ctx, x, y, signed, opcode == "remainder")
    if opcode == "power":
        return _int_power(ctx, x, y, signed)
    shifts = {"shift-left": "shl", "shift-right-logical": "lshr", "shift-right-arithmetic": "ashr"}
    if opcode in shifts:
        return _shift(ctx, x, y, shifts[opcode])
    return None


def emit_binary(ctx: ScalarContext, opcode: str, x: ir.Value, y: ir.Value, dtype: str) -> ir.Value:
    """One element of a binary elementwise op on two `dtype` values."""
    kind = info(dtype).kind
    result = None
    if kind == "float":
        rule = FLOAT_BINARY.get(opcode)
        result = rule(ctx, x, y) if rule else None
    elif kind == "pred":
        if opcode == "power":
            result = ctx.b.or_(x, ctx.b.not_(y))
        elif opcode in PRED_BINARY:
            result = getattr(ctx.b, PRED_BINARY[opcode])(x, y)
    else:
        result = _int_binary(ctx, opcode, x, y, kind == "signed")
    if result is None:
        raise unsupported(ctx.target, f"{opcode} on {dtype}")
    return result


# ---------------------------------------------------------------- compare, select, clamp
_FLOAT_CMP = {"EQ": "==", "NE": "!=", "LT": "<", "LE": "<=", "GT": ">", "GE": ">="}


def total_order_key(b: ir.IRBuilder, x: ir.Value) -> ir.Value:
    """Integers that order like floats in TOTALORDER (negative floats get their bits flipped)."""
    it = ir.IntType(64 if type_of(x) == F64 else 32)
    bits = b.bitcast(x, it)
    flip = b.lshr(b.ashr(bits, it(it.width - 1)), it(1))
    return emitted(b.xor(bits, flip))


def emit_compare(ctx: ScalarContext, direction: str, kind: str | None, x, y, dtype: str) -> ir.Value:
    """compare(x, y), direction=..., type=... -> i1."""
    b = ctx.b
    t = info(dtype)
    op = _FLOAT_CMP[direction]
    if t.is_float and kind != "TOTALORDER":
        if op == "!=":
            return b.fcmp_unordered("!=", x, y)
        return b.fcmp_ordered(op, x, y)
    if t.is_float:
        return b.icmp_signed(op, total_order_key(b, x), total_order_key(b, y))
    signed = kind == "SIGNED" if kind in ("SIGNED", "UNSIGNED") else t.kind == "signed"
    return b.icmp_signed(op, x, y) if signed else b.icmp_unsigned(op, x, y)


def emit_clamp(ctx: ScalarContext, lo, x, hi, dtype: str) -> ir.Value:
    """clamp(lo, x, hi) = min(hi, max(x, lo)); for floats a NaN in lo, x or hi wins."""
    b = ctx.b
    t = info(dtype)
    if t.is_float:
        m = b.select(b.fcmp_ordered("<", x, lo), lo, x)
        r = b.select(b.fcmp_ordered("<", m, hi), m, hi)
        for v in (hi, x, lo):
            r = b.select(b.fcmp_unordered("uno", v, v), v, r)
        return r
    less = b.icmp_signed if t.kind == "signed" else b.icmp_unsigned
    m = b.select(less("<", x, lo), lo, x)
    return b.select(less("<", m, hi), m, hi)
