"""Lowering: an optimized HLO module to one LLVM module of GPU kernels, in schedule order.

The shared dispatch (backend/dispatch.py) walks the ENTRY as on the CPU: no kernel for
aliases, host-side steps for while and conditional (control_flow.py), and for every other
instruction the kernels the GPU's kernel choices give (kernel_choices.py). There is no
entry function: the host runs the steps in order (program.py): each kernel with its launch
configuration, and loops and branches by reading their predicate back.

Buffers are every target's (backend/buffers.py): parameters, outputs and temporaries
at their memory-plan offsets, which the executable places in one device arena.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from llvmlite import ir

from ...ir.computation import Computation
from ...ir.instruction import Instruction
from ...ir.module import HloModule
from ...memory import MemoryPlan
from ..buffers import BufferLayout, assign_buffers
from ..dispatch import lower_instruction, program_steps
from ..emit_context import ConstantPool, EmitOptions
from ..unsupported import refuse_elided_constants, refuse_huge_shapes, refuse_new_element_types, unsupported
from .control_flow import CONTROL_FLOW
from .kernel import GpuKernel, GpuModuleContext, ThreadModel
from .kernel_choices import GpuKernels
from .nvptx import Nvptx
from .program import KernelLaunch, Step

NAME = "gpu"


@dataclass
class GpuLoweringOptions:
    emit: EmitOptions = field(default_factory=EmitOptions)
    block_size: int = 256  # threads per block of loop kernels


@dataclass
class GpuLowered:
    """The LLVM module and what the runtime and the report need to know about it."""

    llmod: ir.Module
    layout: BufferLayout
    kernels: list[GpuKernel]
    steps: tuple[Step, ...]  # what the host runs, in the entry's terms (program.py)


def lower(module: HloModule, options: GpuLoweringOptions | None = None, plan: MemoryPlan | None = None,
          threads: ThreadModel | None = None) -> GpuLowered:
    """The GPU kernels of `module` (optimized and scheduled) for a thread model (NVPTX by default)."""
    options = options or GpuLoweringOptions()
    threads = threads or Nvptx()
    entry = module.entry_computation
    if any(p.shape.is_tuple for p in entry.parameters):
        raise unsupported(NAME, "tuple-shaped entry parameters")
    refuse_elided_constants(module, NAME)
    refuse_new_element_types(module, NAME)
    refuse_huge_shapes(module, NAME)
    layout = assign_buffers(entry, plan)
    llmod = ir.Module(name=module.name)
    if threads.triple:
        llmod.triple = threads.triple
    mc = GpuModuleContext(llmod, module, options.emit, ConstantPool(llmod), NAME, threads, options.block_size)
    programs = GpuPrograms(mc)
    steps = programs.lower(entry, layout)
    return GpuLowered(llmod, layout, programs.kernels, steps)


class GpuPrograms:
    """Lowers a computation to its steps: the entry, and the condition, body and branches of
    its control flow (control_flow.py), collecting every kernel for the report."""

    def __init__(self, mc: GpuModuleContext):
        self.mc = mc
        self.choices = GpuKernels(mc)
        self.kernels: list[GpuKernel] = []

    @property
    def target(self) -> str:
        return self.mc.target

    def lower(self, comp: Computation, layout: BufferLayout) -> tuple[Step, ...]:
        """comp's steps in schedule order, in the terms of `layout` (comp's own buffers)."""
        outer, self.mc.computation = self.mc.computation, comp
        try:
            return tuple(program_steps(self, comp, layout))
        finally:
            self.mc.computation = outer

    def control_flow(self, inst: Instruction, comp: Computation, layout: BufferLayout) -> Sequence[Step]:
        return CONTROL_FLOW[inst.opcode](self, inst, comp, layout)

    def instruction_steps(self, inst: Instruction, comp: Computation, layout: BufferLayout) -> Sequence[Step]:
        """A launch of each of inst's kernels, with the grid and block it was built for."""
        kernels = lower_instruction(self.choices, inst, comp, layout)
        self.kernels += kernels
        return [KernelLaunch(k.name, k.launch.grid, k.launch.block, k.launch.shared_bytes, tuple(k.buffers))
                for k in kernels]
