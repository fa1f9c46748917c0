"""From LLVM IR to PTX with llvmlite's NVPTX target (no CUDA toolkit, no GPU needed).

    optimize   parse, verify, run LLVM's -O pipeline for the NVPTX target machine (this is
               where InferAddressSpaces turns generic loads into ld.global / ld.shared and
               the math approximations are inlined)
    ptx        the NVPTX backend's assembly: PTX text, one `.entry` per kernel

PTX is NVIDIA's virtual ISA; `ptxas` (ptxas.py) or the driver at load time turns it into
machine code (SASS) for one GPU. PTX made for sm_80 also loads on any later GPU.
"""

from __future__ import annotations

import re
from functools import lru_cache

import llvmlite.binding as llvm
from llvmlite import ir

from ...errors import HloscopeError
from .nvptx import TRIPLE

DEFAULT_SM = "sm_80"
_SM = re.compile(r"^sm_(\d{2,3})[af]?$")


def check_sm(sm: str) -> str:
    """`sm` if it names a GPU architecture LLVM's NVPTX target knows (sm_50 .. sm_121a)."""
    m = _SM.match(sm or "")
    if not m or not 50 <= int(m.group(1)) <= 121:
        raise HloscopeError(f"sm must name an NVIDIA GPU architecture like 'sm_80' or 'sm_90', not {sm!r}")
    return sm


@lru_cache(maxsize=1)
def initialize() -> None:
    """Once per process: every target llvmlite was built with (NVPTX, AMDGPU, AArch64, X86)."""
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()


def target_machine(triple: str, cpu: str, opt_level: int = 3, features: str = "") -> llvm.TargetMachine:
    initialize()
    return llvm.Target.from_triple(triple).create_target_machine(cpu=cpu, features=features, opt=min(opt_level, 3))


def optimize(ir_text: str, tm: llvm.TargetMachine, opt_level: int) -> llvm.ModuleRef:
    """Parse and verify `ir_text` and run the standard -O<opt_level> pipeline for `tm`."""
    mod = llvm.parse_assembly(ir_text)
    mod.verify()
    mod.triple = tm.triple
    mod.data_layout = str(tm.target_data)
    pto = llvm.create_pipeline_tuning_options(speed_level=opt_level)
    pto.loop_vectorization = opt_level >= 2
    pto.slp_vectorization = opt_level >= 2
    pb = llvm.create_pass_builder(tm, pto)
    pb.getModulePassManager().run(mod, pb)
    mod.verify()
    return mod


def ptx(ir_text: str, sm: str = DEFAULT_SM, opt_level: int = 3) -> tuple[llvm.ModuleRef, str]:
    """(the optimized module, its PTX text) for GPU architecture `sm`."""
    tm = target_machine(TRIPLE, check_sm(sm), opt_level)
    mod = optimize(ir_text, tm, opt_level)
    return mod, tm.emit_assembly(mod)


def function_text(mod: llvm.ModuleRef, name: str) -> str:
    """One function of a (parsed) module as LLVM IR text."""
    try:
        return str(mod.get_function(name))
    except NameError:
        return ""


def type_bytes(ty: ir.Type) -> int:
    """Bytes of one value of a first-class LLVM type in memory (i1 takes a byte)."""
    if isinstance(ty, ir.IntType):
        return max(1, ty.width // 8)
    if isinstance(ty, ir.ArrayType):
        return ty.count * type_bytes(ty.element)
    return {"half": 2, "float": 4, "double": 8}.get(str(ty), 8)
