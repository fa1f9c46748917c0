"""One LLVM IR kernel as x86-64, AArch64, NVPTX or AMDGPU assembly (see backend/gpu/targets.py).

    from hloscope.backend.targets import assembly
    print(assembly(exe.report.neutral_ir(), "aarch64"))
"""

from .gpu.targets import TARGETS, all_assembly, assembly, target

__all__ = ["TARGETS", "all_assembly", "assembly", "target"]
