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
from ..llvm_types import I1, I8, I64, PTR, VOID
from ..buffers import Buffer, BufferLayout
from ..loop_function import LoopKernel
from .parallel import ParallelSupport, emit_parallel_call, partition_bounds


class EntryEmitter:
    """Builds the entry function of one LLVM module."""

    def __init__(self, llmod: ir.Module, name: str, entry: Computation, layout: BufferLayout,
                 constants: ConstantPool, thread_pool: bool = True):
        self.thread_pool = thread_pool
        self.llmod = llmod
        self.entry = entry
        self.layout = layout
        self.constants = constants
        self.fn = ir.Function(llmod, ir.FunctionType(VOID, [PTR, PTR]), name)
        self.fn.args[0].name, self.fn.args[1].name = "buffers", "arena"
        self.fn.args[1].attributes.align = 64
        self.slots = self.fn.append_basic_block("entry")  # stack slots only
        self.addresses = ir.IRBuilder(self.fn.append_basic_block("buffers"))  # every buffer's address
        self.b = ir.IRBuilder(self.fn.append_basic_block("body"))
        self.parallel = ParallelSupport(llmod)
        self._pointers: dict[Buffer, ir.Value] = {}

    def pointer(self, buf: Buffer) -> ir.Value:
        """The address of a buffer, computed once in a block that dominates the whole body
        (so a pointer first needed in one branch of a conditional is valid in the others)."""
        if buf in self._pointers:
            return self._pointers[buf]
        b = self.addresses
        nparams = len(self.layout.params)
        if buf.kind in ("param", "output"):
            slot = buf.slot + (nparams if buf.kind == "output" else 0)
            table = b.gep(self.fn.args[0], [I64(slot)], inbounds=True, source_etype=PTR)
            ptr = b.load(table, typ=PTR, name=f"{buf.kind}{buf.slot}")
        elif buf.kind == "constant":
            ptr = self.constants.global_for(self.entry.name, self.entry[buf.value])
        else:
            ptr = b.gep(self.fn.args[1], [I64(buf.slot)], inbounds=True, source_etype=I8, name=f"temp.{buf.value}")
        self._pointers[buf] = ptr
        return ptr

    def alloca(self, ty: ir.Type, name: str) -> ir.Value:
        return ir.IRBuilder(self.slots).alloca(ty, name=name)

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
        self.b.ret_void()
        ir.IRBuilder(self.slots).branch(self.addresses.block)
        self.addresses.branch(self.fn.blocks[2])
        return self.fn
