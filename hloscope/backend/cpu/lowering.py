"""Lowering: an optimized HLO module to one LLVM module (kernels + entry function).

The ENTRY becomes the external entry function, and the condition, body and branches of its
loops and conditionals internal program functions called from it (control_flow.py). Each
program function is its computation's steps in schedule order, as the shared dispatch
(backend/dispatch.py) finds them: no code for aliases, a called program for a while or a
conditional, and for every other instruction the kernels the CPU's kernel choices give
(kernel_choices.py), each called over its partitions (parallel.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence, Union

from llvmlite import ir

from ...ir.computation import Computation
from ...ir.instruction import Instruction
from ...ir.module import HloModule
from ...ir.shape import ArrayShape
from ...memory import MemoryPlan
from ..buffers import BufferLayout, assign_buffers
from ..dispatch import lower_instruction, program_steps
from ..emit_context import ConstantPool, EmitOptions
from ..kernel_spec import ModuleContext
from ..llvm_types import left_unoptimized
from ..loop_function import LoopKernel
from ..unsupported import refuse_collectives, refuse_elided_constants, refuse_huge_shapes, refuse_new_element_types, unsupported
from .type_passes import refuse_what_was_kept
from .control_flow import CONTROL_FLOW, ConditionalStep, WhileStep
from .entry import EntryEmitter
from .step_clock import StepClock
from .kernel_choices import CpuKernels
from ..cpus import usable_cpus
from .parallel import decide_partitions
from .fast.row_chains import ChainMember, chain_rows, emit_chain
from .fast.rows import RowPrograms

NAME = "cpu"

Step = Union[LoopKernel, WhileStep, ConditionalStep]  # what a program function runs, in order


@dataclass
class LoweringOptions:
    emit: EmitOptions = field(default_factory=EmitOptions)
    threads: int = 0  # 0: every CPU this process may run on
    parallel_min_elements: int = 256 * 1024
    entry_name: str = ""
    thread_pool: bool = True  # partitions go to the process's pool (False: pthreads per call, for AOT)
    profile: bool = False  # time every kernel call into counters (step_clock.py; for CpuExecutable.profile only)


@dataclass
class Lowered:
    """The LLVM module and what the runtime and the report need to know about it."""

    llmod: ir.Module
    entry_name: str
    layout: BufferLayout
    kernels: list[LoopKernel]
    clock: StepClock | None = None  # the timed calls, where options.profile


def lower(module: HloModule, options: LoweringOptions, plan: MemoryPlan | None = None) -> Lowered:
    """The entry computation as the external function `options.entry_name`."""
    entry = module.entry_computation
    if any(not isinstance(p.shape, ArrayShape) for p in entry.parameters):
        raise unsupported(NAME, "tuple-shaped entry parameters")
    refuse_elided_constants(module, NAME)
    refuse_collectives(module, NAME)
    refuse_what_was_kept(module)  # the type rewrites ran before (lowering_passes.py): why one could not
    refuse_new_element_types(module, NAME)
    refuse_huge_shapes(module, NAME)
    llmod = ir.Module(name=module.name)
    mc = ModuleContext(llmod, module, options.emit, ConstantPool(llmod), NAME)
    layout = assign_buffers(entry, plan)
    name = options.entry_name or c_identifier(module.name)
    mc.names.add(name)  # the runtime looks the entry up by this name: no kernel may take it
    programs = CpuPrograms(mc, options)
    programs.lower(entry, layout, name, external=True)
    if programs.clock is not None:
        programs.clock.finish()
    return Lowered(llmod, name, layout, programs.kernels, programs.clock)


class CpuPrograms:
    """Lowers a computation to a program function `void f(ptr buffers, ptr arena)`: its
    steps in schedule order. The entry is one; while bodies and conditions and the
    branches of a conditional are others, called from their caller's program."""

    def __init__(self, mc: ModuleContext, options: LoweringOptions):
        self.mc = mc
        self.options = options
        self.choices = CpuKernels(mc, options.parallel_min_elements)
        self.threads = options.threads or usable_cpus()
        self.kernels: list[LoopKernel] = []
        self.row_programs = RowPrograms(mc)
        self.clock = StepClock(mc.llmod) if options.profile else None

    @property
    def target(self) -> str:
        return self.mc.target

    def lower(self, comp: Computation, layout: BufferLayout, name: str, external: bool = False) -> ir.Function:
        """The program function `name` running comp's steps over `layout`."""
        steps = chain_rows(program_steps(self, comp, layout), self._row_chain)
        emitter = EntryEmitter(self.mc.llmod, name, comp, layout, self.mc.constants, self.options.thread_pool,
                               self.clock)
        emitter.emit_steps(list(steps))
        fn = emitter.finish()
        if not external:
            fn.linkage = "internal"
        return fn

    def _row_chain(self, members: list[ChainMember]) -> LoopKernel:
        """One function running `members` block by block over their rows (row_chains.py),
        split over the threads as one kernel."""
        chain = emit_chain(self.mc.llmod, self.mc.unique_name(f"{members[0].kernel.name}.rows"), members, self.clock)
        decide_partitions(chain, self.threads, self.options.parallel_min_elements)
        for m in members:  # the report shows the threads the chain runs on
            m.kernel.partitions = chain.partitions
        if self.clock is not None:
            self.clock.covers[id(chain)] = [m.kernel for m in members]
        return chain

    def control_flow(self, inst: Instruction, comp: Computation, layout: BufferLayout) -> Sequence[Step]:
        return [CONTROL_FLOW[inst.opcode](self, inst, comp, layout)]

    def instruction_steps(self, inst: Instruction, comp: Computation, layout: BufferLayout) -> Sequence[Step]:
        """inst's kernels, each with the partitions it will run as (a row program's kernel
        where one starts at inst, none for its later instructions: rows/)."""
        program = self.row_programs.steps_at(comp, inst, layout, self.threads, self.options.parallel_min_elements)
        if program is not None:
            steps, records = program
            self.kernels += records
            if self.clock is not None:
                self.clock.covers.update((id(step), records) for step in steps)
            return steps
        kernels = lower_instruction(self.choices, inst, comp, layout)
        for kernel in kernels:
            decide_partitions(kernel, self.threads, self.options.parallel_min_elements)
            if _tiny(kernel) and kernel.function is not None:
                left_unoptimized(kernel.function)
        self.kernels += kernels
        return kernels


# A loop or reduction whose buffers hold this few bytes in all runs in well under a
# microsecond either way, but -O3 and the full code generator cost 2-8 ms on it (mse's
# one-element division: 3.5 ms). So does the combine of a split reduction's partial results
# (64 of them; it takes the reduction's inputs only for their initial value): 7.6 ms for mse's.
TINY_BYTES = 1024


def _tiny(kernel: LoopKernel) -> bool:
    if kernel.kind == "reduce-combine":
        return True
    return kernel.kind in ("loop", "reduce") and sum(b.size for b in kernel.buffers) <= TINY_BYTES


def c_identifier(text: str) -> str:
    """`text` as a C identifier (the entry function's default name, the AOT header's)."""
    name = "".join(c if c.isalnum() or c == "_" else "_" for c in text) or "module"
    return name if not name[0].isdigit() else "m_" + name
