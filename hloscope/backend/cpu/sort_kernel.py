"""sort: a stable bottom-up merge sort of each row's permutation, with the HLO comparator.

Every operand is sorted along `dimensions={d}` by the same permutation, the one that puts
the comparator's order on the row (a "row" is one position of every other dimension).
The kernel sorts that permutation, not the values, so any number of operands of any types
move together, and the comparator sees them as XLA passes them, (lhs_0, rhs_0, lhs_1, ...):

    perm = 0, 1, ..., n-1
    for width = 1, 2, 4, ... < n:                     (ceil(log2 n) passes, ping-pong
        for each pair of neighbouring runs [lo, mid) [mid, hi) of that width:    buffers)
            merge them: take from the right run only when comparator(right, left) is true,
            so equal elements keep their order (stable, as the evaluator is)
    out_k[row, i] = operand_k[row, perm[i]]  for every operand k

The two permutation buffers (i32, n per row) live in the arena, one stretch per row, so the
rows can be split across threads. O(n log n) comparator calls per row, where the
evaluator's fastest path is numpy's argsort; a comparator is an HLO computation, inlined.
"""

from __future__ import annotations

from math import prod

from llvmlite import ir

from ...ir.shape import ArrayShape
from ..buffers import BufferLayout
from ..elemental import ElementalEmitter
from ..index import spread
from ..kernel_io import input_leaves
from ..kernel_spec import KernelSpec, ModuleContext
from ..llvm_types import I1, I32, I64
from ..loop_function import LoopFunction, LoopKernel
from ..loops import for_range
from ..sort_comparator import comes_first, store_permuted


def emit_sort_kernel(mc: ModuleContext, spec: KernelSpec, layout: BufferLayout) -> LoopKernel:
    sort = spec.comp.root_instruction
    dim = sort.attr("dimensions")[0]
    shape = spec.comp[sort.operands[0]].array_shape
    n = shape.dims[dim]
    others = [d for d in range(shape.rank) if d != dim]
    rows = prod(shape.dims[d] for d in others)
    scratch = layout.grow_arena(2 * rows * n * 4, f"{spec.instruction}.permutations", ArrayShape("s32", (2 * rows * n,)))
    kf = LoopFunction(mc.llmod, spec.name, spec.inputs + spec.outputs + [scratch], set(spec.outputs) | {scratch})
    ctx = mc.emit_context(kf.builder)
    em = ElementalEmitter(ctx, spec.comp, input_leaves(ctx, kf, spec, {}))
    b = kf.builder
    passes = (n - 1).bit_length()  # ceil(log2 n): the run width doubles until it covers the row
    with for_range(b, kf.begin, kf.end, "row") as row:
        base = spread(b, row, shape.dims, others, [I64(0)] * shape.rank)  # the row's first element
        perm = b.gep(kf.pointer(scratch), [b.mul(row, I64(n))], inbounds=True, source_etype=I32)
        spare = b.gep(kf.pointer(scratch), [b.add(I64(rows * n), b.mul(row, I64(n)))], inbounds=True, source_etype=I32)
        with for_range(b, 0, n, "i") as i:
            b.store(b.trunc(i, I32), b.gep(perm, [i], inbounds=True, source_etype=I32))
        with for_range(b, 0, passes, "pass") as p:
            even = b.icmp_unsigned("==", b.and_(p, I64(1)), I64(0))
            src, dst = b.select(even, perm, spare), b.select(even, spare, perm)
            _merge_pass(em, kf, sort, dim, base, src, dst, b.shl(I64(1), p), n)
        final = perm if passes % 2 == 0 else spare
        _gather_rows(em, kf, sort, spec.outputs, dim, base, final, n)
    kf.finish()
    kernel = LoopKernel(spec.name, spec.instruction, "sort", kf.buffers, extent=rows, granule=1,
                    work=rows * n * max(1, passes), function=kf.fn)
    kernel.notes = [f"stable merge sort of {rows} rows of {n} ({passes} passes), "
                    f"comparator {sort.attr('to_apply')} inlined; rows split across threads"]
    return kernel


def _umin(b, x: ir.Value, y: ir.Value) -> ir.Value:
    return b.select(b.icmp_unsigned("<", x, y), x, y)


def _merge_pass(em, kf, sort, dim, base, src, dst, width, n: int) -> None:
    """Merge every pair of neighbouring runs of `width` from src into dst."""
    b = em.b
    pair = b.shl(width, I64(1))
    blocks = b.udiv(b.add(I64(n), b.sub(pair, I64(1))), pair)
    i_slot, j_slot, take_slot = em.ctx.alloca(I64), em.ctx.alloca(I64), em.ctx.alloca(I1)
    with for_range(b, 0, blocks, "run") as run:
        lo = b.mul(run, pair)
        mid, hi = _umin(b, b.add(lo, width), I64(n)), _umin(b, b.add(lo, pair), I64(n))
        b.store(lo, i_slot)
        b.store(mid, j_slot)
        with for_range(b, lo, hi, "k") as k:
            i, j = b.load(i_slot), b.load(j_slot)
            right_has, left_has = b.icmp_unsigned("<", j, hi), b.icmp_unsigned("<", i, mid)
            b.store(right_has, take_slot)  # one run empty: take from the other
            with b.if_then(b.and_(right_has, left_has)):
                left, right = _position(b, src, i), _position(b, src, j)
                b.store(comes_first(em, sort, dim, base, right, left), take_slot)
            take = b.load(take_slot)
            b.store(b.select(take, _load_entry(b, src, j), _load_entry(b, src, i)),
                    b.gep(dst, [k], inbounds=True, source_etype=I32))
            b.store(b.select(take, i, b.add(i, I64(1))), i_slot)
            b.store(b.select(take, b.add(j, I64(1)), j), j_slot)


def _load_entry(b, array, at: ir.Value) -> ir.Value:
    return b.load(b.gep(array, [at], inbounds=True, source_etype=I32), typ=I32)


def _position(b, array, at: ir.Value) -> ir.Value:
    """The row position stored at `at`, as an i64 index."""
    return b.zext(_load_entry(b, array, at), I64)


def _gather_rows(em, kf, sort, outputs, dim, base, final, n: int) -> None:
    """out_k[row, i] = operand_k[row, final[i]] for every operand."""
    with for_range(em.b, 0, n, "i") as i:
        store_permuted(em, kf, sort, outputs, dim, base, i, _position(em.b, final, i))
