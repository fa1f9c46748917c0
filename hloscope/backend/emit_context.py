"""What every emitter needs while building one LLVM function: builder, modules and options."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from llvmlite import ir

from ..ir.instruction import Instruction
from ..ir.module import HloModule
from .llvm_types import I8, internal_global
from .scalar_ops import ScalarContext


@dataclass
class EmitOptions:
    """Code generation choices that change the IR (and so the compile cache key)."""

    fast_math: bool = False  # `fast` flags on all float arithmetic (no NaN/inf guarantees)
    reassociate_reductions: bool = True  # `reassoc` on reduction accumulation: vectorizable sums
    dot: str = "blas"  # "blas" (sgemm_/dgemm_ through scipy) or "loops" (tiled loop nest)
    library: bool = True  # CPU: call the precompiled library's kernels where one fits (cpu/library/)


class ConstantPool:
    """Array constants as internal, 64-byte aligned LLVM globals, one per HLO constant."""

    def __init__(self, llmod: ir.Module):
        self.llmod = llmod
        self._globals: dict[tuple[str, str], ir.GlobalVariable] = {}

    def global_for(self, computation: str, inst: Instruction) -> ir.GlobalVariable:
        key = (computation, inst.name)
        g = self._globals.get(key)
        if g is None:
            assert inst.literal is not None, f"constant {inst.name} has no literal (the module was verified)"
            data = np.ascontiguousarray(inst.literal.value).tobytes()
            ty = ir.ArrayType(I8, max(1, len(data)))
            name = f"constant.{len(self._globals)}.{inst.name}"
            g = internal_global(self.llmod, ty, name, ir.Constant(ty, bytearray(data or b"\0")), align=64)
            g.global_constant = True
            self._globals[key] = g
        return g


@dataclass
class EmitContext:
    """The builder positioned inside some kernel, plus module-wide state; `target` is the
    target's name, as error messages say it ("cpu", "gpu")."""

    b: ir.IRBuilder
    llmod: ir.Module
    hlo: HloModule
    options: EmitOptions
    constants: ConstantPool
    target: str
    scalar: ScalarContext = field(init=False)

    def __post_init__(self):
        self.scalar = ScalarContext(self.b, self.llmod, self.target, self.options.fast_math)

    @property
    def reduction_flags(self) -> tuple[str, ...]:
        if self.options.fast_math:
            return ("fast",)
        return ("reassoc", "nsz") if self.options.reassociate_reductions else ()

    def alloca(self, ty: ir.Type, name: str = "acc") -> ir.Value:
        """A stack slot in the function's entry block (where mem2reg turns it into registers).

        Kernels keep their entry block for stack slots only and branch from it to the body
        when they are finished, so appending here never disturbs the main builder.
        """
        return ir.IRBuilder(self.b.function.entry_basic_block).alloca(ty, name=name)
