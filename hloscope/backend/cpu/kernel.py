"""A kernel's LLVM function and what the entry function needs to call it.

Every kernel has the same shape of signature (XLA's host-kernel ABI, simplified):

    void @name(ptr noalias align 64 dereferenceable(N) %buffer0, ..., i64 %begin, i64 %end)

One pointer per distinct buffer it reads or writes, then the half-open range of its
outermost (partitioned) loop, so one kernel can run as several partitions on several
threads. `noalias` is what lets LLVM vectorize without runtime overlap checks; it is left
off where the memory plan made two of the buffers share memory (an in-place update).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from llvmlite import ir

from ...ir.computation import Computation
from ...ir.module import HloModule
from ..emit_context import ConstantPool, EmitContext, EmitOptions
from ..llvm_types import I64, PTR, VOID
from .buffers import Buffer


@dataclass
class ModuleContext:
    """State shared by all kernels of one LLVM module."""

    llmod: ir.Module
    hlo: HloModule
    options: EmitOptions
    constants: ConstantPool
    parallel_min_elements: int = 256 * 1024
    names: set = field(default_factory=set)

    def unique_name(self, text: str) -> str:
        """An LLVM symbol for `text` that no function of the module has yet: instruction names
        need only be unique within their computation, and two branches may both have `ROOT d`."""
        base = llvm_name(text)
        name, n = base, 1
        while name in self.names or name in self.llmod.globals:
            name, n = f"{base}.{n}", n + 1
        self.names.add(name)
        return name

    def emit_context(self, builder: ir.IRBuilder) -> EmitContext:
        return EmitContext(builder, self.llmod, self.hlo, self.options, self.constants)


@dataclass
class KernelSpec:
    """What to compute: the root of `comp`, reading `inputs[i]` for parameter i and
    writing root leaf k to `outputs[k]`."""

    name: str
    instruction: str
    comp: Computation
    inputs: list[Buffer]
    outputs: list[Buffer]


@dataclass
class Kernel:
    """An emitted kernel: its function, its buffers in argument order, and how it may split."""

    name: str
    instruction: str
    kind: str  # loop, reduce, dot-blas, dot-loops, ...
    buffers: list[Buffer]
    extent: int = 1  # trip count of the partitionable outer loop
    granule: int = 1  # partition boundaries are multiples of this (vector alignment)
    work: int = 0  # elements touched, for the parallel cost rule
    partitions: int = 1  # decided later by parallel.py
    notes: list[str] = field(default_factory=list)
    function: ir.Function | None = None  # the LLVM function


def llvm_name(text: str) -> str:
    """A readable LLVM symbol for an HLO name (`multiply_add_fusion.1` stays as it is)."""
    return re.sub(r"[^A-Za-z0-9_.]", "_", text)


class KernelFunction:
    """Declares the kernel function and maps buffers to its pointer arguments."""

    def __init__(self, llmod: ir.Module, name: str, buffers: list[Buffer], writes: set[Buffer]):
        self.buffers = _distinct(buffers)
        fnty = ir.FunctionType(VOID, [PTR] * len(self.buffers) + [I64, I64])
        self.fn = ir.Function(llmod, fnty, llvm_name(name))
        self.fn.attributes.add("nounwind")
        for arg, buf in zip(self.fn.args, self.buffers):
            arg.name = llvm_name(buf.value)
            if not any(o != buf and o.overlaps(buf) and (o in writes or buf in writes) for o in self.buffers):
                arg.add_attribute("noalias")
            arg.attributes.align = buf.align
            if buf.size:
                arg.attributes.dereferenceable = buf.size
        self.begin, self.end = self.fn.args[-2], self.fn.args[-1]
        self.begin.name, self.end.name = "begin", "end"
        self.slots = self.fn.append_basic_block("entry")  # stack slots only (EmitContext.alloca)
        self.builder = ir.IRBuilder(self.fn.append_basic_block("body"))

    def pointer(self, buf: Buffer) -> ir.Value:
        keys = [location(b) for b in self.buffers]
        return self.fn.args[keys.index(location(buf))]

    def finish(self):
        self.builder.ret_void()
        ir.IRBuilder(self.slots).branch(self.fn.blocks[1])


def location(buf: Buffer) -> tuple:
    """Where a buffer is: an in-place result has the same location as the operand it
    overwrites, so both are one pointer argument. (Two pointers that are equal but not
    `noalias` would make LLVM guard the vector loop with an overlap check that fails.)"""
    return (buf.kind, buf.slot) if buf.kind == "arena" else (buf.kind, buf.slot, buf.value)


def _distinct(buffers: list[Buffer]) -> list[Buffer]:
    """Each location once (a parameter passed twice to a fusion is one pointer)."""
    out: list[Buffer] = []
    seen: set = set()
    for b in buffers:
        if location(b) not in seen:
            seen.add(location(b))
            out.append(b)
    return out
