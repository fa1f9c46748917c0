"""top-k on the GPU, each row by the partial insertion sort of topk_row.py, in one of two ways:

    long rows (n >= 512, k <= 128): a block per row                              (topk-block)
        thread t keeps the best k of positions t, t + T, t + 2T, ... in shared memory
        __syncthreads()
        thread 0 merges the T candidate lists into the output (a tie goes to the
        earlier position, so the result is the stable one), then gathers the values
    otherwise: a thread per row (a grid-stride loop over rows)                   (topk-rows)

A block per row reads the row coalesced and splits its n elements over T threads; a
thread per row suits many short rows (a batch of small beams). XLA's GPU TopK is a block
per row too, with per-warp heaps; the final merge here is serial (T k candidates).
Both spellings, `topk` and custom-call TopK, come here.
"""

from __future__ import annotations

from math import prod

from ..index import spread
from ..kernel_spec import KernelSpec
from ..llvm_types import I32, I64, emitted
from ..loops import for_range
from ..topk_kernel import topk_spec
from ..topk_row import ArraySlots, OutputSlots, TopkRow
from .kernel import GpuKernel, GpuModuleContext, Launch, grid_for
from .loop_kernel import block_for
from .reduce_kernel import open_kernel

BLOCK_ROW_MIN = 512  # rows at least this long get a block each
SHARED_SLOTS = 4096  # s32 candidate slots per block (16 KB of shared memory)
MAX_BLOCK = 256


def block_threads(n: int, k: int) -> int:
    """Threads per block for a block per row, or 0 for a thread per row."""
    if n < BLOCK_ROW_MIN or k == 0 or SHARED_SLOTS // k < 32:
        return 0
    threads = min(MAX_BLOCK, SHARED_SLOTS // k, n // 4)  # at least 4 elements per thread
    return 1 << (threads.bit_length() - 1)  # a power of two, at least 32 here


def emit_topk_kernel(mc: GpuModuleContext, spec: KernelSpec) -> GpuKernel:
    inst = spec.comp.root_instruction
    topk = topk_spec(mc.target, mc.hlo, inst)
    shape = spec.comp[inst.operands[0]].array_shape
    n, rows = shape.dims[-1], prod(shape.dims[:-1])
    threads = block_threads(n, topk.k)
    kf, em = open_kernel(mc, spec, {}, None)
    row_emitter = TopkRow(em, inst, topk.k, topk.largest)
    b = kf.builder
    values_out, indices_out = spec.outputs
    order = "largest" if topk.largest else "smallest"
    if threads:
        candidates = kf.shared(I32, threads * topk.k, "candidates")
        filled = kf.shared(I32, threads, "filled")
        row, tid = kf.sreg("ctaid.x"), kf.sreg("tid.x")
        base = spread(b, row, shape.dims, range(shape.rank - 1), [I64(0)] * shape.rank)
        mine = ArraySlots(b, candidates, emitted(b.mul(tid, I64(topk.k))))
        held = row_emitter.select(base, mine, tid, threads)
        b.store(b.trunc(b.load(held), I32), b.gep(filled, [tid], source_etype=I32))
        kf.barrier()
        with b.if_then(b.icmp_unsigned("==", tid, I64(0))):
            out = OutputSlots(b, kf.pointer, indices_out, base)
            merged = em.ctx.alloca(I64, "merged")
            b.store(I64(0), merged)
            with for_range(b, 0, threads, "thread") as t:
                count = b.zext(b.load(b.gep(filled, [t], source_etype=I32), typ=I32), I64)
                theirs = ArraySlots(b, candidates, emitted(b.mul(t, I64(topk.k))))
                with for_range(b, 0, count, "candidate") as j:
                    position = emitted(b.zext(b.load(theirs.slot_pointer(j), typ=I32), I64))
                    row_emitter.insert(base, out, merged, position)
            row_emitter.copy_values(base, out, kf.pointer, values_out)
        block = threads
        launch = Launch((rows, 1, 1), (threads, 1, 1), kf.shared_bytes)
        kind, how = "topk-block", (f"a block of {threads} per row: each thread the best {topk.k} of its "
                                   f"stride in shared memory, thread 0 merges them")
    else:
        with kf.grid_stride(rows, "row") as row:
            base = spread(b, row, shape.dims, range(shape.rank - 1), [I64(0)] * shape.rank)
            if topk.k:
                out = OutputSlots(b, kf.pointer, indices_out, base)
                row_emitter.select(base, out, 0, 1)
                row_emitter.copy_values(base, out, kf.pointer, values_out)
        block = block_for(rows, mc.block_size)
        launch = Launch((grid_for(rows, block) if topk.k else 0, 1, 1), (block, 1, 1), kf.shared_bytes)
        kind, how = "topk-rows", "a thread per row, one pass, a sorted insertion into the k output slots"
    kf.finish((block, 1, 1))
    kernel = GpuKernel(kf.fn.name, spec.instruction, kind, kf.buffers, launch, function=kf.fn,
                       elements=rows * topk.k)
    kernel.notes.append(f"top-{topk.k} ({order}) of {rows} rows of {n}: {how}")
    return kernel
