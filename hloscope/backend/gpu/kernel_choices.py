"""Which GPU kernel computes which root (the GPU's KernelChoices, see backend/dispatch.py).

    sort                                      sort_kernel: a bitonic network     (sort-bitonic)
    dot of two parameters in matrix form      dot_kernel: shared-memory tiles    (dot-tiled)
    reduce over the most minor dimensions     reduce_kernel: a block per row     (row-reduce)
    reduce keeping the most minor dimensions  column_reduce: a thread per column (column-reduce)
    anything else                             loop_kernel: a grid-stride loop    (loop, reduce-loop)

The GPU has no scatter kernel: a scatter is refused, in a message naming the GPU.
"""

from __future__ import annotations

from ...ir.computation import Computation
from ...ir.instruction import Instruction
from ...ir.module import HloModule
from ..buffers import Buffer, BufferLayout
from ..kernel_spec import KernelSpec, llvm_name
from ..reduction import ReduceParts
from .column_reduce import column_plan, emit_column_reduce
from .dot_kernel import dot_ok, emit_dot
from .kernel import GpuKernel, GpuModuleContext
from .loop_kernel import emit_loop_kernel
from .reduce_kernel import emit_row_reduce, row_plan
from .sort_kernel import emit_sort_kernel


class GpuKernels:
    """The GPU's kernel choices (see the module docstring)."""

    own_kernel_roots = frozenset({"sort"})

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

    def own_kernel(self, spec: KernelSpec, layout: BufferLayout) -> GpuKernel:
        return emit_sort_kernel(self.mc, spec)

    def has_dot_kernel(self, comp: Computation, dot: Instruction) -> bool:
        return dot_ok(comp, dot)

    def dot_kernels(self, spec: KernelSpec, dot: Instruction, out: Buffer, layout: BufferLayout) -> list[GpuKernel]:
        return [emit_dot(self.mc, spec, dot, out)]

    def reduction_kernels(self, spec: KernelSpec, parts: ReduceParts, extra: dict[str, Buffer],
                          layout: BufferLayout) -> list[GpuKernel] | None:
        plan = row_plan(spec, parts)
        if plan is not None:
            return emit_row_reduce(self.mc, spec, parts, plan, layout, extra)
        plan = column_plan(spec, parts)
        if plan is not None:
            return emit_column_reduce(self.mc, spec, parts, plan, layout, extra)
        return None  # the loop kernel's generic fallback: one output element per thread

    def loop_kernel(self, spec: KernelSpec, extra: dict[str, Buffer]) -> GpuKernel:
        return emit_loop_kernel(self.mc, spec, extra)
