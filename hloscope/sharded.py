"""A partitioned program compiled for the CPU and run as N devices.

    exe = hloscope.compile(per_device_module)             # (or compile_sharded): each stretch between collectives
    outputs = exe.run_sharded(shards)                     # one argument tuple per device -> N results

The CPU backend runs one device and refuses a collective, so the program is cut at its
collectives (and at partition-id / replica-id, which differ per device): each stretch between
them is a module of its own, compiled once to native code, and every device runs the same
stretches in its own thread. Between two stretches the devices meet at the collective, which
exchanges their numpy values as the simulated devices of the evaluator do (evaluator/mesh.py).
The stretches are ordinary compiles: `exe.segments[i].report` is each one's record.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from .compilation.executable import Executable
from .compiler import compile as compile_module
from .compiler import use_sharded
from .errors import HloscopeError
from .evaluator.core import Evaluator
from .evaluator.mesh import device_count, evaluate_on_devices
from .evaluator.table import HANDLERS
from .ir import parse_hlo
from .ir.instruction import Instruction
from .ir.module import HloModule
from .ir.opcodes import OPCODES
from .ir.printer import format_computation, format_instruction
from .ir.shape import TupleShape
from .passes.call_inliner import CallInliner
from .passes.record import DecisionLog

_PER_DEVICE = {"partition-id", "replica-id"}  # values that differ per device: computed outside the code


def _meets(inst: Instruction) -> bool:
    row = OPCODES.get(inst.opcode)
    return inst.opcode in _PER_DEVICE or (row is not None and row.kind == "collective")


@dataclass
class Segment:
    """A stretch of the ENTRY between meetings, compiled: it takes `inputs` and gives `outputs`."""

    inputs: list[str]
    outputs: list[str]
    executable: Executable

    @property
    def report(self):
        return self.executable.report


@dataclass
class Step:
    """One thing each device does in order: run a segment, or meet at an instruction."""

    segment: Segment | None = None
    meeting: Instruction | None = None


class ShardedExecutable:
    """Native code for a program of N devices (see the module docstring)."""

    def __init__(self, module: HloModule, steps: list[Step], backend_options: dict[str, Any]):
        self.module, self.steps = module, steps
        self.replicas, self.partitions = device_count(module)
        self.options = backend_options

    @property
    def devices(self) -> int:
        return self.replicas * self.partitions

    @property
    def segments(self) -> list[Segment]:
        return [s.segment for s in self.steps if s.segment is not None]

    def __call__(self, *args: Any) -> Any:
        raise HloscopeError(f"{self.module.name} is a program for {self.devices} devices: call "
                            "exe.run_sharded(shards), one argument tuple per device")

    def run_sharded(self, shards: Sequence[Sequence]) -> list:
        """Each device's results, from one argument tuple per device (as hloscope.evaluate's
        shards form: the same threads, the same meetings, native code between them)."""
        from .evaluator.api import check_shards

        check_shards(self.module, shards)
        return evaluate_on_devices(self.module, shards, lambda ev, shard: self._run_device(ev, list(shard)))

    def _run_device(self, evaluator: Evaluator, args: list) -> Any:
        entry = self.module.entry_computation
        values: dict[str, Any] = {p.name: np.asarray(a) for p, a in
                                  zip(sorted(entry.parameters, key=lambda p: p.parameter_number or 0), args)}
        for step in self.steps:
            if step.segment is not None:
                arguments = [a for n in step.segment.inputs for a in (values[n] if isinstance(values[n], tuple)
                                                                       else (values[n],))]
                outputs = step.segment.executable(*arguments)
                outputs = outputs if isinstance(outputs, tuple) else (outputs,)
                values.update(zip(step.segment.outputs, outputs))
            else:
                inst = step.meeting
                assert inst is not None
                values[inst.name] = HANDLERS[inst.opcode](evaluator, inst, [values[o] for o in inst.operands])
        return values[entry.root]


def compile_sharded(module: HloModule, **options: Any) -> ShardedExecutable:
    """Native code for a module of several devices: its stretches between collectives, each
    compiled for the CPU (options as hloscope.compile's). Calls are inlined first, so that a
    collective inside a called computation (a shard_map's body) is met in the ENTRY."""
    module = CallInliner().run(module, DecisionLog())
    entry = module.entry_computation
    order = list(entry.post_order())
    position = {inst.name: k for k, inst in enumerate(order)}
    users: dict[str, list[str]] = {inst.name: [] for inst in order}
    for inst in order:
        for o in inst.operands:
            users[o].append(inst.name)
    steps: list[Step] = []
    done: set[str] = {p.name for p in entry.parameters}
    pending = [inst for inst in order if inst.opcode != "parameter"]
    while pending:
        ready = _runnable(pending, done)
        if ready:
            later = {u for inst in pending if inst.name not in {r.name for r in ready} for u in inst.operands}
            outputs = [r.name for r in ready if r.name in later or r.name == entry.root]
            inputs = sorted({o for r in ready for o in r.operands if o not in {x.name for x in ready}},
                            key=lambda n: position[n])
            if outputs:
                steps.append(Step(segment=_segment(module, ready, inputs, outputs, len(steps), options)))
            done |= {r.name for r in ready}
            pending = [inst for inst in pending if inst.name not in done]
            continue
        meeting = next(inst for inst in pending if _meets(inst) and all(o in done for o in inst.operands))
        steps.append(Step(meeting=meeting))
        done.add(meeting.name)
        pending = [inst for inst in pending if inst.name != meeting.name]
    return ShardedExecutable(module, steps, options)


def _runnable(pending: list[Instruction], done: set[str]) -> list[Instruction]:
    """The instructions that can run before the next meeting: not meetings, and fed only by
    what is done or by each other."""
    ready: list[Instruction] = []
    names: set[str] = set()
    for inst in pending:  # post order: operands come first
        if not _meets(inst) and all(o in done or o in names for o in inst.operands):
            ready.append(inst)
            names.add(inst.name)
    return ready


def _segment(module: HloModule, body: list[Instruction], inputs: list[str], outputs: list[str], index: int,
             options: dict[str, Any]) -> Segment:
    entry = module.entry_computation
    shapes = {inst.name: inst.shape for inst in entry.instructions}
    params: list[str] = []  # a tuple input (a combined all-reduce's) comes in as its elements
    heads: list[str] = []
    for name in inputs:
        shape = shapes[name]
        parts = shape.elements if isinstance(shape, TupleShape) else [shape]
        names = [f"{name}.part{i}" for i in range(len(parts))] if isinstance(shape, TupleShape) else [name]
        for part, part_name in zip(parts, names):
            params.append(f"%{part_name} = {part} parameter({len(heads)})")
            heads.append(f"{part_name}: {part}")
        if isinstance(shape, TupleShape):
            params.append(f"%{name} = {shape} tuple({', '.join('%' + n for n in names)})")
    lines = params + [format_instruction(inst) for inst in body]
    root_shape = "(" + ", ".join(str(shapes[n]) for n in outputs) + ")"
    lines.append(f"ROOT %segment_outputs = {root_shape} tuple({', '.join('%' + n for n in outputs)})")
    head = ", ".join(heads)
    called = "\n\n".join(format_computation(c) for c in module.computations if c.name != entry.name)
    text = (f"HloModule {module.name}_segment{index}\n\n{called}\n\nENTRY %segment{index} ({head}) -> {root_shape} {{\n  "
            + "\n  ".join(lines) + "\n}\n")
    executable = compile_module(parse_hlo(text), **options)
    return Segment(inputs, outputs, executable)


use_sharded(compile_sharded)  # hloscope.compile of a partitioned module comes here
