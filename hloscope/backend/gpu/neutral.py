"""The target-neutral form of one kernel: the CPU backend's loop function for an instruction.

    void @kernel(ptr %buffer0, ..., i64 %begin, i64 %end)    // a loop over [begin, end)

It computes the same values from the same elemental emitter as the GPU kernel, but where
the GPU kernel asks "which thread am I?" (%tid.x, %ctaid.x) and strides by the grid, this
one simply loops. Without NVPTX intrinsics it compiles for every LLVM target, which is
what targets.py compares. Dots use the loop nest (never BLAS calls), and reductions are
never split into chunks, so the function stands alone.
"""

from __future__ import annotations

from llvmlite import ir

from ...ir.module import HloModule
from ..buffers import assign_buffers
from ..kernel_spec import ModuleContext
from ..cpu.lowering import lower_instruction
from ..emit_context import ConstantPool, EmitOptions


def neutral_ir(module: HloModule, instruction: str, plan=None, emit: EmitOptions | None = None) -> str:
    """LLVM IR (no triple, no data layout) of the CPU kernel(s) computing `instruction`."""
    home = _home(module, instruction)
    layout = assign_buffers(home, plan if home is module.entry_computation else None)
    llmod = ir.Module(name=f"{module.name}.{instruction}")
    base = emit or EmitOptions()
    options = EmitOptions(base.fast_math, base.reassociate_reductions, "loops")
    mc = ModuleContext(llmod, module, options, ConstantPool(llmod))
    mc.parallel_min_elements = 1 << 62  # never split a reduction into chunks
    lower_instruction(mc, home[instruction], home, layout)
    return str(llmod)


def _home(module: HloModule, instruction: str):
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
