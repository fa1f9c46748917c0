"""Row programs: consecutive row-wise instructions run by an interpreter compiled once.

Softmax, layer norm and their like are a few instructions over the same rows: a max or a
sum of each row, then elementwise ops that use it. XLA:CPU hands such fusions to YNNPACK,
whose kernels are compiled before the program exists, so their compile is a lookup. Here
the same: a run of such instructions becomes a program for hloscope's row interpreter
(library/rows.py), a list of ops over slots that it runs a block of rows at a time:

    row program: 4096 rows of 1024 f32, 1 rows per block, 3 ops, 4,104 B of scratch per block
      %s0 = reduce-maximum x.1[r, :], from constant.5              ; reduce_max.7
      %v0, %s1 = exp-minus-and-sum x.1[r, :], %s0, from constant.4 ; exp.1
      broadcast_divide_fusion[r, :] = divide %v0, %s1              ; div.7

Its kernel is a call (kernel.py), so the program's LLVM time is that of a few stores, and
the block stays in the first-level cache from op to op, results nothing after the program
reads never leaving it. The files, in the order they run:

    groups.py     which instructions form a program, and what it must not write
    forms.py      what each value is row by row: a row's vector, a row's value, fixed
    translate.py  the computations as ops on values (drafts.py)
    fuse.py       two fused ops where softmax and variance would pass over a row twice
    storage.py    values in slots: buffers' rows, scratch shared out, the block's rows
    program.py    the program as data: the interpreter's words and the listing
    kernel.py     the kernel calling the interpreter, and the report's records
    ops.py        the interpreter's instruction set

`library=False` (and AOT objects, which carry all their code) keeps generated kernels.
"""

from __future__ import annotations

from dataclasses import dataclass

from .....ir.computation import Computation
from .....ir.instruction import Instruction
from ....buffers import ArrayStorage, BufferLayout
from ....kernel_spec import ModuleContext, distinct_buffers
from ....loop_function import LoopKernel
from ...parallel import decide_partitions
from .groups import Candidate, ProgramPlan, buffer_readers, candidate, following_candidates, internal_buffers, plan_at
from .kernel import emit_program_kernel, member_records
from .fuse import fuse
from .program import RowProgram
from .storage import build_program
from .translate import Translator


@dataclass
class FoundProgram:
    """A row program planned and built, before any code: its members, the program, the
    buffers its kernel takes and those it writes."""

    plan: ProgramPlan
    program: RowProgram
    buffers: list[ArrayStorage]
    outputs: list[ArrayStorage]

    @property
    def members(self) -> list[Instruction]:
        return [m.inst for m in self.plan.members]


class RowPrograms:
    """The programs of one LLVM module, found as the lowering reaches each instruction
    (and by the kernel-strategy pass, which asks the same questions before any code)."""

    def __init__(self, mc: ModuleContext):
        self.mc = mc
        options = mc.options  # the interpreter is compiled with reassociated sums and without fast math
        self.enabled = options.library and options.reassociate_reductions and not options.fast_math \
            and _reduces(mc.hlo)  # every program reduces its rows: without a reduce, none to find
        self._candidates: dict[tuple[int, str], Candidate | None] = {}
        self._readers: dict[int, dict[ArrayStorage, set[str]]] = {}
        self._positions: dict[int, dict[str, int]] = {}
        self._covered: set[tuple[int, str]] = set()
        self.aliased_params = "input_output_alias" in mc.hlo.attrs

    def steps_at(self, comp: Computation, inst: Instruction, layout: BufferLayout, threads: int,
                 min_elements: int) -> tuple[list[LoopKernel], list[LoopKernel]] | None:
        """(steps, report records) when `inst` is part of a row program: the program's kernel
        (split over `threads` by the usual rule) where it starts, nothing for its later
        members; None when it is in none."""
        if (id(comp), inst.name) in self._covered:
            return [], []
        found = self.program_at(comp, inst, layout)
        if found is None:
            return None
        self._covered.update((id(comp), m.name) for m in found.members)
        return self._emit(found, threads, min_elements)

    def program_at(self, comp: Computation, inst: Instruction, layout: BufferLayout) -> FoundProgram | None:
        """The row program that starts at `inst` (an instruction not in an earlier one),
        planned and built, or None."""
        if not self.enabled or self._candidate(comp, inst, layout) is None:
            return None
        positions = self._positions.get(id(comp))
        if positions is None:
            positions = self._positions[id(comp)] = {i.name: k for k, i in enumerate(comp.instructions)}
        found = following_candidates(comp, positions[inst.name], lambda i: self._candidate(comp, i, layout))
        if not found or found[0].inst.name != inst.name:
            return None
        plan = plan_at(found, self.aliased_params)
        if plan is None:
            return None
        readers = self._readers.get(id(comp))
        if readers is None:
            readers = self._readers[id(comp)] = buffer_readers(comp, layout)
        internal = internal_buffers(plan, readers)
        outputs = [o for m in plan.members for o in m.outputs if o not in internal]
        buffers = distinct_buffers([b for m in plan.members for b in m.inputs] + outputs)
        t = Translator(plan.dtype, plan.split, buffers, internal, self.aliased_params)
        for number, m in enumerate(plan.members):
            t.member(m, number)
        row_buffers = sum(b.size == plan.split.rows * plan.split.width * t.bytes for b in buffers)
        program = build_program(plan.dtype, plan.split, fuse(t.drafts, t.values), t.values, t.constants, row_buffers)
        return None if program is None else FoundProgram(plan, program, buffers, outputs)

    def _candidate(self, comp: Computation, inst: Instruction, layout: BufferLayout) -> Candidate | None:
        key = (id(comp), inst.name)
        if key not in self._candidates:
            self._candidates[key] = candidate(self.mc.hlo, comp, inst, layout)
        return self._candidates[key]

    def _emit(self, found: FoundProgram, threads: int, min_elements: int):
        plan = found.plan
        for m in plan.members:
            m.kernel_name = self.mc.unique_name(m.inst.name)
        name = self.mc.unique_name(f"{plan.members[0].inst.name}.rows")
        kernel = emit_program_kernel(self.mc, name, plan, found.program, found.buffers, set(found.outputs))
        decide_partitions(kernel, threads, min_elements)
        return [kernel], member_records(kernel, plan, found.program)


def _reduces(module) -> bool:
    return any(inst.opcode == "reduce" for _, inst in module.all_instructions())
