"""Column reductions: one thread per output column, reading down the rows.

A reduce whose kept dimensions include the most minor ones (`x.sum(axis=0)`, a bias
gradient) is XLA's "column reduction". Viewing the input as [O, R, I] (kept dimensions
before the reduced ones, the reduced ones, the kept minor ones), this kernel gives each
output column to one thread:

    o   = blockIdx.x / tiles                  // which of the O outer positions
    col = (blockIdx.x % tiles) * B + threadIdx.x
    if (col < I) {                            // consecutive threads, consecutive columns:
        acc = x[o, r0, col]                   //   a warp reads 32 neighbours of one row
        for (r = r0 + 1; r < r1; r++)         //   at a time (coalesced)
            acc = op(acc, x[o, r, col])
        out[o, col] = op(init, acc)           // init applied exactly once
    }

No thread waits for another: no shuffles, no shared memory, no barrier. With few columns
that is too few threads for a GPU, so the rows are split (as the row kernel splits long
rows): blockIdx.y picks a chunk of [r0, r1), each thread writes its partial to scratch laid
out [O, chunk, I], and a second kernel, itself a column reduction over the chunks, combines
them and applies init. XLA's emitter instead stages 32x32 tiles through shared memory so a
warp can finish a column with shuffles; the split gets the same parallelism without it.
"""

from __future__ import annotations

from math import prod

from llvmlite import ir

from ...ir.shape import ArrayShape
from ..buffers import BufferLayout
from ..kernel_spec import KernelSpec
from ..reduction import loop_plan
from ..index import spread
from ..llvm_types import I64
from .kernel import GpuKernel, GpuModuleContext, Launch
from .loop_kernel import block_for, emit_grid_loop
from .nvptx import WARP
from .reduce_kernel import TARGET_BLOCKS, element_reader, open_kernel, scan, store_results
from .row_combine import Accumulators, from_scratch, to_scratch

MAX_BLOCK = 256
MIN_ROWS_PER_CHUNK = 32  # a split gives every thread at least this many rows
MIN_CHUNKS = 4  # a split into fewer is not worth the second launch


def column_plan(spec: KernelSpec, parts) -> dict | None:
    """The [O, R, I] view and launch of a column reduction this kernel takes, or None."""
    hero = parts[0][0][0]
    shape = spec.comp[hero.operands[0]].array_shape
    plan = loop_plan(shape, set(hero.attr("dimensions")))
    outer, length, columns = (prod(shape.dims[d] for d in plan[k]) for k in ("outer", "reduced", "inner"))
    if not plan["reduced"] or not plan["inner"] or columns < WARP or length == 0 or outer == 0:
        return None
    block = block_for(columns, MAX_BLOCK)
    tiles = -(-columns // block)
    if outer * tiles >= 2**31:
        return None
    return {**plan, "shape": shape, "outer_size": outer, "length": length, "columns": columns,
            "block": block, "tiles": tiles, "chunks": _chunks(outer * tiles, length, parts)}


def _chunks(blocks: int, length: int, parts) -> int:
    """Chunks of the rows (1: no split); a fusion with other outputs is never split."""
    if parts[2] or blocks >= TARGET_BLOCKS // 4:
        return 1
    chunks = min(TARGET_BLOCKS // blocks, length // MIN_ROWS_PER_CHUNK, 65535)
    return chunks if chunks >= MIN_CHUNKS else 1


def emit_column_reduce(mc: GpuModuleContext, spec: KernelSpec, parts, plan: dict, layout: BufferLayout,
                       extra: dict | None = None) -> list[GpuKernel]:
    """The column kernel, or the partials kernel and the combining kernel of a split."""
    extra = extra or {}
    if plan["chunks"] == 1:
        return [_column_kernel(mc, spec, parts, plan, extra, None)]
    positions = plan["outer_size"] * plan["chunks"] * plan["columns"]
    scratch = [[layout.grow_arena(4 * positions, f"{spec.instruction}.partials", ArrayShape("s32", (positions,)))
                for _ in range(words)] for words in Accumulators.word_counts(spec.comp, parts[0])]
    return [_column_kernel(mc, spec, parts, plan, extra, scratch), _combine_kernel(mc, spec, parts, plan, extra, scratch)]


def _column_kernel(mc, spec, parts, plan, extra, scratch) -> GpuKernel:
    heroes, sides, others = parts
    kf, em = open_kernel(mc, spec, extra, scratch, writes_scratch=True)
    b = kf.builder
    o, col = _column_of_thread(kf, plan)
    with b.if_then(b.icmp_unsigned("<", col, I64(plan["columns"]))):
        base = _base_index(b, plan, o, col)
        start, stop = _chunk_bounds(kf, plan) if scratch else (I64(0), I64(plan["length"]))
        accs = Accumulators(em, [h for h, _ in heroes])
        scan(em, kf, accs, element_reader(em, kf, plan, heroes, sides, base), start, stop, 1)
        if scratch:
            to_scratch(kf, accs, scratch, _scratch_position(b, plan, o, kf.sreg("ctaid.y"), col))
        else:
            store_results(em, kf, accs, heroes, base)
    for name, outs in others:
        emit_grid_loop(em, kf, name, outs[0].shape, outs)
    kf.finish((plan["block"], 1, 1))
    grid = (plan["outer_size"] * plan["tiles"], plan["chunks"] if scratch else 1, 1)
    kernel = GpuKernel(kf.fn.name, spec.instruction, "column-reduce", kf.buffers,
                       Launch(grid, (plan["block"], 1, 1), kf.shared_bytes), function=kf.fn,
                       elements=plan["outer_size"] * plan["columns"])
    what = f"rows split into {plan['chunks']} chunks, partials to scratch" if scratch else "all rows"
    kernel.notes.append(f"column reduction: {plan['outer_size'] * plan['columns']} columns of {plan['length']} "
                        f"rows, a thread per column over {what}; no shuffles, no shared memory")
    return kernel


def _combine_kernel(mc, spec, parts, plan, extra, scratch) -> GpuKernel:
    """Second pass of a split: each column's chunk partials reduced in order; init applied."""
    heroes = parts[0]
    kf, em = open_kernel(mc, spec, extra, scratch, name=f"{spec.name}_combine")
    b = kf.builder
    o, col = _column_of_thread(kf, plan)
    with b.if_then(b.icmp_unsigned("<", col, I64(plan["columns"]))):
        accs = Accumulators(em, [h for h, _ in heroes])
        partial = lambda chunk: from_scratch(kf, accs, scratch, _scratch_position(b, plan, o, chunk, col))  # noqa: E731
        scan(em, kf, accs, partial, I64(0), I64(plan["chunks"]), 1)
        store_results(em, kf, accs, heroes, _base_index(b, plan, o, col))
    kf.finish((plan["block"], 1, 1))
    launch = Launch((plan["outer_size"] * plan["tiles"], 1, 1), (plan["block"], 1, 1), kf.shared_bytes)
    kernel = GpuKernel(kf.fn.name, spec.instruction, "column-reduce", kf.buffers, launch, function=kf.fn,
                       elements=plan["outer_size"] * plan["columns"])
    kernel.notes.append(f"second pass: {plan['chunks']} partials per column combined by its thread, then init applied")
    return kernel


def _column_of_thread(kf, plan):
    """(o, col): this thread's outer position and column."""
    b = kf.builder
    block_id, tiles = kf.sreg("ctaid.x"), I64(plan["tiles"])
    o = b.udiv(block_id, tiles)
    col = b.add(b.mul(b.urem(block_id, tiles), I64(plan["block"])), kf.sreg("tid.x"), name="column")
    return o, col


def _base_index(b, plan, o, col) -> list:
    """The input's multi-index with the kept dimensions set (the reduced ones still 0)."""
    shape = plan["shape"]
    multi = spread(b, o, shape.dims, plan["outer"], [I64(0)] * shape.rank)
    return spread(b, col, shape.dims, plan["inner"], multi)


def _chunk_bounds(kf, plan) -> tuple[ir.Value, ir.Value]:
    """[start, stop) of this block's rows (blockIdx.y); the last chunk takes the rest."""
    b = kf.builder
    chunk, size = kf.sreg("ctaid.y"), plan["length"] // plan["chunks"]
    start = b.mul(chunk, I64(size))
    last = b.icmp_unsigned("==", chunk, I64(plan["chunks"] - 1))
    return start, b.select(last, I64(plan["length"]), b.add(start, I64(size)))


def _scratch_position(b, plan, o, chunk, col) -> ir.Value:
    """Partials are laid out [O, chunk, I], so the combining kernel's warps read neighbours."""
    return b.add(b.mul(b.add(b.mul(o, I64(plan["chunks"])), chunk), I64(plan["columns"])), col)
