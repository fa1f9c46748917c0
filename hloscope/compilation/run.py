"""The stages a session adds after compiling: the assembly, and the run.

    assembly   the target's assembly, made now (on the CPU it costs a second code
               generation, which a plain compile does not pay for)
    run        call the executable on the inputs (given, traced, or seeded random ones),
               check the outputs against the reference evaluator, numpy (for a traced
               call) and XLA (jax), and time each

A GPU executable that cannot run here (no GPU, no cuda-python) has its run skipped with
the reason; everything it compiled is still there to read.
"""

from __future__ import annotations

import time
from typing import Any

from ..errors import NotSupportedError
from ..evaluator import evaluate
from ..ir.module import HloModule
from ..ir.shape import TupleShape
from .checks import Check, Timing, check_against_evaluator, compare_outputs, flat_outputs, time_call
from .error_model import OutputReference, evaluator_references
from .inputs import parameter_inputs
from .record import Compilation
from .sources import TracedCall
from .stages import Stage
from .xla import jax_wanted, numpy_wanted, xla_runner


def assembly(c: Compilation) -> str:
    text = c.assembly
    return f"{text.count(chr(10)):,} lines of {c.assembly_language}"


def run(c: Compilation) -> str:
    exe = c.executable
    if exe is None:
        raise RuntimeError("nothing was compiled")
    why = "--no-run" if not c.run_settings.run else cannot_run(exe)
    if why:
        c.stage("run").status = "skipped"
        return why
    if c.inputs is None:
        c.inputs = parameter_inputs(_input(c), c.run_settings.seed)
    args = c.inputs
    c.outputs = exe(*args)
    timings = [time_call("hloscope", lambda: exe(*args))]
    references = _evaluator_references(c, timings)
    checks = [check_against_evaluator(references, c.outputs, output_labels(_input(c)))]
    if isinstance(c.source, TracedCall) and numpy_wanted(c.run_settings.compare):
        checks, timings = _against_numpy(c, references, checks, timings)
    if jax_wanted(c.run_settings.compare):
        checks, timings = _against_xla(c, references, checks, timings)
    c.checks, c.timings = checks, timings
    return _note(c)


def cannot_run(exe: Any) -> str:
    """Why an executable cannot run on this machine ("" when it can): a GPU executable
    says so through its device (NotSupportedError with the reason)."""
    try:
        getattr(exe, "device", None)
    except NotSupportedError as e:
        return str(e)
    return ""


def _evaluator_references(c: Compilation, timings: list[Timing]) -> list[OutputReference]:
    """The evaluator's outputs (timed: one run at the program's precision) and, untimed, the
    same module evaluated in f64, the error model's yardstick."""
    start = time.perf_counter()
    expected = flat_outputs(evaluate(_input(c), *(c.inputs or [])))
    timings.append(Timing("evaluator", time.perf_counter() - start, 1, "the reference interpreter, one run"))
    return evaluator_references(_input(c), c.inputs or [], expected)


def output_labels(module: HloModule) -> list[str]:
    """A name per flat output: the ROOT tuple's operand names, or the ROOT's own name."""
    comp = module.entry_computation
    root = comp.root_instruction
    if root.opcode == "tuple" and not any(isinstance(o.shape, TupleShape) for o in comp.operands_of(root)):
        return list(root.operands)
    return [] if isinstance(root.shape, TupleShape) else [root.name]


def _against_numpy(c: Compilation, references: list[OutputReference], checks: list[Check], timings: list[Timing]):
    call = c.source
    assert isinstance(call, TracedCall)
    fn, args, kwargs = call.function, call.args, call.kwargs
    timing = time_call("numpy", lambda: fn(*args, **kwargs))
    if timing.seconds is not None:
        checks = checks + [compare_outputs("numpy", fn(*args, **kwargs), c.outputs, references, output_labels(_input(c)))]
    return checks, timings + [timing]


def _against_xla(c: Compilation, references: list[OutputReference], checks: list[Check], timings: list[Timing]):
    runner, why = xla_runner(_input(c))
    name = "jax (XLA:CPU)"
    if runner is None:
        return checks, timings + [Timing(name, None, 0, why)]
    inputs = c.inputs or []
    buffers = runner.put(inputs)
    timing = time_call(name, lambda: runner.execute(buffers), note="XLA compiling the same HLO")
    if timing.seconds is not None:
        checks = checks + [compare_outputs(name, runner.outputs(inputs), c.outputs, references, output_labels(_input(c)))]
    return checks, timings + [timing]


def _note(c: Compilation) -> str:
    ours = c.timing("hloscope")
    parts = [f"{ours.seconds * 1e3:.3f} ms per call" if ours and ours.seconds is not None else "not timed"]
    bad = [ch.name for ch in c.checks if not ch.ok]
    parts.append(f"differs from {', '.join(bad)}" if bad else f"matches {', '.join(ch.name for ch in c.checks)}")
    return "; ".join(parts)


def _input(c: Compilation):
    if c.input_module is None:
        raise RuntimeError("no input module")
    return c.input_module


def session_stages(assembly_from: str) -> list[Stage]:
    """The run, then the assembly row (after the stage `assembly_from` that makes the code):
    the LLVM children make the assembly while this process runs and times the code."""
    return [
        Stage("run", run, needs=("load",), doc="run, check against the references, time",
              makes=("inputs", "outputs", "checks", "timings")),
        Stage("assembly", assembly, needs=(assembly_from,), doc="the target's assembly, made now"),
    ]
