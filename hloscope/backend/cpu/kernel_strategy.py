"""The kernel-strategy pass: which kind of kernel computes each instruction, and why,
decided before memory planning and written into the module where the stepper shows it.

A fusion is one loop nest in the textbook; on the CPU it may instead be a call of the
precompiled library (a reduction, a depthwise convolution), a BLAS gemm, a split reduction
on every core, a scan, or part of a row program (softmax, layer norm: rows/). This pass
asks the questions the lowering asks (strategy.py, and RowPrograms for row programs, over
the memory plan the next stage makes of this same module) and records each answer:

    %fusion.3 = f32[4096,1024] fusion(...), kind=kLoop, calls=...,
        backend_config={"kernel":"row-program","program":"reduce.7"}
    log: chose row-program for fusion.3: a softmax-like run of 3 instructions over 4096 rows
         of 1024 f32 (the row interpreter, compiled once): plain loops with library=False

A plain loop nest ("loop") is not annotated: it is what every instruction is by default.
The lowering makes the same choices by the same functions, so what the record says is
what the code does (tests/backend/test_kernel_strategy.py checks it over the corpus).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from llvmlite import ir

from ...errors import HloscopeError
from ...ir.computation import Computation
from ...ir.instruction import Instruction
from ...ir.module import HloModule
from ...ir.attributes import Raw
from ...memory import plan_memory
from ...passes.pipeline import HloPass
from ...passes.record import DecisionLog
from ..buffers import BufferLayout, assign_buffers, is_alias
from ..dispatch import CONTROL_FLOW, NO_CODE
from ..emit_context import ConstantPool, EmitOptions
from ..kernel_spec import ModuleContext
from .fast.rows import RowPrograms
from .strategy import CpuStrategies, Strategy, instruction_strategies

PLAIN = "loop"  # what an instruction is unless the pass says otherwise: not annotated
ROW_PROGRAM = ("{n} instruction(s) over the same {rows} rows of {width} {dtype}, reductions of each row and "
               "elementwise uses of them: the precompiled row interpreter (rows/) runs them a block of rows "
               "at a time, so their compile is a lookup and a block stays in cache from one to the next "
               "(library=False: plain loops)")


@dataclass(frozen=True)
class KernelStrategy(HloPass):
    """Choose each instruction's kernel: plain loops, or the library, a BLAS gemm, a split
    reduction, a scan or a row program where one fits, and say why (see the module docstring)."""

    name = "kernel-strategy"
    emit: EmitOptions = field(default_factory=EmitOptions)
    parallel_min_elements: int = 256 * 1024

    def run(self, module: HloModule, log: DecisionLog) -> HloModule:
        mc = ModuleContext(ir.Module(module.name), module, self.emit, ConstantPool(ir.Module()), "cpu")
        chooser = _Chooser(CpuStrategies(module, self.emit, self.parallel_min_elements), RowPrograms(mc), log)
        entry = module.entry_computation
        plan = plan_memory(module)  # the memory stage's plan of this module: what the lowering lays out
        chooser.computation(entry, assign_buffers(entry, plan))
        if not chooser.chosen:
            return module
        computations = []
        for comp in module.computations:
            chosen = chooser.chosen.get(comp.name)
            if chosen:
                comp = comp.replace(instructions=[_annotated(i, chosen[i.name]) if i.name in chosen else i
                                                  for i in comp.instructions])
            computations.append(comp)
        return module.replace(computations=tuple(computations))


class _Chooser:
    def __init__(self, strategies: CpuStrategies, rows: RowPrograms, log: DecisionLog):
        self.strategies, self.rows, self.log = strategies, rows, log
        self.chosen: dict[str, dict[str, dict[str, str]]] = {}  # computation -> instruction -> annotation

    def computation(self, comp: Computation, layout: BufferLayout) -> None:
        in_program: set[str] = set()
        for inst in comp.instructions:
            if inst.opcode in NO_CODE or is_alias(inst, comp) or inst.name in in_program:
                continue
            if inst.opcode in CONTROL_FLOW:
                for callee in inst.called_computations():  # each body, condition and branch: its own layout
                    body = self.strategies.hlo.computation(callee)
                    self.computation(body, assign_buffers(body, None))
                continue
            try:
                found = self.rows.program_at(comp, inst, layout)
                if found is not None:
                    self._row_program(comp, found)
                    in_program.update(m.name for m in found.members)
                    continue
                self._kernels(comp, inst, instruction_strategies(self.strategies, inst, comp, layout))
            except HloscopeError as e:  # the lowering refuses it, by name; the record says so here
                self.log.add("undecided", inst.name, f"no CPU kernel: {e}", accepted=False, computation=comp.name)

    def _row_program(self, comp: Computation, found) -> None:
        plan, first = found.plan, found.members[0].name
        reason = ROW_PROGRAM.format(n=len(found.members), rows=plan.split.rows, width=plan.split.width, dtype=plan.dtype)
        for inst in found.members:
            self._choose(comp, inst, {"kernel": "row-program", "program": first},
                         "row-program" if inst.name == first else f"row-program (of {first})", reason)

    def _kernels(self, comp: Computation, inst: Instruction, strategies: list[Strategy]) -> None:
        kinds = [s.kind for s in strategies]
        if kinds == [PLAIN]:
            return
        reason = "; then ".join(f"{s.kind}: {s.reason}" for s in strategies)
        self._choose(comp, inst, {"kernel": "+".join(kinds)}, "+".join(kinds), reason)

    def _choose(self, comp: Computation, inst: Instruction, annotation: dict[str, str], what: str, reason: str) -> None:
        self.chosen.setdefault(comp.name, {})[inst.name] = annotation
        self.log.add(f"chose {what}", inst.name, reason, computation=comp.name)


def _annotated(inst: Instruction, annotation: dict[str, str]) -> Instruction:
    """`inst` with the annotation in its backend_config (a JSON object: XLA's own keys kept)."""
    config = inst.attr("backend_config")
    fields: dict = {}
    if config is not None:
        try:
            fields = json.loads(config.text if isinstance(config, Raw) else str(config))
        except ValueError:
            fields = None  # pyright: ignore[reportAssignmentType]
        if not isinstance(fields, dict):
            return inst  # someone else's opaque config: left as it is (the log still says)
    return inst.with_attrs(backend_config=Raw(json.dumps({**fields, **annotation}, separators=(",", ":"))))
