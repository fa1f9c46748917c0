"""The GPU compile report: the CPU report's fields plus PTX, launches and ptxas's reading.

    report.ptx                 the whole module's PTX (one `.entry` per kernel)
    report.assembly            the same PTX (what `assembly` means for this backend)
    report.sm                  the architecture it targets (sm_80 unless chosen)
    report.kernels             one GpuKernelInfo per kernel, in launch order:
        .kind                    loop, reduce-loop, row-reduce, column-reduce, sort-bitonic or dot-tiled
        .grid, .block            the launch dimensions, .shared_bytes static shared memory
        .llvm_ir                 the kernel's LLVM IR as emitted (.optimized_llvm_ir after -O)
        .ptxas                   KernelUsage (registers, shared memory, spills) or None
    report.program             what the host runs, as a listing: launches, device copies, and
                               while / conditional steps whose predicate it reads back
    report.ptxas               PtxasResult: found on PATH?, accepted?, the log
    report.ptxas_note          one line: the verdict, or "ptxas not found on PATH: ..."
    report.asm(target)         one kernel in its target-neutral form as x86-64, AArch64,
                               NVPTX or AMDGPU assembly (hloscope.backend.gpu.targets)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .report import CompileReport, KernelInfo


@dataclass(frozen=True)
class GpuKernelInfo(KernelInfo):
    """A GPU kernel as the report shows it (partitions is 1: the grid is the parallelism)."""

    grid: tuple = (1, 1, 1)
    block: tuple = (1, 1, 1)
    shared_bytes: int = 0
    llvm_ir: str = field(default="", repr=False)
    optimized_llvm_ir: str = field(default="", repr=False)
    ptxas: object = None  # ptxas.KernelUsage when ptxas ran

    @property
    def launch(self) -> str:
        g, b = self.grid, self.block
        return f"<<<({g[0]}, {g[1]}, {g[2]}), ({b[0]}, {b[1]}, {b[2]}), {self.shared_bytes} B>>>"


@dataclass
class GpuCompileReport(CompileReport):
    backend: str = "gpu"
    sm: str = "sm_80"
    ptx: str = ""
    program: str = ""  # runtime.gpu_program.DeviceProgram.describe()
    ptxas: object = None  # ptxas.PtxasResult
    _neutral: object = field(default=None, repr=False)  # callable: instruction -> target-neutral LLVM IR

    @property
    def assembly(self) -> str:
        return self.ptx

    @property
    def ptxas_note(self) -> str:
        return self.ptxas.note if self.ptxas is not None else "ptxas was not run (ptxas=False)"

    def kernel(self, name: str) -> GpuKernelInfo:
        """The kernel called `name` (its PTX name) or computing HLO instruction `name`."""
        for k in self.kernels:
            if name in (k.name, k.instruction):
                return k
        raise KeyError(f"no kernel {name!r}; kernels: {[k.name for k in self.kernels]}")

    def neutral_ir(self, kernel: str | None = None) -> str:
        """The LLVM IR of `kernel` (default: the first) as a plain loop function with no GPU
        intrinsics: the CPU backend's kernel for the same HLO instruction."""
        name = self.kernel(kernel).instruction if kernel else self.kernels[0].instruction
        return self._neutral(name)

    def asm(self, target: str = "nvptx", kernel: str | None = None) -> str:
        """`kernel` (default: the first) in target-neutral form, compiled for `target`:
        "x86-64", "aarch64", "nvptx" or "amdgpu" (see hloscope.backend.gpu.targets)."""
        from ..backend.gpu.targets import assembly

        return assembly(self.neutral_ir(kernel), target)

    def summary(self) -> str:
        lines = [f"hloscope gpu compile for {self.sm}, {self.total_seconds * 1e3:.1f} ms"]
        lines += [f"  {s.name:<10} {s.seconds * 1e3:8.2f} ms  {s.note}" for s in self.stages]
        lines.append(f"  {len(self.kernels)} kernels, device arena {self.arena_bytes} B, PTX {len(self.ptx)} chars")
        lines.append(f"  {self.ptxas_note.splitlines()[0] if self.ptxas_note else ''}")
        for k in self.kernels:
            usage = f"  [{k.ptxas.describe()}]" if k.ptxas is not None else ""
            lines.append(f"    {k.name:<32} {k.kind:<11} {k.launch}{usage}")
        if any(not line.startswith("launch ") for line in self.program.splitlines()):
            lines.append("  host program (loops and branches read their predicate back):")
            lines += [f"    {line}" for line in self.program.splitlines()]
        return "\n".join(lines)
