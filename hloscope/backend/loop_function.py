"""A plain loop function: the kernel form of the CPU, and of any kernel in target-neutral form.

Every such kernel has the same shape of signature (XLA's host-kernel ABI, simplified):

    void @name(ptr noalias align 64 dereferenceable(N) %buffer0, ..., i64 %begin, i64 %end)

One pointer per distinct buffer it reads or writes, then the half-open range of its
outermost (partitioned) loop, so one kernel can run as several partitions on several
threads. `noalias` is what lets LLVM vectorize without runtime overlap checks; it is left
off where the memory plan made two of the buffers share memory (an in-place update).
Nothing in it is specific to a machine: no intrinsics, no address spaces.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from llvmlite import ir

from .buffers import ArrayStorage
from .kernel_spec import KernelSpec, distinct_buffers, llvm_name, location
from .llvm_types import I64, PTR, VOID


@dataclass
class LoopKernel:
    """An emitted plain loop kernel: its function, its buffers in argument order, and how it may split."""

    name: str
    instruction: str
    kind: str  # loop, reduce, dot-blas, dot-loops, ...
    buffers: list[ArrayStorage]
    extent: int = 1  # trip count of the partitionable outer loop
    granule: int = 1  # partition boundaries are multiples of this (vector alignment)
    step: int = 1  # every [begin, end) it is called with must be multiples of this (the extent's end aside)
    work: int = 0  # elements touched, for the parallel cost rule
    partitions: int = 1  # how many calls split [0, extent) (the CPU decides: cpu/parallel.py)
    notes: list[str] = field(default_factory=list)
    function: ir.Function | None = None  # the LLVM function
    spec: KernelSpec | None = None  # what it computes, when it is the whole of one spec (CPU row chains read it)


class LoopFunction:
    """Declares the kernel function and maps buffers to its pointer arguments."""

    def __init__(self, llmod: ir.Module, name: str, buffers: list[ArrayStorage], writes: set[ArrayStorage]):
        self.buffers = distinct_buffers(buffers)
        fnty = ir.FunctionType(VOID, [PTR] * len(self.buffers) + [I64, I64])
        self.fn = ir.Function(llmod, fnty, llvm_name(name))
        self.fn.attributes.add("nounwind")
        # Kept a call, as XLA:CPU's kernels are: inlined into the entry it would be optimized
        # and compiled twice (it stays defined for the thread pool), ~35% of LLVM's time.
        self.fn.attributes.add("noinline")
        for arg, buf in zip(self.fn.args, self.buffers):
            arg.name = llvm_name(buf.value)
            if not any(o != buf and o.overlaps(buf) and (o in writes or buf in writes) for o in self.buffers):
                arg.add_attribute("noalias")
            arg.attributes.align = buf.align
            if buf.size:
                arg.attributes.dereferenceable = buf.size
        # Some buffer it writes is also one it reads (an in-place update): then a loop may not
        # recompute elements after storing some (backend/huge_trig_loop.py).
        reads = [b for b in buffers if b not in writes]
        self.in_place = any(location(r) == location(w) or r.overlaps(w) for r in reads for w in writes)
        self.begin, self.end = self.fn.args[-2], self.fn.args[-1]
        self.begin.name, self.end.name = "begin", "end"
        # Makes `<kernel>.exact` (root, shape, outputs) -> function, where the kernel's maker
        # can: the exact sin/cos/tan loop as a function of its own (backend/huge_trig_loop.py).
        self.exact_loop: Callable[[str, Any, list[ArrayStorage]], ir.Function] | None = None
        self.slots = self.fn.append_basic_block("entry")  # stack slots only (EmitContext.alloca)
        self.builder = ir.IRBuilder(self.fn.append_basic_block("body"))

    def pointer(self, buf: ArrayStorage) -> ir.Value:
        keys = [location(b) for b in self.buffers]
        return self.fn.args[keys.index(location(buf))]

    def finish(self):
        self.builder.ret_void()
        ir.IRBuilder(self.slots).branch(self.fn.blocks[1])
