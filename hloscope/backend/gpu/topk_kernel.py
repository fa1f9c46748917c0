"""top-k on the GPU: a thread per row, each the partial insertion sort of topk_row.py.

    for row in this thread's rows (a grid-stride loop):
        one pass over the row, the k best held sorted in the indices output; then the values

Right for many rows (a batch of logits, the rows of a beam search); a few very long rows
use few threads. XLA uses a block per row there (its TopK kernel keeps per-warp heaps in
shared memory): left to do. Both spellings, `topk` and custom-call TopK, come here.
"""

from __future__ import annotations

from math import prod

from ..index import spread
from ..kernel_spec import KernelSpec
from ..llvm_types import I64
from ..topk_kernel import topk_spec
from ..topk_row import TopkRow
from .kernel import GpuKernel, GpuModuleContext, Launch, grid_for
from .loop_kernel import block_for
from .reduce_kernel import open_kernel


def emit_topk_kernel(mc: GpuModuleContext, spec: KernelSpec) -> GpuKernel:
    inst = spec.comp.root_instruction
    topk = topk_spec(mc.target, mc.hlo, inst)
    shape = spec.comp[inst.operands[0]].array_shape
    n, rows = shape.dims[-1], prod(shape.dims[:-1])
    kf, em = open_kernel(mc, spec, {}, None)
    row_emitter = TopkRow(em, kf.pointer, inst, spec.outputs, topk.k, topk.largest)
    b = kf.builder
    with kf.grid_stride(rows, "row") as row:
        row_emitter.emit(spread(b, row, shape.dims, range(shape.rank - 1), [I64(0)] * shape.rank))
    block = block_for(rows, mc.block_size)
    kf.finish((block, 1, 1))
    launch = Launch((grid_for(rows, block) if topk.k else 0, 1, 1), (block, 1, 1), kf.shared_bytes)
    kernel = GpuKernel(kf.fn.name, spec.instruction, "topk-rows", kf.buffers, launch, function=kf.fn,
                       elements=rows * topk.k)
    order = "largest" if topk.largest else "smallest"
    kernel.notes.append(f"top-{topk.k} ({order}) of {rows} rows of {n}: a thread per row, one pass, a "
                        f"sorted insertion into the k output slots")
    return kernel
