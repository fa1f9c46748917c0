"""`ptxas`: NVIDIA's PTX assembler, as a verdict on the PTX and a reading of each kernel's cost.

    ptxas -arch=sm_80 -v kernels.ptx -o kernels.cubin

accepts or rejects the PTX, and with -v reports per kernel what the hardware will spend:

    ptxas info    : Compiling entry function 'softmax' for 'sm_80'
    ptxas info    : Function properties for softmax
        0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
    ptxas info    : Used 18 registers, used 1 barriers, 1024 bytes smem, 368 bytes cmem[0]

Registers per thread and shared memory per block decide how many blocks fit on one SM at
once (occupancy); spill stores/loads mean registers ran out and values went to (slow) local
memory. ptxas ships with the CUDA toolkit (or the nvidia-cuda-nvcc wheel: cuda_tools.py), not
with hloscope: without it the PTX is still generated, and the report says it was not assembled.
The cubin ptxas writes is kept, and disassembled to SASS when cuobjdump or nvdisasm is found
(sass.py).
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from .cuda_tools import find_tool
from .sass import Sass, disassemble

NOT_FOUND = "ptxas not found (on PATH or in the nvidia-cuda-nvcc wheel): PTX was generated but not assembled"


@dataclass(frozen=True)
class KernelUsage:
    """What ptxas says one kernel uses, per thread (registers) and per block (shared)."""

    registers: int = 0
    shared_bytes: int = 0
    spill_stores: int = 0
    spill_loads: int = 0
    stack_bytes: int = 0
    barriers: int = 0

    def describe(self) -> str:
        text = f"{self.registers} registers, {self.shared_bytes} B smem"
        if self.spill_stores or self.spill_loads:
            text += f", spills {self.spill_stores} B stored / {self.spill_loads} B loaded"
        return text


@dataclass
class PtxasResult:
    """ptxas's verdict: `available` (found on PATH), `ok` (accepted), its log and usage."""

    available: bool
    ok: bool = False
    arch: str = ""
    log: str = ""
    usage: dict[str, KernelUsage] = field(default_factory=dict)
    version: str = ""
    cubin: bytes = field(default=b"", repr=False)  # ptxas's output, the code a GPU loads
    disassembly: Sass = field(default_factory=Sass, repr=False)

    @property
    def sass(self) -> str:
        """The whole cubin's SASS ("" when no disassembler was found)."""
        return self.disassembly.text

    @property
    def sass_note(self) -> str:
        return self.disassembly.note if self.cubin else "no cubin: ptxas did not assemble the PTX"

    def sass_of(self, kernel: str) -> str:
        """One kernel's SASS, or a sentence saying why there is none."""
        return self.disassembly.kernels.get(kernel, "") or self.sass_note

    @property
    def note(self) -> str:
        if not self.available:
            return NOT_FOUND
        if self.ok:
            return f"ptxas -arch={self.arch}: accepted ({len(self.usage)} kernels)"
        return f"ptxas -arch={self.arch}: REJECTED: {self.log.strip()[:500]}"


def find() -> str | None:
    return find_tool("ptxas")


def assemble(ptx: str, arch: str, timeout: float = 120.0) -> PtxasResult:
    """Run ptxas on `ptx` for `arch` (e.g. sm_80); never raises for a missing or failing ptxas."""
    exe = find()
    if exe is None:
        return PtxasResult(available=False, arch=arch)
    with tempfile.TemporaryDirectory(prefix="hloscope-ptxas-") as d:
        src = Path(d) / "kernels.ptx"
        src.write_text(ptx)
        cmd = [exe, f"-arch={arch}", "-v", str(src), "-o", str(Path(d) / "kernels.cubin")]
        try:
            run = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        except (OSError, subprocess.TimeoutExpired) as e:
            return PtxasResult(available=True, ok=False, arch=arch, log=f"could not run ptxas: {e}")
        out = Path(d) / "kernels.cubin"
        cubin = out.read_bytes() if run.returncode == 0 and out.exists() else b""
    log = (run.stdout + run.stderr).replace(str(src), "kernels.ptx")
    if run.returncode != 0:
        return PtxasResult(True, False, arch, log)
    return PtxasResult(True, True, arch, log, parse_usage(log), cubin=cubin, disassembly=disassemble(cubin))


_ENTRY = re.compile(r"(?:Compiling entry function|Function properties for) '?([\w.$]+)'?")
_NUMBERS = {
    "registers": re.compile(r"Used (\d+) registers"),
    "shared_bytes": re.compile(r"(\d+) bytes smem"),
    "spill_stores": re.compile(r"(\d+) bytes spill stores"),
    "spill_loads": re.compile(r"(\d+) bytes spill loads"),
    "stack_bytes": re.compile(r"(\d+) bytes stack frame"),
    "barriers": re.compile(r"used (\d+) barriers"),
}


def parse_usage(log: str) -> dict[str, KernelUsage]:
    """{kernel: KernelUsage} from `ptxas -v` output (lines follow the kernel they describe)."""
    found: dict[str, dict] = {}
    current = None
    for line in log.splitlines():
        m = _ENTRY.search(line)
        if m:
            current = m.group(1)
            found.setdefault(current, {})
            continue
        if current is None:
            continue
        for key, pattern in _NUMBERS.items():
            n = pattern.search(line)
            if n:
                found[current][key] = int(n.group(1))
    return {name: KernelUsage(**values) for name, values in found.items()}


def version() -> str:
    """ptxas's version line, or "" if it is missing."""
    exe = find()
    if exe is None:
        return ""
    try:
        out = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return ""
    lines = [line for line in out.splitlines() if line.strip()]
    return lines[-1] if lines else ""
