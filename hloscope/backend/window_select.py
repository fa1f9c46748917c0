"""select-and-scatter's selection: which operand element one source element's window picks.

    picked = none
    for w in the window (row-major):
        x = the operand element at position*stride - pad_low + w      (skipped when padding)
        if picked is none or not select(picked value, x): picked = x

As XLA's HloEvaluator: the first real element, replaced by each later one the select
computation does not prefer to it, so with select = GE ties go to the first. Shared by the
CPU kernel (in order, one thread) and the GPU kernel (one thread per source element).
"""

from __future__ import annotations

from llvmlite import ir

from ..ir.attributes import WindowDim
from .elemental_data import all_of, clamp
from .index import Index, add, mul
from .llvm_types import I1, I64, value_type
from .loops import loop_nest


def window_of(inst, rank: int) -> tuple[WindowDim, ...]:
    """The window attribute, or the default: size 1, stride 1 in every dimension."""
    return tuple(inst.attr("window") or ()) or tuple(WindowDim(1) for _ in range(rank))


def select_in_window(em, inst, source_multi: list) -> tuple[ir.Value, list[ir.Value]]:
    """(whether the window holds a real element, the picked element's operand position)."""
    b = em.b
    operand = inst.operands[0]
    shape = em.comp[operand].shape
    dtype = shape.dtype
    picked = em.ctx.alloca(value_type(dtype), "picked")
    b.store(ir.Constant(value_type(dtype), 0), picked)
    has = em.ctx.alloca(I1, "has")
    b.store(I1(0), has)
    where = [em.ctx.alloca(I64, f"at{d}") for d in range(shape.rank)]
    for slot in where:
        b.store(I64(0), slot)
    window = window_of(inst, shape.rank)
    with em.scope(), loop_nest(b, [(0, w.size) for w in window], [f"w{d}" for d in range(len(window))]) as ivs:
        multi, valid = [], []
        for d, (w, o, k) in enumerate(zip(window, source_multi, ivs)):
            pos = b.sub(add(b, mul(b, o, w.stride), mul(b, k, w.rhs_dilate)), I64(w.pad_low))
            if w.lhs_dilate > 1:
                valid.append(b.icmp_signed("==", b.srem(pos, I64(w.lhs_dilate)), I64(0)))
                pos = b.sdiv(pos, I64(w.lhs_dilate))
            valid.append(b.icmp_unsigned("<", pos, I64(shape.dims[d])))
            multi.append(clamp(b, pos, 0, shape.dims[d] - 1))
        value = em.value(operand, Index(shape, multi=multi))
        before, had = b.load(picked), b.load(has)
        keep = em.apply(inst.attr("select"), [before, value])
        real = all_of(b, valid)
        take = b.and_(real, b.or_(b.not_(had), b.not_(keep)))
        b.store(b.select(take, value, before), picked)
        for slot, m in zip(where, multi):
            b.store(b.select(take, m, b.load(slot)), slot)
        b.store(b.or_(had, real), has)
    return b.load(has), [b.load(s) for s in where]
