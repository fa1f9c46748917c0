"""algsimp rules for arithmetic, select, compare, convert and copy.

Each rule is `rule(inst, ctx) -> str | None`: the name of the instruction that replaces
`inst`, or None when the rule does not apply. The first docstring line is the identity the
rule applies; the log shows it next to the rule's name. `ctx` is algsimp's Simplifier
(`ctx.splat(name)` is the value of a constant or broadcast constant, `ctx.add` makes ops).

Float rules are exact: `x * 1`, `x / 1` and `x / 2^k -> x * 2^-k` give the same bits. Rules
that are only true for integers (`x * 0 = 0`, `x == x` is true) are not applied to floats,
where NaN and infinity break them.
"""

from __future__ import annotations

import numpy as np

from ...ir.dtypes import element_type, finfo, integer_range
from ...ir.instruction import Instruction
from ...ir.shape import ArrayShape


def _is_int(inst: Instruction) -> bool:
    return isinstance(inst.shape, ArrayShape) and inst.shape.element_type.is_integer


def _is_float(inst: Instruction) -> bool:
    return isinstance(inst.shape, ArrayShape) and inst.shape.element_type.is_float


# ---- add, subtract, multiply, divide, negate ----


def add_zero(inst, ctx):
    """x + 0 = x"""
    a, b = inst.operands
    return a if ctx.is_splat(b, 0) else b if ctx.is_splat(a, 0) else None


def sub_zero(inst, ctx):
    """x - 0 = x"""
    return inst.operands[0] if ctx.is_splat(inst.operands[1], 0) else None


def mul_one(inst, ctx):
    """x * 1 = x"""
    a, b = inst.operands
    return a if ctx.is_splat(b, 1) else b if ctx.is_splat(a, 1) else None


def mul_zero(inst, ctx):
    """x * 0 = 0 for integers; not for floats, where inf * 0 and nan * 0 are nan"""
    if not _is_int(inst):
        return None
    a, b = inst.operands
    return b if ctx.is_splat(b, 0) else a if ctx.is_splat(a, 0) else None


def div_one(inst, ctx):
    """x / 1 = x"""
    return inst.operands[0] if ctx.is_splat(inst.operands[1], 1) else None


def divide_by_constant(inst, ctx):
    """x / c = x * 1/c for floats when c is a power of two, so 1/c is exact"""
    if not _is_float(inst):
        return None
    c = ctx.splat(inst.operands[1])
    inverse = exact_reciprocal(c, inst.shape.numpy_dtype) if c is not None else None
    if inverse is None:
        return None
    return ctx.add("multiply", inst.shape, [inst.operands[0], ctx.full(inverse, inst.shape)])


def exact_reciprocal(c, dtype):
    """1/c if it is exactly representable as a normal number of `dtype`, else None."""
    v = float(c)
    if v == 0 or not np.isfinite(v) or abs(np.frexp(v)[0]) != 0.5:
        return None
    inverse = dtype.type(1.0 / v)
    info = finfo(dtype)
    if not np.isfinite(float(inverse)) or abs(float(inverse)) < float(info.tiny):
        return None
    return inverse if float(inverse) == 1.0 / v else None


def neg_neg(inst, ctx):
    """negate(negate(x)) = x"""
    inner = ctx.op(inst.operands[0])
    return inner.operands[0] if inner.opcode == "negate" else None


def max_of_lowest(inst, ctx):
    """maximum(x, lowest) = x, where lowest is -inf (floats) or the smallest integer"""
    a, b = inst.operands
    low = _extreme(inst, highest=False)
    return a if ctx.is_splat(b, low) else b if ctx.is_splat(a, low) else None


def min_of_highest(inst, ctx):
    """minimum(x, highest) = x, where highest is +inf (floats) or the largest integer"""
    a, b = inst.operands
    high = _extreme(inst, highest=True)
    return a if ctx.is_splat(b, high) else b if ctx.is_splat(a, high) else None


def _extreme(inst: Instruction, highest: bool):
    """The largest (or smallest) value of `inst`'s element type."""
    t = inst.array_shape.element_type
    if t.is_float:
        return float("inf") if highest else float("-inf")
    if t.kind == "pred":
        return highest
    low, high = integer_range(t)  # (numpy's iinfo knows no s4)
    return high if highest else low


# ---- select and compare ----


def select_same_branches(inst, ctx):
    """select(p, x, x) = x"""
    _, a, b = inst.operands
    return a if a == b else None


def select_constant_predicate(inst, ctx):
    """select(true, a, b) = a; select(false, a, b) = b"""
    p, a, b = inst.operands
    value = ctx.splat(p)
    return None if value is None else (a if bool(value) else b)


def compare_same_operands(inst, ctx):
    """x == x, x <= x, x >= x are true and x != x, x < x, x > x false, for integers"""
    a, b = inst.operands
    if a != b or not (_is_int(ctx.op(a)) or ctx.op(a).shape.dtype == "pred"):
        return None
    return ctx.full(inst.attr("direction") in ("EQ", "LE", "GE"), inst.shape)


# ---- convert and copy ----


def convert_to_same_type(inst, ctx):
    """convert(x) to x's own type = x"""
    x = ctx.op(inst.operands[0])
    return x.name if x.shape == inst.shape else None


def convert_of_convert(inst, ctx):
    """convert(convert(x: A -> B) -> C) = convert(x: A -> C) when A -> B loses nothing"""
    mid = ctx.op(inst.operands[0])
    if mid.opcode != "convert":
        return None
    x = ctx.op(mid.operands[0])
    if not is_exact_conversion(x.shape.dtype, mid.shape.dtype):
        return None
    if _saturates_instead_of_wrapping(x.shape.dtype, mid.shape.dtype, inst.shape.dtype):
        return None
    if x.shape == inst.shape:
        return x.name
    return ctx.add("convert", inst.shape, [x.name])


def _saturates_instead_of_wrapping(a: str, b: str, c: str) -> bool:
    """int A -> float B -> int C saturates to C's range, but A -> C wraps: u32 300 -> f64 ->
    s8 is 127, u32 300 -> s8 is 44. The two agree only when every A value fits in C."""
    ta, tb, tc = element_type(a), element_type(b), element_type(c)
    return ta.is_integer and tb.is_float and tc.is_integer and not is_exact_conversion(a, c)


def is_exact_conversion(src: str, dst: str) -> bool:
    """Whether every `src` value converts to `dst` and back unchanged."""
    a, b = element_type(src), element_type(dst)
    if a.name == b.name or a.kind == "pred":
        return True
    if b.kind == "pred":
        return False
    if a.is_integer and b.is_integer:
        if a.kind == "unsigned":
            return b.bits >= a.bits if b.kind == "unsigned" else b.bits > a.bits
        return b.kind == "signed" and b.bits >= a.bits
    if a.is_integer and b.is_float:
        value_bits = a.bits - (a.kind == "signed")
        return value_bits <= finfo(b.numpy).nmant + 1
    if a.is_float and b.is_float:
        fa, fb = finfo(a.numpy), finfo(b.numpy)
        return fb.nmant >= fa.nmant and fb.maxexp >= fa.maxexp and fb.minexp <= fa.minexp
    return False


def copy_elision(inst, ctx):
    """copy(copy(x)) = copy(x), and = x when the layouts agree"""
    inner = ctx.op(inst.operands[0])
    if inner.opcode != "copy":
        return None
    x = ctx.op(inner.operands[0])
    return x.name if x.shape == inst.shape else ctx.add("copy", inst.shape, [x.name])


RULES = {
    "add": [add_zero],
    "subtract": [sub_zero],
    "multiply": [mul_one, mul_zero],
    "divide": [div_one, divide_by_constant],
    "negate": [neg_neg],
    "maximum": [max_of_lowest],
    "minimum": [min_of_highest],
    "select": [select_same_branches, select_constant_predicate],
    "compare": [compare_same_operands],
    "convert": [convert_to_same_type, convert_of_convert],
    "copy": [copy_elision],
}
