"""The entry function: the whole program as one native call.

    void @<name>(ptr %buffers, ptr %arena)

`buffers` is a table of pointers: the parameters, then the outputs (the caller allocates
the outputs; results are written straight into them). `arena` is one block holding every
temporary at the offset the buffer layout gave it. The body is the schedule: one call per
kernel, in order, each given pointers into the table, the arena or the constants; a kernel
with several partitions runs them on threads (parallel.py). Results that no kernel wrote
(a parameter returned as is) are copied into their outputs at the end.
"""

from __future__ import annotations

from llvmlite import ir

from ...ir.computation import Computation
from ..emit_context import ConstantPool
from ..llvm_types import I1, I8, I64, PTR, VOID, left_unoptimized
from ..buffers import ArrayStorage, BufferLayout
from ..loop_function import LoopKernel
from .parallel import ParallelSupport, emit_parallel_call, partition_bounds
from .step_clock import StepClock


# Steps per function. LLVM's time on one function grows faster than its size: a
# 20,000-instruction program's entry (2,305 calls, 21,500 lines) took 2.1 s to optimize and
# 3.9 s to compile at -O3 (x2.8 and x4.4 per doubling), and even left unoptimized
# (left_unoptimized) its code generation grows x2.4-3 per doubling (0.26, 0.77, 1.85 s at 5k, 10k,
# 20k). In functions of this many steps each, it is 0.1 s and linear (large_graphs.py).
STEPS_PER_FUNCTION = 128


class _Frame:
    """One function `void (ptr %buffers, ptr %arena)` being filled with steps: its stack
    slots, the addresses of the buffers it uses, and its body."""

    def __init__(self, fn: ir.Function):
        self.fn = left_unoptimized(fn)  # stores and calls: nothing for LLVM's optimizer to do
        fn.args[0].name, fn.args[1].name = "buffers", "arena"
        fn.args[1].attributes.align = 64
        self.slots = fn.append_basic_block("entry")  # stack slots only
        self.addresses = ir.IRBuilder(fn.append_basic_block("buffers"))  # every buffer's address
        self.b = ir.IRBuilder(fn.append_basic_block("body"))
        self.pointers: dict[ArrayStorage, ir.Value] = {}

    def close(self) -> None:
        self.b.ret_void()
        ir.IRBuilder(self.slots).branch(self.addresses.block)
        self.addresses.branch(self.fn.blocks[2])


class EntryEmitter:
    """Builds the entry function of one LLVM module. A program of more than
    STEPS_PER_FUNCTION steps runs them in functions of that many, which the entry calls in
    order (external, so llvm_split can give them to different parts)."""

    def __init__(self, llmod: ir.Module, name: str, entry: Computation, layout: BufferLayout,
                 constants: ConstantPool, thread_pool: bool = True, clock: StepClock | None = None):
        self.thread_pool = thread_pool
        self.clock = clock  # times every kernel call (a profiling variant: step_clock.py)
        self.llmod = llmod
        self.name = name
        self.entry = entry
        self.layout = layout
        self.constants = constants
        self._entry = self._frame = _Frame(ir.Function(llmod, ir.FunctionType(VOID, [PTR, PTR]), name))
        self.parallel = ParallelSupport(llmod)

    @property
    def fn(self) -> ir.Function:
        """The function steps are emitted into now (the entry, or one of its step functions)."""
        return self._frame.fn

    @property
    def b(self) -> ir.IRBuilder:
        return self._frame.b

    def emit_steps(self, steps: list) -> None:
        """Each step in order: a kernel's call, or a control-flow step's own code (its
        `emit(emitter)`), in functions of STEPS_PER_FUNCTION steps when there are more."""
        if len(steps) <= STEPS_PER_FUNCTION:
            for step in steps:
                self._emit(step)
            return
        for first in range(0, len(steps), STEPS_PER_FUNCTION):
            fn = ir.Function(self.llmod, self._entry.fn.function_type, self.llmod.get_unique_name(f"{self.name}.steps"))
            self._entry.b.call(fn, list(self._entry.fn.args))
            self._frame = _Frame(fn)
            for step in steps[first:first + STEPS_PER_FUNCTION]:
                self._emit(step)
            self._frame.close()
        self._frame = self._entry

    def _emit(self, step) -> None:
        if isinstance(step, LoopKernel):
            assert step.function is not None, "an emitted kernel has its function"
            if self.clock is None:
                self.call(step, step.function)
                return
            started = self.clock.start(self.b)
            self.call(step, step.function)
            self.clock.stop(self.b, started, step)
        else:
            step.emit(self)

    def pointer(self, buf: ArrayStorage) -> ir.Value:
        """The address of a buffer, computed once per function in a block that dominates its
        whole body (so a pointer first needed in one branch of a conditional is valid in the
        others)."""
        frame = self._frame
        if buf in frame.pointers:
            return frame.pointers[buf]
        b = frame.addresses
        nparams = len(self.layout.params)
        if buf.kind in ("param", "output"):
            slot = buf.slot + (nparams if buf.kind == "output" else 0)
            table = b.gep(frame.fn.args[0], [I64(slot)], inbounds=True, source_etype=PTR)
            ptr = b.load(table, typ=PTR, name=f"{buf.kind}{buf.slot}")
        elif buf.kind == "constant":
            ptr = self.constants.global_for(self.entry.name, self.entry[buf.value])
        else:
            ptr = b.gep(frame.fn.args[1], [I64(buf.slot)], inbounds=True, source_etype=I8, name=f"temp.{buf.value}")
        frame.pointers[buf] = ptr
        return ptr

    def alloca(self, ty: ir.Type, name: str) -> ir.Value:
        return ir.IRBuilder(self._frame.slots).alloca(ty, name=name)

    def call(self, kernel: LoopKernel, fn: ir.Function) -> None:
        pointers = [self.pointer(buf) for buf in kernel.buffers]
        if kernel.partitions > 1:
            bounds = partition_bounds(kernel.extent, kernel.partitions, kernel.granule)
            emit_parallel_call(self.b, self.alloca, self.parallel, fn, pointers, bounds, self.thread_pool)
        else:
            self.b.call(fn, pointers + [I64(0), I64(kernel.extent)])

    def finish(self) -> ir.Function:
        """Copy the results no kernel wrote, and return. memmove, not memcpy: a loop body's
        result can be its own parameter (a state leaf it passes through), same address."""
        memmove = self.llmod.globals.get("llvm.memmove.p0.p0.i64") or ir.Function(
            self.llmod, ir.FunctionType(VOID, [PTR, PTR, I64, I1]), "llvm.memmove.p0.p0.i64")
        for src, dst in self.layout.output_copies:
            if src.size:
                self.b.call(memmove, [self.pointer(dst), self.pointer(src), I64(src.size), I1(0)])
        self._entry.close()
        return self._entry.fn
