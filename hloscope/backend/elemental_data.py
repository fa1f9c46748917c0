"""Elemental rules for data movement that needs bounds: pad, concatenate, dynamic slices, gather.

Out-of-range positions are never loaded: each rule clamps the operand index into range,
loads there, and selects the right value (the padding value, the other operand). Loads of
clamped indices plus selects keep the loop body branch-free, so it still vectorizes.
"""

from __future__ import annotations

from llvmlite import ir

from . import scalar_convert
from .index import Index, add
from .llvm_types import I1, I64, emitted


def clamp(b: ir.IRBuilder, v: ir.Value, lo: int | ir.Value, hi: int | ir.Value) -> ir.Value:
    """min(max(v, lo), hi) on signed i64."""
    lo = I64(lo) if isinstance(lo, int) else lo
    hi = I64(hi) if isinstance(hi, int) else hi
    v = b.select(b.icmp_signed("<", v, lo), lo, v)
    return b.select(b.icmp_signed(">", v, hi), hi, v)


def all_of(b: ir.IRBuilder, conds: list) -> ir.Value:
    """The conjunction of i1 values (true for none)."""
    if not conds:
        return I1(1)
    out = conds[0]
    for c in conds[1:]:
        out = emitted(b.and_(out, c))
    return out


def scalar_i64(em, name: str) -> ir.Value:
    """A scalar integer operand (a start index) as a signed i64."""
    shape = em.comp[name].shape
    v = em.value(name, Index.scalar(shape))
    return scalar_convert.emit_convert(em.ctx.scalar, v, shape.dtype, "s64")


def _pad(em, inst, index):
    b = em.b
    shape = em.operand_shape(inst, 0)
    pad_value = em.value(inst.operands[1], Index.scalar(em.operand_shape(inst, 1)))
    if 0 in shape.dims:
        return pad_value
    multi = index.multi(b)
    op_multi, valid = [], []
    for d, p in enumerate(inst.attr("padding")):
        size = shape.dims[d]
        if (p.low, p.high, p.interior) == (0, 0, 0):
            op_multi.append(multi[d])
            continue
        t = b.sub(multi[d], I64(p.low))
        q = t
        if p.interior:
            q = b.sdiv(t, I64(p.interior + 1))
            valid.append(b.icmp_signed("==", b.srem(t, I64(p.interior + 1)), I64(0)))
        valid.append(b.icmp_signed(">=", t, I64(0)))
        valid.append(b.icmp_signed("<", q, I64(size)))
        op_multi.append(clamp(b, q, 0, size - 1))
    value = em.value(inst.operands[0], Index(shape, multi=op_multi))
    return b.select(all_of(b, valid), value, pad_value) if valid else value


def _concatenate(em, inst, index):
    b = em.b
    dim = inst.attr("dimensions")[0]
    multi = index.multi(b)
    pieces, offset = [], 0
    for name in inst.operands:
        shape = em.comp[name].shape
        if shape.dims[dim]:
            pieces.append((name, shape, offset))
        offset += shape.dims[dim]
    result = None
    for name, shape, start in reversed(pieces):
        op_multi = list(multi)
        op_multi[dim] = clamp(b, b.sub(multi[dim], I64(start)), 0, shape.dims[dim] - 1)
        value = em.value(name, Index(shape, multi=op_multi))
        end = I64(start + shape.dims[dim])
        result = value if result is None else b.select(b.icmp_signed("<", multi[dim], end), value, result)
    return result


def _starts(em, inst, first: int, shape, sizes) -> list[ir.Value]:
    """Start indices clamped so the window [start, start + size) fits, as XLA clamps them."""
    return [
        clamp(em.b, scalar_i64(em, inst.operands[first + d]), 0, shape.dims[d] - sizes[d])
        for d in range(shape.rank)
    ]


def _dynamic_slice(em, inst, index):
    shape = em.operand_shape(inst, 0)
    starts = _starts(em, inst, 1, shape, inst.shape.dims)
    multi = index.multi(em.b)
    op_multi = [add(em.b, s, i) for s, i in zip(starts, multi)]
    return em.value(inst.operands[0], Index(shape, multi=op_multi))


def _dynamic_update_slice(em, inst, index):
    b = em.b
    shape, update = em.operand_shape(inst, 0), em.operand_shape(inst, 1)
    starts = _starts(em, inst, 2, shape, update.dims)
    multi = index.multi(b)
    rel = [b.sub(i, s) for i, s in zip(multi, starts)]
    inside = all_of(b, [b.icmp_unsigned("<", r, I64(n)) for r, n in zip(rel, update.dims)])
    upd_index = Index(update, multi=[clamp(b, r, 0, max(n - 1, 0)) for r, n in zip(rel, update.dims)])
    old = em.value(inst.operands[0], index.retyped(b, shape))
    if 0 in update.dims:
        return old
    return b.select(inside, em.value(inst.operands[1], upd_index), old)


def _gather(em, inst, index):
    """XLA's gather: batch positions pick start indices, offset positions walk the slice.

    An operand batching dim starts at the output's position along the paired indices
    batching dim (its slice size is 1, so it is in range and needs no clamp)."""
    b = em.b
    operand, indices = em.operand_shape(inst, 0), em.operand_shape(inst, 1)
    offset_dims = inst.attr("offset_dims") or ()
    collapsed = inst.attr("collapsed_slice_dims") or ()
    start_map = inst.attr("start_index_map") or ()
    ivd = inst.attr("index_vector_dim")
    sizes = inst.attr("slice_sizes")
    multi = index.multi(b)
    batch = [multi[d] for d in range(inst.shape.rank) if d not in offset_dims]
    starts = [I64(0)] * operand.rank
    for k, op_dim in enumerate(start_map):
        idx_multi = list(batch)
        if ivd < indices.rank:
            idx_multi.insert(ivd, I64(k))
        s = em.value(inst.operands[1], Index(indices, multi=idx_multi))
        s = scalar_convert.emit_convert(em.ctx.scalar, s, indices.dtype, "s64")
        starts[op_dim] = clamp(b, s, 0, operand.dims[op_dim] - sizes[op_dim])
    operand_batching = inst.attr("operand_batching_dims") or ()
    for op_dim, idx_dim in zip(operand_batching, inst.attr("start_indices_batching_dims") or ()):
        starts[op_dim] = batch[idx_dim if idx_dim < ivd else idx_dim - 1]
    window = [d for d in range(operand.rank) if d not in collapsed and d not in operand_batching]
    op_multi = list(starts)
    for out_dim, op_dim in zip(offset_dims, window):
        op_multi[op_dim] = add(b, starts[op_dim], multi[out_dim])
    return em.value(inst.operands[0], Index(operand, multi=op_multi))


RULES = {
    "pad": _pad,
    "concatenate": _concatenate,
    "dynamic-slice": _dynamic_slice,
    "dynamic-update-slice": _dynamic_update_slice,
    "gather": _gather,
}
