"""Kernel times on this CPU: what `CpuExecutable.profile` measures, and how.

    exe.profile(x, w, repeat=20)       [("fusion.3", 0.41), ("dot.2", 2.7), ...]  ms per run
    exe.kernel_times(x, w, repeat=20)  [KernelTime("fusion.3", "fusion.3", 0.41, ""), ...]

The same meaning as the GPU executable's `profile`: one entry per kernel of the record
(`exe.report.kernels`, same names, schedule order) that a call runs, with its milliseconds
per run. The times are measured inside the native code: on first use the optimized module is
lowered again with `LoweringOptions.profile` (the same options, plan and kernel names), each
kernel call between two clock reads (step_clock.py), and compiled apart from the normal
executable and its caches. `profile` runs it once to warm up, then `repeat` times, and
reports each counter's median over the runs.

What a time covers:
  - a kernel split across threads: its whole parallel call (wall time, not CPU time);
  - a kernel in a while body, condition or branch: all its runs within one call;
  - a row chain (fast/row_chains.py): one call runs several kernels of the record, block
    by block; each kernel's calls are timed too (on all threads), and the chain's time is
    shared out in those proportions. `KernelTime.step` names the call they share;
  - a row program (fast/rows/): one interpreter call runs several instructions' records,
    with no boundary to time between them: its time is shared out by their work (elements
    touched), named by `KernelTime.step` likewise.
Nothing else is timed: copies of a loop's state or of results no kernel wrote, the call
itself. The sum of the kernels' times is a little less than a whole call's.
"""

from __future__ import annotations

import ctypes
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ...gc_pause import collector_paused
from ...memory import plan_memory
from ..llvm_worker import llvm_workers
from . import jit
from .fast.library import loader as library_loader
from .llvm_target import llvm_target, target_options
from .lowering import LoweringOptions, lower
from .options import CpuOptions
from .step_clock import COUNTERS, TimedStep

if TYPE_CHECKING:
    from .executable import CpuExecutable


@dataclass(frozen=True)
class KernelTime:
    """A kernel's measured time: its name in the record, the instruction it computes, the
    milliseconds it took per run, and the call it shares with other kernels ("" if none)."""

    kernel: str
    instruction: str
    ms: float
    step: str = ""


class ProfiledProgram:
    """An executable's instrumented variant: the same program with every kernel call timed."""

    def __init__(self, exe: CpuExecutable):
        report = exe.report
        module = report.optimized_module
        if module is None:
            raise RuntimeError("profile needs the optimized HLO of the executable, and this one has none")
        opts = CpuOptions.of(exe.options)
        plan = report.memory_plan or (plan_memory(module) if module.is_scheduled else None)
        lowering = LoweringOptions(opts.emit, opts.threads, opts.parallel_min_elements, profile=True)
        with collector_paused():
            lowered = lower(module, lowering, plan)
            text = str(lowered.llmod)
        assert lowered.clock is not None, "a profiling lowering has its clock"
        self.steps: list[TimedStep] = lowered.clock.steps
        self.member_slots = lowered.clock.member_slots
        self.kernels = lowered.kernels  # the record's kernels, in schedule order
        with llvm_workers(1) as [worker]:
            handle, _ = worker.optimize(text, llvm_target(opts))
            obj = worker.object(handle)
        library_loader.ensure_for(text)  # before an object calling the library is linked
        native = jit.NativeCode(obj, lowered.entry_name, target_options(opts))
        address = native.engine.get_global_value_address(COUNTERS)
        if not address:
            raise RuntimeError(f"the profiling counters {COUNTERS} are not in the compiled object")
        self.counters = (ctypes.c_int64 * max(1, lowered.clock.slots)).from_address(address)
        # A second executable around the instrumented code (under a copy of the report: the
        # record's link to its executable stays the normal one's).
        self.executable = type(exe)(native, exe.signature, lowered.layout.arena_bytes, report.compiled_part(),
                                    exe.module, exe.options)

    def run(self, args: tuple[Any, ...], repeat: int) -> tuple[list[KernelTime], float]:
        """(each kernel's median time over `repeat` runs, the median run's whole call in
        ms). Medians: a run the OS interrupts (a thread of a parallel kernel descheduled on a
        busy machine) does not shift them."""
        counters = np.ctypeslib.as_array(self.counters)
        self.executable(*args)  # warm-up: caches, pages, the thread pool
        runs, calls = [], []
        for _ in range(max(1, repeat)):
            counters[:] = 0
            start = time.perf_counter_ns()
            self.executable(*args)
            calls.append(time.perf_counter_ns() - start)
            runs.append(counters.copy())
        ns = np.median(np.array(runs, dtype=np.float64), axis=0)
        return self.kernel_times([float(v) for v in ns]), float(np.median(calls)) / 1e6

    def kernel_times(self, ns: list[float]) -> list[KernelTime]:
        """Each step's nanoseconds (`ns` by slot) given to its kernels, in the record's
        order; kernels no step runs are left out."""
        ms: dict[int, float] = {}
        shared: dict[int, str] = {}
        for step in self.steps:
            weights = self._weights(step, ns)
            total = sum(weights)
            for k, w in zip(step.kernels, weights):
                share = w / total if total else 1 / len(step.kernels)
                ms[id(k)] = ms.get(id(k), 0.0) + ns[step.slot] * share / 1e6
                if len(step.kernels) > 1:
                    shared[id(k)] = step.step.name
        return [KernelTime(k.name, k.instruction, ms[id(k)], shared.get(id(k), "")) for k in self.kernels
                if id(k) in ms]

    def _weights(self, step: TimedStep, ns: list[float]) -> list[float]:
        """How a step's time divides among its kernels: their own measured times where each
        was timed (a row chain's members), else their work."""
        slots = [self.member_slots.get(id(k)) for k in step.kernels]
        if len(slots) > 1 and all(s is not None for s in slots):
            return [ns[s] for s in slots if s is not None]
        return [float(max(0, k.work)) for k in step.kernels]
