"""Which CPU kernel computes which root (the CPU's KernelChoices, see backend/dispatch.py).
The choice itself is strategy.py's, from the module and the options alone: the
kernel-strategy pass records the same answers before memory planning, with their reasons.

    scatter                                 scatter_kernel: in order, one thread   (scatter)
    sort                                    sort_kernel: a stable merge sort      (sort)
    convolution                             conv_kernel: im2col + BLAS, or direct (conv-gemm, conv-direct)
      a depthwise 2-D one (f32/f64)         the library's kernel (library/calls.py) (library-conv)
    select-and-scatter                      select_scatter_kernel: in order       (select-and-scatter)
    topk, custom-call TopK                  topk_kernel: row insertion, k slots   (topk)
    dot of two parameters in matrix form    dot_kernel: BLAS or tiled loops       (dot-blas, dot-loops)
      f16/bf16 ones (with dot="blas")       widening_dot: f32 copies, f32 BLAS    (dot-blas)
      (with dot="loops", f16/bf16 dots accumulate in f32 registers in the elemental dot)
    a reduction of a parameter over its     library/calls.py: the precompiled      (library-reduce, and for a split
      minor dimensions (add/max/min, f32/f64)  library's kernel, by rows or chunks     one library-reduce-partials/-combine)
    a full reduction of a big input         split_reduce: chunks on every core    (reduce-partials, reduce-combine)
    any other reduce-rooted computation     reduce_kernel: row or column loops    (reduce)
      (but a column reduction to f16/bf16: the elemental reduce keeps its sum in f32)
    a cumulative reduce-window (prefix, or  scan_kernel: one pass per row         (scan)
      suffix with an associative reducer)
    anything else                           the plain loop kernel                 (loop)
"""

from __future__ import annotations

from typing import Callable

from ...ir.computation import Computation
from ...ir.instruction import Instruction
from ...ir.module import HloModule
from ..buffers import ArrayStorage, BufferLayout
from ..kernel_spec import KernelSpec, ModuleContext
from ..loop_function import LoopKernel
from ..loop_kernel import emit_loop_kernel
from ..reduction import ReduceParts
from ..topk_kernel import emit_topk_kernel
from .conv_kernel import emit_conv_kernel
from .dot_kernel import emit_dot_kernel
from .fast.library.calls import library_reduce
from .reduce_kernel import emit_reduce_kernel
from .scan_kernel import emit_scan_kernel
from .same_kernels import code_key, same_code
from .scatter_kernel import emit_scatter_kernel
from .select_scatter_kernel import emit_select_scatter_kernel
from .sort_kernel import emit_sort_kernel
from .split_reduce import emit_split_reduce
from .strategy import OWN_KERNEL_ROOTS, CpuStrategies
from .widening_dot import emit_widening_dot


EmitOwn = Callable[[ModuleContext, KernelSpec, BufferLayout], LoopKernel]

# Roots computed by a kernel of their own, whatever else the computation holds
# (the convolution's kernel follows its strategy: CpuKernels.own_kernel).
OWN_KERNELS: dict[str, EmitOwn] = {
    "scatter": lambda mc, spec, layout: emit_scatter_kernel(mc, spec),
    "select-and-scatter": lambda mc, spec, layout: emit_select_scatter_kernel(mc, spec),
    "sort": emit_sort_kernel,
    "topk": lambda mc, spec, layout: emit_topk_kernel(mc, spec),
    "custom-call": lambda mc, spec, layout: emit_topk_kernel(mc, spec),  # TopK: dispatch refuses the rest
}

class CpuKernels:
    """The CPU's kernel choices (see the module docstring). A full reduction of at least
    `parallel_min_elements` elements is split into chunks."""

    own_kernel_roots = OWN_KERNEL_ROOTS

    def __init__(self, mc: ModuleContext, parallel_min_elements: int):
        self.mc, self.parallel_min_elements = mc, parallel_min_elements
        self.strategies = CpuStrategies(mc.hlo, mc.options, parallel_min_elements)
        self._emitted: dict[tuple, LoopKernel] = {}  # by code key (same_kernels.py)

    @property
    def target(self) -> str:
        return self.mc.target

    @property
    def hlo(self) -> HloModule:
        return self.mc.hlo

    def kernel_name(self, text: str) -> str:
        return self.mc.unique_name(text)

    def own_kernel(self, spec: KernelSpec, layout: BufferLayout) -> LoopKernel:
        opcode = spec.comp.root_instruction.opcode
        if opcode == "convolution":  # a network's repeated layers: one kernel per shape (same_kernels.py)
            strategy = self.strategies.convolution(spec.comp)
            return self._once("convolution", spec, lambda: emit_conv_kernel(self.mc, spec, layout, strategy))
        return OWN_KERNELS[opcode](self.mc, spec, layout)

    def has_dot_kernel(self, comp: Computation, dot: Instruction) -> bool:
        return self.strategies.has_dot_kernel(comp, dot)

    def dot_kernels(self, spec: KernelSpec, dot: Instruction, out: ArrayStorage, layout: BufferLayout) -> list[LoopKernel]:
        if self.strategies.dot(spec.comp, dot).form == "widened":
            return emit_widening_dot(self.mc, spec, dot, out, layout)
        return [emit_dot_kernel(self.mc, spec, dot, out)]

    def reduction_kernels(self, spec: KernelSpec, parts: ReduceParts, extra: dict[str, ArrayStorage],
                          layout: BufferLayout) -> list[LoopKernel] | None:
        strategy = self.strategies.reduction(spec.comp, parts, bool(extra))
        if strategy is None:
            return None
        if strategy.kind == "library-reduce":
            plain = strategy.plain
            assert plain is not None
            if strategy.chunks > 1:
                return library_reduce(self.mc, spec, plain, strategy.chunks, layout)
            return [self._once("library-reduce", spec, lambda: library_reduce(self.mc, spec, plain, 0, layout)[0])]
        if strategy.kind == "reduce-partials":
            return emit_split_reduce(self.mc, spec, parts, strategy.chunks, layout)
        if extra:
            return [emit_reduce_kernel(self.mc, spec, parts, extra)]
        return [self._once("reduce", spec, lambda: emit_reduce_kernel(self.mc, spec, parts))]

    def loop_kernel(self, spec: KernelSpec, extra: dict[str, ArrayStorage]) -> LoopKernel:
        strategy = self.strategies.loop(spec.comp, bool(extra))
        if strategy.scan is not None:
            return emit_scan_kernel(self.mc, spec, strategy.scan)
        if extra:
            return emit_loop_kernel(self.mc, spec, extra)
        return self._once("loop", spec, lambda: emit_loop_kernel(self.mc, spec))

    def _once(self, kind: str, spec: KernelSpec, emit: Callable[[], LoopKernel]) -> LoopKernel:
        """The kernel of a whole spec, emitted once per code key (same_kernels.py); marked
        with its spec so a row chain (row_chains.py) may read what it reads and writes."""
        key = code_key(kind, spec)
        first = self._emitted.get(key)
        if first is not None:
            return same_code(first, spec)
        kernel = emit()
        kernel.spec = spec
        self._emitted[key] = kernel
        return kernel
