"""Elemental rules that loop: reduce, reduce-window and dot (one output element each), plus
map and call, which run another computation on the operands' values.

These are the elemental fallbacks XLA has too (a reduce fused into a loop fusion is emitted
as an inner loop per output element). Stand-alone reductions and dots get faster kernels
(backend/cpu/reduce_kernel.py, dot_kernel.py) that share `apply_reducer` with these rules.
"""

from __future__ import annotations

import itertools
from math import prod

from llvmlite import ir

from ..ir.shape import ArrayShape
from .buffers import leaves
from .index import Index, add, mul
from .llvm_types import I64, value_type
from .loops import loop_nest
from .scalar_ops import emit_binary
from .elemental_data import all_of, clamp

# Reducers whose single instruction is one of these get `reassoc` flags (so LLVM vectorizes).
ASSOCIATIVE = {"add", "multiply", "maximum", "minimum", "and", "or", "xor"}


def simple_reducer(hlo, computation: str) -> str | None:
    """The opcode of a reducer that is one binary op of its two parameters, else None."""
    comp = hlo.computation(computation)
    root = comp.root_instruction
    params = {p.name for p in comp.parameters}
    if len(comp.parameters) == 2 and root.opcode in ASSOCIATIVE and set(root.operands) == params:
        return root.opcode
    return None


def apply_reducer(em, computation: str, accs: list, values: list, dtypes: list[str]) -> list:
    """reducer(accs..., values...) -> new accumulators; one flagged instruction when simple."""
    op = simple_reducer(em.ctx.hlo, computation)
    if op is not None and len(accs) == 1:
        return [_flagged_binary(em, op, accs[0], values[0], dtypes[0])]
    out = em.apply(computation, list(accs) + list(values))
    return list(out) if isinstance(out, tuple) else [out]


def _flagged_binary(em, op: str, acc, value, dtype: str):
    """acc op value for a simple reducer. Floats accumulate in their register type, so f16 and
    bf16 sums are carried in f32 and rounded once when stored (as the evaluator does)."""
    b, flags = em.b, em.ctx.reduction_flags
    if acc.type in (ir.FloatType(), ir.DoubleType()):
        if op == "add":
            return b.fadd(acc, value, flags=flags)
        if op == "multiply":
            return b.fmul(acc, value, flags=flags)
        if op in ("maximum", "minimum"):
            fn = em.ctx.scalar.intrinsic(f"llvm.{op}.{'f64' if acc.type == ir.DoubleType() else 'f32'}", acc.type, [acc.type] * 2)
            return b.call(fn, [acc, value], fastmath=flags)
    from .llvm_types import round_to

    return round_to(b, emit_binary(em.ctx.scalar, op, acc, value, dtype), dtype)


def accumulators(em, init_values: list) -> list:
    """Stack slots holding the initial values (mem2reg makes them registers again)."""
    slots = []
    for v in init_values:
        slot = em.ctx.alloca(v.type)
        em.b.store(v, slot)
        slots.append(slot)
    return slots


def _reduce(em, inst, index):
    """One output element: loop over the reduced dimensions in layout order."""
    b = em.b
    n = len(inst.operands) // 2
    inputs, inits = inst.operands[:n], inst.operands[n:]
    in_shape = em.comp[inputs[0]].shape
    dims = set(inst.attr("dimensions"))
    out_multi = index.materialize(b).multi(b)
    slots = accumulators(em, [em.value(i, Index.scalar(em.comp[i].shape)) for i in inits])
    order = [d for d in reversed(in_shape.layout) if d in dims]
    bounds = [(0, in_shape.dims[d]) for d in order]
    with em.scope(), loop_nest(b, bounds, [f"r{d}" for d in order]) as ivs:
        kept = iter(out_multi)
        by_dim = dict(zip(order, ivs))
        multi = [by_dim[d] if d in dims else next(kept) for d in range(in_shape.rank)]
        in_index = Index(in_shape, multi=multi)
        values = [em.value(x, in_index.retyped(b, em.comp[x].shape)) for x in inputs]
        accs = [b.load(s) for s in slots]
        dtypes = [leaf.dtype for leaf in leaves(inst.shape, inst.name)]
        for slot, v in zip(slots, apply_reducer(em, inst.attr("to_apply"), accs, values, dtypes)):
            b.store(v, slot)
    results = [b.load(s) for s in slots]
    return results[0] if n == 1 else tuple(results)


# Windows of at most this many taps are unrolled here (3x3 pooling: 9), so the loop over
# output elements is the innermost loop and vectorizes; LLVM does not unroll them in time.
UNROLLED_TAPS = 32


def _reduce_window(em, inst, index):
    """One output element: loop over the window (unrolled when small), skipping padding and holes."""
    b = em.b
    n = len(inst.operands) // 2
    inits = inst.operands[n:]
    out_multi = index.materialize(b).multi(b)
    slots = accumulators(em, [em.value(i, Index.scalar(em.comp[i].shape)) for i in inits])
    window = inst.attr("window")
    if prod(w.size for w in window) <= UNROLLED_TAPS:
        for taps in itertools.product(*(range(w.size) for w in window)):
            with em.scope():
                _window_tap(em, inst, out_multi, [I64(k) for k in taps], slots)
    else:
        bounds = [(0, w.size) for w in window]
        with em.scope(), loop_nest(b, bounds, [f"w{d}" for d in range(len(window))]) as ivs:
            _window_tap(em, inst, out_multi, ivs, slots)
    results = [b.load(s) for s in slots]
    return results[0] if n == 1 else tuple(results)


def _window_tap(em, inst, out_multi, ivs, slots) -> None:
    """Fold the input element at window offset `ivs` into the accumulators, if it is real."""
    b = em.b
    inputs = inst.operands[: len(inst.operands) // 2]
    in_shape = em.comp[inputs[0]].shape
    multi, valid = [], []
    for d, (w, o, k) in enumerate(zip(inst.attr("window"), out_multi, ivs)):
        pos = b.sub(add(b, mul(b, o, w.stride), mul(b, k, w.rhs_dilate)), I64(w.pad_low))
        if (w.pad_low, w.pad_high, w.lhs_dilate) == (0, 0, 1):
            multi.append(pos)  # in bounds by the shape rule: no test
            continue
        if w.lhs_dilate > 1:
            valid.append(b.icmp_signed("==", b.srem(pos, I64(w.lhs_dilate)), I64(0)))
            pos = b.sdiv(pos, I64(w.lhs_dilate))
        valid.append(b.icmp_unsigned("<", pos, I64(in_shape.dims[d])))
        multi.append(clamp(b, pos, 0, in_shape.dims[d] - 1))
    in_index = Index(in_shape, multi=multi)
    values = [em.value(x, in_index.retyped(b, em.comp[x].shape)) for x in inputs]
    accs = [b.load(s) for s in slots]
    dtypes = [leaf.dtype for leaf in leaves(inst.shape, inst.name)]
    new = apply_reducer(em, inst.attr("to_apply"), accs, values, dtypes)
    ok = all_of(b, valid)
    for slot, acc, v in zip(slots, accs, new):
        b.store(b.select(ok, v, acc), slot)


def dot_operand_index(shape: ArrayShape, batch, contracting, out_batch, out_free, ivs) -> Index:
    """The operand position for output batch/free positions and contracting loop values."""
    multi: list[ir.Value | None] = [None] * shape.rank
    for d, v in zip(batch, out_batch):
        multi[d] = v
    for d, v in zip(contracting, ivs):
        multi[d] = v
    free = iter(out_free)
    return Index(shape, multi=[next(free) if m is None else m for m in multi])


def _dot(em, inst, index):
    """One output element of dot_general: sum over the contracting dimensions."""
    b = em.b
    lhs, rhs = em.operand_shape(inst, 0), em.operand_shape(inst, 1)
    lb, rb = inst.attr("lhs_batch_dims") or (), inst.attr("rhs_batch_dims") or ()
    lc, rc = inst.attr("lhs_contracting_dims") or (), inst.attr("rhs_contracting_dims") or ()
    out = index.materialize(b).multi(b)
    n_lhs_free = lhs.rank - len(lb) - len(lc)
    batch, lhs_free, rhs_free = out[: len(lb)], out[len(lb) : len(lb) + n_lhs_free], out[len(lb) + n_lhs_free :]
    dtype = inst.shape.dtype
    slot = accumulators(em, [ir.Constant(value_type(dtype), 0)])[0]
    with em.scope(), loop_nest(b, [(0, lhs.dims[d]) for d in lc], [f"k{d}" for d in lc]) as ivs:
        x = em.value(inst.operands[0], dot_operand_index(lhs, lb, lc, batch, lhs_free, ivs))
        y = em.value(inst.operands[1], dot_operand_index(rhs, rb, rc, batch, rhs_free, ivs))
        from .scalar_convert import emit_convert

        x = emit_convert(em.ctx.scalar, x, lhs.dtype, dtype)
        y = emit_convert(em.ctx.scalar, y, rhs.dtype, dtype)
        product = emit_binary(em.ctx.scalar, "multiply", x, y, dtype)
        b.store(_flagged_binary(em, "add", b.load(slot), product, dtype), slot)
    return b.load(slot)


def _map(em, inst, index):
    values = [em.operand(inst, i, index) for i in range(len(inst.operands))]
    return em.apply(inst.attr("to_apply"), values)


def _call(em, inst, index):
    """A called computation inlined: its parameters read the caller's operands."""
    comp = em.ctx.hlo.computation(inst.attr("to_apply"))
    leaves = {}
    for p in comp.parameters:
        name = inst.operands[p.parameter_number]
        leaves[p.name] = (lambda nm: lambda idx: em.value(nm, idx))(name)
    return em.nested(comp, leaves).value(comp.root, index)


RULES = {
    "reduce": _reduce,
    "reduce-window": _reduce_window,
    "dot": _dot,
    "map": _map,
    "call": _call,
}
