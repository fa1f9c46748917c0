"""What an XLA:GPU dump adds to the record: PTX, the thunk sequence, and one kernel per launch.

File names, from XLA's sources (xla/service/gpu/gpu_compiler.cc, compile_module_to_llvm_ir.cc,
xla/service/llvm_ir/llvm_util.cc; tests/xla_dumps/gpu_synthetic/README.md cites the lines):

    module_NNNN.<name>.sm_<major>.<minor>_gpu_after_optimizations.txt   (+ -buffer-assignment ...)
    module_NNNN.<name>.ir-no-opt.ll, .ir-with-opt.ll    the whole module's LLVM IR (one for all kernels;
                                                        `.<shard>.ir-with-opt.ll` when split)
    module_NNNN.<name>.ptx                              the PTX (`.<shard>.ptx` when split)
    module_NNNN.<name>.thunk_sequence.txt               what the host runs, one thunk a line:
        000: kKernel\tkernel=<kernel>, profile_annotation=<instruction>, launch dimensions=blocks: {x, y, z}, threads/block: {x, y, z}, cluster_dim=nullopt

(older XLA writes `kKernel\t, kernel = <kernel>, launch dimensions = ...`, without the number).
A kernel's name is its fusion's with every character other than a letter, digit, `_` or `$`
made `_` (llvm_ir::SanitizeFunctionName): `loop_add_fusion.1` runs as `loop_add_fusion_1`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..compilation.record import Kernel, Launch
from ..ir.module import HloModule
from .errors import XlaDumpError

_KERNEL = re.compile(r"\bkernel\s*=\s*([^,\s]+)")
_ANNOTATION = re.compile(r"\bprofile_annotation\s*=\s*([^,\s]+)")
_LAUNCH = re.compile(r"launch dimensions\s*=\s*blocks: \{(\d+), (\d+), (\d+)\}, threads/block: \{(\d+), (\d+), (\d+)\}")
_KIND = re.compile(r"^\s*(?:\d+: )?(k\w+)")


@dataclass(frozen=True)
class ThunkLine:
    """One line of XLA's thunk_sequence.txt: its kind (kKernel, kCopy, kGemm, ...) and, for a
    kernel launch, the kernel, the instruction it runs and its launch dimensions. (hloscope's
    own GPU program is a runtime.thunks.ThunkSequence, with streams and events.)"""

    kind: str
    kernel: str = ""
    instruction: str = ""
    launch: Launch | None = None


def sanitized(name: str) -> str:
    """An HLO name as XLA names its kernel function (llvm_ir::SanitizeFunctionName)."""
    out = re.sub(r"[^A-Za-z0-9_$]", "_", name) or "__unnamed"
    return "_" + out if out[0].isdigit() else out


def read_thunks(path: Path) -> list[ThunkLine]:
    """Every line of a thunk_sequence.txt; an XlaDumpError names a line that is not a thunk."""
    thunks = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        kind = _KIND.match(line)
        if kind is None:
            raise XlaDumpError(f"{path}, line {number}: not a thunk (expected 'NNN: kKind ...'): {line[:120]!r}")
        if kind.group(1) != "kKernel":
            thunks.append(ThunkLine(kind.group(1)))
            continue
        kernel, launch = _KERNEL.search(line), _LAUNCH.search(line)
        if kernel is None or launch is None:
            raise XlaDumpError(f"{path}, line {number}: a kKernel thunk without its kernel or launch dimensions: "
                               f"{line[:120]!r}")
        dims = [int(d) for d in launch.groups()]
        annotation = _ANNOTATION.search(line)
        thunks.append(ThunkLine("kKernel", kernel.group(1), annotation.group(1) if annotation else "",
                                Launch((dims[0], dims[1], dims[2]), (dims[3], dims[4], dims[5]))))
    return thunks


def function_text(llvm_ir: str, name: str) -> str:
    """The definition of `@name` in an LLVM module's text ("" if it has none)."""
    found = re.search(rf'^define [^\n]*@"?{re.escape(name)}"?\(.*?^}}$', llvm_ir, re.MULTILINE | re.DOTALL)
    return found.group(0) if found else ""


def gpu_kernels(module: HloModule, thunks: list[ThunkLine], llvm_ir: str, optimized_llvm_ir: str) -> list[Kernel]:
    """One Kernel per kernel launch, in the thunk sequence's order, with its instruction's kind."""
    by_kernel = {sanitized(inst.name): inst for _, inst in module.all_instructions()}
    kernels = []
    for thunk in thunks:
        if thunk.kind != "kKernel":
            continue
        inst = by_kernel.get(thunk.instruction and sanitized(thunk.instruction)) or by_kernel.get(thunk.kernel)
        kind = (str(inst.attr("kind") or "").removeprefix("k").lower() if inst.opcode == "fusion" else inst.opcode
                ) if inst is not None else "kernel"
        notes = () if inst is not None else (f"no instruction of the optimized module runs as {thunk.kernel}",)
        kernels.append(Kernel(name=thunk.kernel, instruction=inst.name if inst is not None else thunk.kernel,
                              kind=kind, buffers=tuple(inst.operands) if inst is not None else (), notes=notes,
                              launch=thunk.launch, llvm_ir=function_text(llvm_ir, thunk.kernel),
                              optimized_llvm_ir=function_text(optimized_llvm_ir, thunk.kernel)))
    return kernels
