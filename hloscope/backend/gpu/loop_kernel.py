"""Loop kernels: one output element per thread, in a grid-stride loop (XLA's kLoop emitter).

    i = blockIdx.x * blockDim.x + threadIdx.x
    for (; i < n; i += blockDim.x * gridDim.x)
        out[i] = f(a[i], b[i], ...)          // the elemental value of the root at index i

Consecutive threads handle consecutive elements, so a warp's 32 loads and stores touch one
contiguous stretch of memory (they are "coalesced"). The index is the physical (linear)
offset of the output; operands read at other positions (broadcasts, transposes, slices) get
their own index from it, as in the CPU loop kernel. The grid is capped, and the loop strides
past it, so any size works with any grid.

The same kernel is the generic fallback for reductions the row-reduction kernel does not
take (column reductions, tiny rows): each thread then computes one output element with the
elemental reduce, an inner loop over the reduced dimensions.
"""

from __future__ import annotations

from ...ir.shape import ArrayShape
from ..buffers import leaves
from ..kernel_io import input_leaves, loop_elements, one_root_loop, store_leaves
from ..kernel_spec import KernelSpec
from ..elemental import ElementalEmitter
from ..index import Index
from .kernel import GpuKernel, GpuKernelFunction, GpuModuleContext, Launch, grid_for


def emit_loop_kernel(mc: GpuModuleContext, spec: KernelSpec, extra: dict | None = None) -> GpuKernel:
    """A kernel computing every element of the root of spec.comp, one per thread.

    `extra` maps instructions computed by an earlier kernel (a dot) to their buffers.
    """
    extra = extra or {}
    kf = GpuKernelFunction(mc, spec.name, spec.inputs + list(extra.values()) + spec.outputs, set(spec.outputs))
    ctx = mc.emit_context(kf.builder)
    em = ElementalEmitter(ctx, spec.comp, input_leaves(ctx, kf, spec, extra))
    root = spec.comp.root_instruction
    shapes = leaves(root.shape)
    if one_root_loop(spec.comp):
        emit_grid_loop(em, kf, root.name, shapes[0], spec.outputs)
        n = shapes[0].size
    else:  # a multi-output fusion whose results differ in shape (or nest a tuple): one loop each
        for operand, outs in loop_elements(spec.comp, spec.outputs, mc.target):  # a variadic reduce has several
            emit_grid_loop(em, kf, operand, outs[0].shape, outs)
        n = max(s.size for s in shapes)
    block = block_for(n, mc.block_size)
    kf.finish((block, 1, 1))
    reduces = any(i.opcode in ("reduce", "reduce-window") for i in spec.comp.instructions)
    kind = "reduce-loop" if root_is_reduce(spec) else "loop"
    launch = Launch((grid_for(n, block), 1, 1), (block, 1, 1), kf.shared_bytes)
    kernel = GpuKernel(kf.fn.name, spec.instruction, kind, kf.buffers, launch, function=kf.fn, elements=n)
    kernel.notes.append(f"grid-stride loop over {n} elements, one per thread")
    if reduces:
        kernel.notes.append("reductions as an inner loop per output element (the generic fallback)")
    return kernel


def block_for(n: int, block_size: int) -> int:
    """Threads per block: `block_size`, or fewer whole warps when there are fewer elements
    (a scalar, like a loop counter, gets one warp rather than 256 idle threads)."""
    return min(block_size, max(32, -(-n // 32) * 32))


def emit_grid_loop(em: ElementalEmitter, kf: GpuKernelFunction, root: str, shape: ArrayShape, outputs) -> None:
    """out[i] = value(root, i) for every linear index i of `shape`, grid-strided."""
    with em.scope(), kf.grid_stride(shape.size, "i") as i:
        index = Index(shape, linear=i)
        store_leaves(em, kf, em.value(root, index), index, outputs)


def root_is_reduce(spec: KernelSpec) -> bool:
    root = spec.comp.root_instruction
    elements = [spec.comp[o] for o in root.operands] if root.opcode == "tuple" else [root]
    return any(e.opcode == "reduce" for e in elements)
