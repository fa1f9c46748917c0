"""The numbers a what-if compares: counts from the record, the cost model's bytes and
estimated time, compile time, and a measured run.

Runs are measured interleaved (original, changed, original, ...) and each side's median
kept: on a busy machine both sides then see the same noise.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from typing import Any, Callable

from ..compilation.inputs import parameter_inputs
from ..compilation.record import RUN_STAGES, Compilation
from ..compilation.run import cannot_run
from ..cost import GPUS, Peaks, analyze, cpu_peaks, estimate
from ..cost.kernels import kernel_costs
from ..ir.module import HloModule

# Top-level instructions that are no kernel of their own (views, tuples, inputs).
NOT_KERNELS = frozenset("parameter tuple get-tuple-element bitcast constant".split())


@dataclass(frozen=True)
class Metrics:
    """One side of the delta table."""

    instructions: int
    kernels: int
    fusions: int
    peak_bytes: int
    bytes_moved: int
    estimated_seconds: float
    compile_seconds: float
    run_seconds: float | None = None  # None: not measured (why in `run_note`)
    run_note: str = ""


def peaks_for(target: str) -> Peaks:
    """The roofline a target's estimate uses: this CPU (measured once, cached), or an H200."""
    return GPUS["H200"] if target == "gpu" else cpu_peaks()


def kernel_pairs(c: Compilation, module: HloModule) -> list[tuple[str, str]]:
    """(kernel, instruction) per kernel; without a target, one per top-level instruction."""
    if c.kernels:
        return [(k.name, k.instruction) for k in c.kernels]
    entry = module.entry_computation
    return [(i.name, i.name) for i in entry if i.opcode not in NOT_KERNELS]


def measure(c: Compilation, run_seconds: float | None = None, run_note: str = "") -> Metrics:
    module = c.module
    if module is None:
        raise ValueError("the record has no module: its front stages did not run")
    pairs = kernel_pairs(c, module)
    peaks = peaks_for(c.target)
    costs = kernel_costs(module, pairs, {"t": peaks}, analyze(module))
    moved = sum(k.cost.bytes_accessed for k in costs)
    estimated = sum(estimate(k.cost, peaks, k.dtype) for k in costs)
    fusions = sum(1 for _, i in module.all_instructions() if i.opcode == "fusion")
    compile_seconds = sum(s.seconds for s in c.stages if s.name not in RUN_STAGES and s.status == "done")
    peak = c.memory_plan.peak_bytes if c.memory_plan is not None else 0
    return Metrics(module.instruction_count(), len(pairs), fusions, peak, moved, estimated, compile_seconds,
                   run_seconds, run_note)


def inputs_for(c: Compilation, seed: int = 0) -> list:
    """The inputs the record was made with, else seeded random ones for its parameters."""
    if c.inputs is not None:
        return list(c.inputs)
    if c.input_module is None:
        raise ValueError("the record has no input module to make inputs for")
    return parameter_inputs(c.input_module, seed)


def time_both(a: Callable[[], Any], b: Callable[[], Any], repeats: int = 7,
              budget: float = 2.0) -> tuple[float, float]:
    """Median seconds of a() and b(), measured interleaved after one warm-up call each."""
    a()  # warm up: first-touch page faults and caches
    b()
    times_a: list[float] = []
    times_b: list[float] = []
    deadline = time.perf_counter() + budget
    while len(times_a) < repeats and (len(times_a) < 3 or time.perf_counter() < deadline):
        for fn, times in ((a, times_a), (b, times_b)):
            start = time.perf_counter()
            fn()
            times.append(time.perf_counter() - start)
    return statistics.median(times_a), statistics.median(times_b)


def runnable(exe: Any) -> str:
    """Why `exe` cannot be run here ("" when it can)."""
    if exe is None:
        return "no executable (the record only ran the HLO passes)"
    return cannot_run(exe)
