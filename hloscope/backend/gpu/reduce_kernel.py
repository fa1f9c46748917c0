"""Row reductions: one block per output element, warp shuffles, then shared memory.

A reduce-rooted fusion (kInput) whose reduced dimensions are the most minor ones (softmax's
row max and row sum, layernorm's mean) gets this kernel, XLA's "row reduction" emitter:

    row = blockIdx.x                       // one output element per block
    acc = x[row, t]                        // thread t starts at its own first element
    for (r = t + B; r < R; r += B)         // and strides through the row: a warp reads 32
        acc = op(acc, x[row, r])           // consecutive elements at a time (coalesced)
    for (m = 16; m > 0; m /= 2)            // butterfly across the warp's 32 lanes:
        acc = op(acc, shfl_xor(acc, m))    //   shfl.sync.bfly, no memory touched
    if (lane == 0) partial[warp] = acc     // one value per warp into shared memory
    __syncthreads()
    if (t == 0) {                          // thread 0 combines the B/32 warp partials
        for (w = 1; w < B/32; w++) acc = op(acc, partial[w])
        out[row] = op(init, acc)           // the init value is applied exactly once
    }

B is a power of two no larger than the row (so every thread has a first element), from 32
to 256. Because partials start from real elements and init is applied once at the end, the
result is right even when init is not the reducer's identity. Elementwise side outputs of
the fusion (softmax's exp) are written as their positions are visited; other root elements
get a grid-stride loop of their own at the end.

Few long rows (a full sum) would leave most of the GPU idle, so they are split: blockIdx.y
picks a chunk of the row, each block writes its total to scratch memory, and a second
kernel reduces each row's chunk totals the same way and applies init (XLA's two-pass
"tree reduction"). Column reductions have a kernel of their own (column_reduce.py); rows
shorter than 32 elements and the rest use the loop kernel's generic fallback.
"""

from __future__ import annotations

from math import prod

from llvmlite import ir

from ...ir.shape import ArrayShape
from ..buffers import BufferLayout
from ..kernel_io import input_leaves
from ..kernel_spec import KernelSpec
from ..reduction import loop_plan, store_sides
from ..elemental import ElementalEmitter
from ..index import Index, spread
from ..llvm_types import I64, emitted, storage_type, store
from .kernel import GpuKernel, GpuKernelFunction, GpuModuleContext, Launch
from .loop_kernel import emit_grid_loop
from .row_combine import Accumulators, combine, from_scratch, to_scratch, warp_then_block

MIN_ROW = 32  # shorter rows: one thread per output element is better
MAX_BLOCK = 256
TARGET_BLOCKS = 1024  # split rows until about this many blocks run (a few per SM)
MIN_CHUNK_PER_THREAD = 16  # ...but give every thread at least this many elements per chunk
MIN_CHUNKS = 32  # the combining kernel's block is a full warp or more


def row_plan(spec: KernelSpec, parts) -> dict | None:
    """The loop plan of a reduction this kernel takes (rows, row length), or None."""
    hero = parts[0][0][0]
    in_shape = spec.comp[hero.operands[0]].array_shape
    plan = loop_plan(in_shape, set(hero.attr("dimensions")))
    rows = prod(in_shape.dims[d] for d in plan["outer"])
    length = prod(in_shape.dims[d] for d in plan["reduced"])
    if plan["inner"] or length < MIN_ROW or not 0 < rows < 2**31:
        return None
    block = block_threads(length)
    return {**plan, "rows": rows, "length": length, "shape": in_shape, "block": block,
            "chunks": _chunks(rows, length, block, parts)}


def block_threads(length: int) -> int:
    """The largest power of two <= length, at most MAX_BLOCK."""
    return min(MAX_BLOCK, 1 << (length.bit_length() - 1))


def _chunks(rows: int, length: int, block: int, parts) -> int:
    """Chunks per row (1: no split). Only fusions whose outputs are all reduces split."""
    if parts[2] or rows >= TARGET_BLOCKS // 4:
        return 1
    chunks = min(TARGET_BLOCKS // rows, length // (block * MIN_CHUNK_PER_THREAD), 65535)
    return chunks if chunks >= MIN_CHUNKS else 1


def emit_row_reduce(mc: GpuModuleContext, spec: KernelSpec, parts, plan: dict, layout: BufferLayout,
                    extra: dict | None = None) -> list[GpuKernel]:
    """The row-reduction kernel, or the chunk kernel and the combining kernel of a split."""
    extra = extra or {}
    if plan["chunks"] == 1:
        return [_row_kernel(mc, spec, parts, plan, extra, None)]
    heroes = parts[0]
    rows, chunks = plan["rows"], plan["chunks"]
    scratch = [[layout.grow_arena(4 * rows * chunks, f"{spec.instruction}.partials", ArrayShape("s32", (rows * chunks,)))
                for _ in range(words)] for words in Accumulators.word_counts(spec.comp, heroes)]
    first = _row_kernel(mc, spec, parts, plan, extra, scratch)
    return [first, _combine_kernel(mc, spec, parts, plan, extra, scratch)]


def _row_kernel(mc, spec, parts, plan, extra, scratch) -> GpuKernel:
    """A block per row (or per chunk of a row, with scratch): totals to outputs or scratch."""
    heroes, sides, others = parts
    kf, em = open_kernel(mc, spec, extra, scratch, writes_scratch=True)
    b, block = kf.builder, plan["block"]
    row, tid = kf.sreg("ctaid.x"), kf.sreg("tid.x")
    base = spread(b, row, plan["shape"].dims, plan["outer"], [I64(0)] * plan["shape"].rank)
    start, stop = _chunk_bounds(kf, plan) if scratch else (I64(0), I64(plan["length"]))
    accs = Accumulators(em, [h for h, _ in heroes])
    scan(em, kf, accs, element_reader(em, kf, plan, heroes, sides, base), emitted(b.add(start, tid)), stop, block)
    warp_then_block(em, kf, accs, tid, block)
    with b.if_then(b.icmp_unsigned("==", tid, I64(0))):
        if scratch:
            to_scratch(kf, accs, scratch, emitted(b.add(b.mul(row, I64(plan["chunks"])), kf.sreg("ctaid.y"))))
        else:
            store_results(em, kf, accs, heroes, base)
    for name, outs in others:
        emit_grid_loop(em, kf, name, outs[0].shape, outs)
    kf.finish((block, 1, 1))
    grid = (plan["rows"], plan["chunks"] if scratch else 1, 1)
    kernel = GpuKernel(kf.fn.name, spec.instruction, "row-reduce", kf.buffers,
                       Launch(grid, (block, 1, 1), kf.shared_bytes), function=kf.fn, elements=plan["rows"])
    what = f"{plan['chunks']} chunks of each row, totals to scratch" if scratch else "a block per row"
    kernel.notes.append(f"row reduction: {plan['rows']} rows of {plan['length']}, {what}, {block} threads, "
                        "warp shuffles then shared memory")
    return kernel


def open_kernel(mc, spec: KernelSpec, extra: dict, scratch, name: str = "", writes_scratch: bool = False):
    """(kernel function, elemental emitter) over the fusion's buffers and any scratch: the
    start of every reduction kernel. The first pass of a split writes the scratch, the
    combining pass reads it."""
    flat = [buf for acc in (scratch or []) for buf in acc]
    writes = set(spec.outputs) | (set(flat) if writes_scratch else set())
    kf = GpuKernelFunction(mc, name or spec.name, spec.inputs + list(extra.values()) + spec.outputs + flat, writes)
    ctx = mc.emit_context(kf.builder)
    return kf, ElementalEmitter(ctx, spec.comp, input_leaves(ctx, kf, spec, extra))


def _chunk_bounds(kf, plan) -> tuple[ir.Value, ir.Value]:
    """[start, stop) of this block's chunk of the row (blockIdx.y); the last takes the rest.
    Chunks are whole multiples of the block, so every thread has a first element."""
    b = kf.builder
    chunk, size = kf.sreg("ctaid.y"), plan["length"] // plan["chunks"] // plan["block"] * plan["block"]
    start = b.mul(chunk, I64(size))
    last = b.icmp_unsigned("==", chunk, I64(plan["chunks"] - 1))
    return start, b.select(last, I64(plan["length"]), b.add(start, I64(size)))


def element_reader(em, kf, plan, heroes, sides, base):
    """r -> every hero's input values at position r of the row (side outputs written too)."""
    b, shape = em.b, plan["shape"]

    def values_at(r):
        index = Index(shape, multi=spread(b, r, shape.dims, plan["reduced"], base))
        store_sides(em, kf, sides, index)
        return [[em.value(x, index.retyped(b, em.comp[x].shape)) for x in h.operands[: len(h.operands) // 2]]
                for h, _ in heroes]

    return values_at


def _combine_kernel(mc, spec, parts, plan, extra, scratch) -> GpuKernel:
    """Second pass of a split: each row's chunk totals reduced by one block; init applied."""
    heroes = parts[0]
    kf, em = open_kernel(mc, spec, extra, scratch, name=f"{spec.name}_combine")
    b, chunks = kf.builder, plan["chunks"]
    block = block_threads(chunks)
    row, tid = kf.sreg("ctaid.x"), kf.sreg("tid.x")
    accs = Accumulators(em, [h for h, _ in heroes])
    first = b.mul(row, I64(chunks))
    scan(em, kf, accs, lambda c: from_scratch(kf, accs, scratch, emitted(b.add(first, c))), tid, I64(chunks), block)
    warp_then_block(em, kf, accs, tid, block)
    base = spread(b, row, plan["shape"].dims, plan["outer"], [I64(0)] * plan["shape"].rank)
    with b.if_then(b.icmp_unsigned("==", tid, I64(0))):
        store_results(em, kf, accs, heroes, base)
    kf.finish((block, 1, 1))
    launch = Launch((plan["rows"], 1, 1), (block, 1, 1), kf.shared_bytes)
    kernel = GpuKernel(kf.fn.name, spec.instruction, "row-reduce", kf.buffers, launch, function=kf.fn,
                       elements=plan["rows"])
    kernel.notes.append(f"second pass: {chunks} chunk totals per row reduced by one block, then init applied")
    return kernel


def scan(em, kf, accs: "Accumulators", values_at, first: ir.Value, stop: ir.Value, block: int) -> None:
    """Each thread's partials: its first element, then every block-th one up to stop."""
    with em.scope():
        accs.start(values_at(first))
    with em.scope(), kf.strided(emitted(kf.builder.add(first, I64(block))), stop, I64(block), "r") as r:
        combine(em, accs, values_at(r))


def store_results(em, kf, accs: "Accumulators", heroes, base) -> None:
    """out[row] = reducer(init, total) for every hero (thread 0 only)."""
    b = em.b
    with em.scope():
        for h, (hero, outs) in enumerate(heroes):
            n = len(hero.operands) // 2
            inits = [em.value(i, Index.scalar(em.comp[i].shape)) for i in hero.operands[n:]]
            results = accs.apply(h, inits, accs.load(h))
            dims = set(hero.attr("dimensions"))
            for out, value in zip(outs, results):
                index = Index(out.shape, multi=[v for d, v in enumerate(base) if d not in dims])
                ptr = b.gep(kf.pointer(out), [index.linear(b)], inbounds=True, source_etype=storage_type(out.shape.dtype))
                store(b, value, ptr, out.shape.dtype)

