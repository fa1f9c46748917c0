"""One LLVM IR kernel, four targets: x86-64, AArch64, NVPTX and AMDGPU assembly side by side.

LLVM IR is (nearly) target-neutral: the same function, given a triple and a data layout,
goes through each target's backend. The kernel compared here is the target-neutral form
(a plain loop function over [begin, end), the CPU backend's kernel for the same HLO
instruction): the GPU kernels themselves call NVPTX-only intrinsics (thread indices,
barriers, shuffles) that no other backend knows.

    target    triple                       cpu          what stands out
    x86-64    x86_64-unknown-linux-gnu     x86-64-v3    ymm registers, vmulps/vfmadd (AVX2), one
                                                        flat address space
    aarch64   aarch64-unknown-linux-gnu    neoverse-n1  NEON v0.4s registers, ldr/str/fmla, one
                                                        flat address space
    nvptx     nvptx64-nvidia-cuda          sm_80        a virtual ISA with unlimited typed
                                                        registers (%r, %rd), explicit state
                                                        spaces (.param, .global, .shared, generic
                                                        ld/st); a plain function is a `.func`,
                                                        only `ptx_kernel` functions are `.entry`
    amdgpu    amdgcn-amd-amdhsa            gfx90a       scalar (s_) and vector (v_) registers:
                                                        one instruction runs for a whole wavefront;
                                                        flat/global/LDS address spaces

See docs/gpu.md for a walk through the differences.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import HloscopeError
from . import codegen


@dataclass(frozen=True)
class AssemblyTarget:
    """One of the four targets LLVM compiles the same kernel for (not a compile target:
    hloscope.compilation.Target is what a back end gives the compile driver)."""

    name: str
    triple: str
    cpu: str
    marker: str  # a string only this target's assembly contains (the tests check it)


TARGETS = {
    "x86-64": AssemblyTarget("x86-64", "x86_64-unknown-linux-gnu", "x86-64-v3", "%rdi"),
    "aarch64": AssemblyTarget("aarch64", "aarch64-unknown-linux-gnu", "neoverse-n1", "[x0"),
    "nvptx": AssemblyTarget("nvptx", "nvptx64-nvidia-cuda", "sm_80", ".address_size 64"),
    "amdgpu": AssemblyTarget("amdgpu", "amdgcn-amd-amdhsa", "gfx90a", ".amdgcn_target"),
}
ALIASES = {"x86": "x86-64", "x86_64": "x86-64", "arm64": "aarch64", "ptx": "nvptx", "cuda": "nvptx",
           "amdgcn": "amdgpu", "rocm": "amdgpu"}


def target(name: str) -> AssemblyTarget:
    """The assembly target called `name` (or one of its aliases: x86, arm64, ptx, cuda, rocm, ...)."""
    key = ALIASES.get(name.lower(), name.lower())
    if key not in TARGETS:
        raise HloscopeError(f"unknown target {name!r}; choose one of {sorted(TARGETS)}")
    return TARGETS[key]


def assembly(llvm_ir: str, name: str, opt_level: int = 3, cpu: str | None = None) -> str:
    """`llvm_ir` optimized and compiled for target `name` ("x86-64", "aarch64", "nvptx", "amdgpu")."""
    t = target(name)
    tm = codegen.target_machine(t.triple, cpu or t.cpu, opt_level)
    return tm.emit_assembly(codegen.optimize(llvm_ir, tm, opt_level))


def all_assembly(llvm_ir: str, opt_level: int = 3) -> dict[str, str]:
    """{target name: assembly} for the four targets."""
    return {name: assembly(llvm_ir, name, opt_level) for name in TARGETS}
