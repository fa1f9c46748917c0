"""The target-neutral form of one kernel: a plain loop function for an instruction.

    void @kernel(ptr %buffer0, ..., i64 %begin, i64 %end)    // a loop over [begin, end)

It computes the same values from the same elemental emitter as the GPU kernel, but where
the GPU kernel asks "which thread am I?" (%tid.x, %ctaid.x) and strides by the grid, this
one simply loops: the shared dispatch with plain-loop kernel choices (backend/plain_loops.py),
one loop per output element, reductions and dots as elemental inner loops, a sort as a rank
sort. Without NVPTX intrinsics it compiles for every LLVM target, which is what targets.py
compares.
"""

from __future__ import annotations

from llvmlite import ir

from ...ir.computation import Computation
from ...ir.module import HloModule
from ...memory import MemoryPlan
from ..buffers import assign_buffers
from ..dispatch import lower_instruction
from ..emit_context import ConstantPool, EmitOptions
from ..kernel_spec import ModuleContext
from ..plain_loops import PlainLoops

NAME = "gpu"  # what a message says: the kernel whose neutral form was asked for is the GPU's


def neutral_ir(module: HloModule, instruction: str, plan: MemoryPlan | None = None,
               emit: EmitOptions | None = None) -> str:
    """LLVM IR (no triple, no data layout) of the plain loop function(s) computing `instruction`."""
    home = _home(module, instruction)
    layout = assign_buffers(home, plan if home is module.entry_computation else None)
    llmod = ir.Module(name=f"{module.name}.{instruction}")
    mc = ModuleContext(llmod, module, emit or EmitOptions(), ConstantPool(llmod), NAME)
    lower_instruction(PlainLoops(mc), home[instruction], home, layout)
    return str(llmod)


def _home(module: HloModule, instruction: str) -> Computation:
    """The computation whose kernel computes `instruction`: the entry, or a loop's condition
    or body or a branch (whose kernels the host runs too)."""
    if instruction in module.entry_computation:
        return module.entry_computation
    for _, inst in module.all_instructions():
        if inst.opcode in ("while", "conditional"):
            for name in inst.called_computations():
                if instruction in module.computation(name):
                    return module.computation(name)
    raise KeyError(f"no kernel computes {instruction!r}")
