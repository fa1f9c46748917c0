"""What a kernel computes and what it is called, for every target.

    KernelSpec      the computation a kernel evaluates, its input and output buffers
    parameter_number  a verified parameter's number
    ModuleContext   what all kernels of one LLVM module share (names, constants, options)
    llvm_name       a readable LLVM symbol for an HLO name
    location        where a buffer is: two buffers at one location are one pointer argument
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from llvmlite import ir

from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.module import HloModule
from .buffers import ArrayStorage
from .emit_context import ConstantPool, EmitContext, EmitOptions


@dataclass
class KernelSpec:
    """What to compute: the root of `comp`, reading `inputs[i]` for parameter i and
    writing root leaf k to `outputs[k]`."""

    name: str
    instruction: str
    comp: Computation
    inputs: list[ArrayStorage]
    outputs: list[ArrayStorage]

    def input_of(self, parameter: Instruction) -> ArrayStorage:
        """The input buffer a parameter of `comp` reads."""
        return self.inputs[parameter_number(parameter)]


def parameter_number(parameter: Instruction) -> int:
    """A parameter's number (a module is verified before a backend sees it, so it has one)."""
    assert parameter.parameter_number is not None, f"parameter {parameter.name} has no number"
    return parameter.parameter_number


@dataclass
class ModuleContext:
    """State shared by all kernels of one LLVM module, for the target named `target` (what
    error messages say: "cpu", "gpu")."""

    llmod: ir.Module
    hlo: HloModule
    options: EmitOptions
    constants: ConstantPool
    target: str
    names: set[str] = field(default_factory=set, kw_only=True)  # function names taken

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
        return EmitContext(builder, self.llmod, self.hlo, self.options, self.constants, self.target)


def llvm_name(text: str) -> str:
    """A readable LLVM symbol for an HLO name (`multiply_add_fusion.1` stays as it is)."""
    return re.sub(r"[^A-Za-z0-9_.]", "_", text)


def location(buf: ArrayStorage) -> tuple:
    """Where a buffer is: an in-place result has the same location as the operand it
    overwrites, so both are one pointer argument. (Two pointers that are equal but not
    `noalias` would make LLVM guard the vector loop with an overlap check that fails.)"""
    return (buf.kind, buf.slot) if buf.kind == "arena" else (buf.kind, buf.slot, buf.value)


def distinct_buffers(buffers: list[ArrayStorage]) -> list[ArrayStorage]:
    """Each location once (a parameter passed twice to a fusion is one pointer)."""
    out: list[ArrayStorage] = []
    seen: set = set()
    for b in buffers:
        if location(b) not in seen:
            seen.add(location(b))
            out.append(b)
    return out
