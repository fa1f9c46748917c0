"""Kernel choices with nothing but plain loops: the target-neutral form of any kernel.

Every kernel is one plain loop function (loop_function.py) around the elemental emitter:

    loop kernel   for each output element: out[i] = value(root, i)   (reductions and dots
                  included: the elemental rules loop over the reduced positions)
    sort          for each row, each position j: rank = how many positions come before it
                  (the comparator, ties broken by position), out[row, rank] = x[row, j]

No intrinsic, no address space, no thread index: the same function compiles for every LLVM
target, which is what the GPU's `report.asm(target)` compares (backend/gpu/neutral.py).
"""

from __future__ import annotations

from math import prod

from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.module import HloModule
from .buffers import ArrayStorage, BufferLayout
from .elemental import ElementalEmitter
from .index import spread
from .kernel_io import input_leaves
from .kernel_spec import KernelSpec, ModuleContext
from .llvm_types import I64
from .loop_function import LoopFunction, LoopKernel
from .loop_kernel import emit_loop_kernel
from .loops import for_range
from .reduction import ReduceParts
from .sort_comparator import comes_first, store_permuted
from .topk_kernel import emit_topk_kernel


class PlainLoops:
    """The KernelChoices (dispatch.py) of the target-neutral form."""

    own_kernel_roots = frozenset({"sort", "topk", "custom-call"})  # custom-call: TopK only

    def __init__(self, mc: ModuleContext):
        self.mc = mc

    @property
    def target(self) -> str:
        return self.mc.target

    @property
    def hlo(self) -> HloModule:
        return self.mc.hlo

    def kernel_name(self, text: str) -> str:
        return self.mc.unique_name(text)

    def own_kernel(self, spec: KernelSpec, layout: BufferLayout) -> LoopKernel:
        if spec.comp.root_instruction.opcode in ("topk", "custom-call"):
            return emit_topk_kernel(self.mc, spec)
        return emit_rank_sort(self.mc, spec)

    def has_dot_kernel(self, comp: Computation, dot: Instruction) -> bool:
        return False  # a dot is the elemental inner product of the loop kernel

    def dot_kernels(self, spec: KernelSpec, dot: Instruction, out: ArrayStorage, layout: BufferLayout) -> list[LoopKernel]:
        raise AssertionError("plain loops have no dot kernel (has_dot_kernel is False)")

    def reduction_kernels(self, spec: KernelSpec, parts: ReduceParts, extra: dict[str, ArrayStorage],
                          layout: BufferLayout) -> list[LoopKernel] | None:
        return None  # the loop kernel's elemental reduce

    def loop_kernel(self, spec: KernelSpec, extra: dict[str, ArrayStorage]) -> LoopKernel:
        return emit_loop_kernel(self.mc, spec, extra)


def emit_rank_sort(mc: ModuleContext, spec: KernelSpec) -> LoopKernel:
    """sort as plain loops (see the module docstring): O(n^2) comparisons per row and no
    scratch memory. Ties go to the lower position, so the order is the stable one."""
    sort = spec.comp.root_instruction
    dim = sort.attr("dimensions")[0]
    shape = spec.comp[sort.operands[0]].array_shape
    n = shape.dims[dim]
    others = [d for d in range(shape.rank) if d != dim]
    rows = prod(shape.dims[d] for d in others)
    kf = LoopFunction(mc.llmod, spec.name, spec.inputs + spec.outputs, set(spec.outputs))
    ctx = mc.emit_context(kf.builder)
    em = ElementalEmitter(ctx, spec.comp, input_leaves(ctx, kf, spec, {}))
    b = kf.builder
    rank = ctx.alloca(I64, "rank")
    with for_range(b, kf.begin, kf.end, "row") as row:
        base = spread(b, row, shape.dims, others, [I64(0)] * shape.rank)
        with for_range(b, 0, n, "j") as j:
            b.store(I64(0), rank)
            with for_range(b, 0, n, "k") as k:
                ahead = comes_first(em, sort, dim, base, k, j)
                tie = b.and_(b.not_(comes_first(em, sort, dim, base, j, k)), b.icmp_signed("<", k, j))
                b.store(b.add(b.load(rank), b.zext(b.or_(ahead, tie), I64)), rank)
            store_permuted(em, kf, sort, spec.outputs, dim, base, b.load(rank), j)
    kf.finish()
    kernel = LoopKernel(spec.name, spec.instruction, "sort-rank", kf.buffers, extent=rows, work=rows * n * n,
                        function=kf.fn)
    kernel.notes.append(f"rank sort of {rows} rows of {n}: each element stored at its rank in its row")
    return kernel
