"""SASS: the machine code a GPU really runs, read back out of ptxas's cubin.

PTX is a virtual ISA; ptxas compiles it to SASS for one architecture (sm_80, sm_90), doing
register allocation and scheduling. `cuobjdump -sass kernels.cubin` (or `nvdisasm`) prints it,
one `Function : name` block per kernel. Neither tool comes with hloscope: they are in the
CUDA toolkit, or in the nvidia-cuda-cuobjdump / nvidia-cuda-nvdisasm wheels (the `gpu`
extra); without them the report says so and shows the PTX alone.
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from .cuda_tools import find_tool

TOOLS = ("cuobjdump", "nvdisasm")
NOT_FOUND = ("no SASS: neither cuobjdump nor nvdisasm was found (on PATH or in the nvidia-cuda-cuobjdump / "
             "nvidia-cuda-nvdisasm wheels: pip install 'hloscope[gpu]')")


@dataclass(frozen=True)
class Sass:
    """The disassembly of a cubin: its whole text, per kernel, and which tool made it."""

    text: str = ""
    tool: str = ""
    kernels: dict[str, str] = field(default_factory=dict)
    note: str = NOT_FOUND


def disassemble(cubin: bytes, timeout: float = 60.0) -> Sass:
    """cuobjdump -sass (else nvdisasm) on the cubin; never raises for a missing or failing tool."""
    for tool in TOOLS:
        exe = find_tool(tool)
        if exe is None:
            continue
        with tempfile.TemporaryDirectory(prefix="hloscope-sass-") as d:
            path = Path(d) / "kernels.cubin"
            path.write_bytes(cubin)
            cmd = [exe, "-sass", str(path)] if tool == "cuobjdump" else [exe, "-c", str(path)]
            try:
                run = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
            except (OSError, subprocess.TimeoutExpired) as e:
                return Sass(note=f"{tool} could not run: {e}")
        if run.returncode != 0:
            return Sass(tool=tool, note=f"{tool} failed: {(run.stderr or run.stdout).strip()[:300]}")
        text = run.stdout.replace(str(path), "kernels.cubin")
        kernels = split_kernels(text)
        return Sass(text, tool, kernels, f"SASS by {tool}: {len(kernels)} kernels")
    return Sass()


_CUOBJDUMP = re.compile(r"^\s*Function : (\S+)\s*$")
_NVDISASM = re.compile(r"^\s*\.text\.(\S+?):\s*$")


def split_kernels(text: str) -> dict[str, str]:
    """{kernel name: its SASS} from either tool's output."""
    found: dict[str, list[str]] = {}
    current = None
    for line in text.splitlines():
        m = _CUOBJDUMP.match(line) or _NVDISASM.match(line)
        if m:
            current = m.group(1)
            found[current] = []
        if current is not None:
            found[current].append(line)
    return {name: "\n".join(lines).rstrip() for name, lines in found.items()}
