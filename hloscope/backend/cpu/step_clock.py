"""The step clock: time measured inside the native code, one counter per kernel call.

An instrumented variant of a program (built only for `CpuExecutable.profile`) reads a
monotonic clock around every kernel call of every program function (the entry, its step
functions, loop bodies and conditions, branches) and adds the difference, in nanoseconds,
into that call's slot of one global array:

    %t = call i64 @hloscope.clock.now()
    call void @fusion.3(ptr %param0, ptr %temp.7, i64 0, i64 4096)   ; or its parallel call
    call void @hloscope.clock.add(i64 5, i64 %t)                     ; step_ns[5] += now - t

The clock is libc's `clock_gettime(CLOCK_MONOTONIC)`, declared and resolved in the process
at load time like pthread_create, so the same IR runs on x86-64 and arm64 (LLVM's
readcyclecounter traps in arm64 user mode). A kernel split across threads is timed as its
whole parallel call (wall time); a kernel in a loop body adds every iteration's time. The
A row chain (fast/row_chains.py) runs several kernels of the record block by block in one
call: there each kernel's calls are timed too, on every thread (atomically), which says how
the chain's time divides among them (`member_slots`). The
helpers are ordinary functions (the caller is `optnone`, so nothing is inlined or moved
across the clock reads); each costs a few tens of ns, which `profile` reports as overhead.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from llvmlite import ir

from ..llvm_types import I32, I64, PTR, VOID, internal_global
from ..loop_function import LoopKernel

COUNTERS = "hloscope_step_ns"  # the global array of per-step nanoseconds (a C identifier: found by name)
CLOCK_MONOTONIC = 6 if sys.platform == "darwin" else 1  # <time.h>'s id on macOS and on Linux
_TIMESPEC = ir.LiteralStructType([I64, I64])  # {time_t tv_sec, long tv_nsec} on 64-bit POSIX


@dataclass
class TimedStep:
    """One timed call: its slot in the counters, the kernel it calls (a row chain's or a
    row program's function, or a kernel's own) and the kernels of the record it runs."""

    slot: int
    step: LoopKernel
    kernels: list[LoopKernel]


class StepClock:
    """The counters and clock helpers of one LLVM module; `around` times one call."""

    def __init__(self, llmod: ir.Module):
        self.llmod = llmod
        self.steps: list[TimedStep] = []
        self.covers: dict[int, list[LoopKernel]] = {}  # id(step) -> the record's kernels it runs, where not itself
        self.member_slots: dict[int, int] = {}  # id(kernel) -> its slot, for a kernel timed inside a row chain
        self.slots = 0
        self.now = ir.Function(llmod, ir.FunctionType(I64, []), "hloscope.clock.now")
        self.add = ir.Function(llmod, ir.FunctionType(VOID, [I64, I64]), "hloscope.clock.add")
        self.add_atomic = ir.Function(llmod, ir.FunctionType(VOID, [I64, I64]), "hloscope.clock.add_atomic")
        for fn in (self.now, self.add, self.add_atomic):
            fn.linkage = "internal"
            fn.attributes.add("noinline")
            fn.attributes.add("nounwind")

    def start(self, b: ir.IRBuilder) -> ir.Value:
        """The clock now, before a step."""
        return b.call(self.now, [], name="clock")

    def stop(self, b: ir.IRBuilder, started: ir.Value, step: LoopKernel) -> None:
        """Add the time since `started` into a new slot for `step`."""
        self.steps.append(TimedStep(self._slot(), step, self.covers.get(id(step), [step])))
        b.call(self.add, [I64(self.steps[-1].slot), started])

    def stop_member(self, b: ir.IRBuilder, started: ir.Value, kernel: LoopKernel) -> None:
        """Add the time since `started` into `kernel`'s slot, atomically (a row chain's
        member, whose calls run on several threads at once)."""
        slot = self.member_slots.get(id(kernel))
        if slot is None:
            slot = self.member_slots[id(kernel)] = self._slot()
        b.call(self.add_atomic, [I64(slot), started])

    def _slot(self) -> int:
        self.slots += 1
        return self.slots - 1

    def finish(self) -> None:
        """The counters (one i64 per timed step, zero) and the helpers' bodies."""
        ty = ir.ArrayType(I64, max(1, self.slots))
        counters = internal_global(self.llmod, ty, COUNTERS, ir.Constant(ty, None), align=8)
        counters.linkage = ""  # external: the engine finds it by name after loading
        gettime = ir.Function(self.llmod, ir.FunctionType(I32, [I32, PTR]), "clock_gettime")
        b = ir.IRBuilder(self.now.append_basic_block("entry"))
        ts = b.alloca(_TIMESPEC, name="ts")
        b.call(gettime, [I32(CLOCK_MONOTONIC), ts])
        sec = b.load(b.gep(ts, [I32(0), I32(0)], inbounds=True, source_etype=_TIMESPEC), typ=I64, name="sec")
        nsec = b.load(b.gep(ts, [I32(0), I32(1)], inbounds=True, source_etype=_TIMESPEC), typ=I64, name="nsec")
        b.ret(b.add(b.mul(sec, I64(1_000_000_000)), nsec))
        for fn in (self.add, self.add_atomic):
            b = ir.IRBuilder(fn.append_basic_block("entry"))
            slot, started = fn.args
            elapsed = b.sub(b.call(self.now, []), started, name="elapsed")
            counter = b.gep(counters, [I64(0), slot], inbounds=True)
            if fn is self.add_atomic:
                b.atomic_rmw("add", counter, elapsed, "monotonic")
            else:  # the entry's steps run one at a time
                b.store(b.add(b.load(counter, typ=I64), elapsed), counter)
            b.ret_void()
