"""Which GPU kernel computes which root (the GPU's KernelChoices, see backend/dispatch.py).

    sort                                      sort_kernel: a bitonic network     (sort-bitonic)
    convolution                               conv_kernel: a thread per output   (conv-direct)
    scatter                                   scatter_kernel: copy, then updates (scatter-copy, then
                                              scatter-atomic, -unique or -serial)
    select-and-scatter                        select_scatter_kernel: init, then  (select-and-scatter-init,
                                              a thread per window                then -disjoint, -atomic, -serial)
    topk, custom-call TopK                    topk_kernel: a block per long row  (topk-block)
                                              or a thread per row                (topk-rows)
    dot of two parameters in matrix form      dot_kernel: shared-memory tiles    (dot-tiled)
    reduce over the most minor dimensions     reduce_kernel: a block per row     (row-reduce)
    reduce keeping the most minor dimensions  column_reduce: a thread per column (column-reduce)
    anything else                             loop_kernel: a grid-stride loop    (loop, reduce-loop)
"""

from __future__ import annotations

from typing import Callable

from ...ir.computation import Computation
from ...ir.instruction import Instruction
from ...ir.module import HloModule
from ..buffers import ArrayStorage, BufferLayout
from ..kernel_spec import KernelSpec, llvm_name
from ..reduction import ReduceParts
from .conv_kernel import emit_conv_kernel
from .column_reduce import column_plan, emit_column_reduce
from .dot_kernel import dot_ok, emit_dot
from .kernel import GpuKernel, GpuModuleContext
from .loop_kernel import emit_loop_kernel
from .reduce_kernel import emit_row_reduce, row_plan
from .scatter_kernel import emit_scatter
from .select_scatter_kernel import emit_select_scatter
from .sort_kernel import emit_sort_kernel
from .topk_kernel import emit_topk_kernel


# Roots computed by kernels of their own (scatter and select-and-scatter: an initializing
# kernel, then the updates), whatever else the computation holds.
OWN_KERNELS: dict[str, Callable[[GpuModuleContext, KernelSpec], GpuKernel | list[GpuKernel]]] = {
    "scatter": emit_scatter,
    "select-and-scatter": emit_select_scatter,
    "sort": emit_sort_kernel,
    "topk": emit_topk_kernel,
    "custom-call": emit_topk_kernel,  # TopK: dispatch refuses the rest
    "convolution": emit_conv_kernel,
}

class GpuKernels:
    """The GPU's kernel choices (see the module docstring)."""

    own_kernel_roots = frozenset(OWN_KERNELS)

    def __init__(self, mc: GpuModuleContext):
        self.mc = mc

    @property
    def target(self) -> str:
        return self.mc.target

    @property
    def hlo(self) -> HloModule:
        return self.mc.hlo

    def kernel_name(self, text: str) -> str:
        return llvm_name(text)  # made unique, in PTX's alphabet, when the kernel is declared

    def own_kernel(self, spec: KernelSpec, layout: BufferLayout) -> GpuKernel | list[GpuKernel]:
        return OWN_KERNELS[spec.comp.root_instruction.opcode](self.mc, spec)

    def has_dot_kernel(self, comp: Computation, dot: Instruction) -> bool:
        return dot_ok(comp, dot)

    def dot_kernels(self, spec: KernelSpec, dot: Instruction, out: ArrayStorage, layout: BufferLayout) -> list[GpuKernel]:
        return [emit_dot(self.mc, spec, dot, out)]

    def reduction_kernels(self, spec: KernelSpec, parts: ReduceParts, extra: dict[str, ArrayStorage],
                          layout: BufferLayout) -> list[GpuKernel] | None:
        plan = row_plan(spec, parts)
        if plan is not None:
            return emit_row_reduce(self.mc, spec, parts, plan, layout, extra)
        plan = column_plan(spec, parts)
        if plan is not None:
            return emit_column_reduce(self.mc, spec, parts, plan, layout, extra)
        return None  # the loop kernel's generic fallback: one output element per thread

    def loop_kernel(self, spec: KernelSpec, extra: dict[str, ArrayStorage]) -> GpuKernel:
        return emit_loop_kernel(self.mc, spec, extra)
