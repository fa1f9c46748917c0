"""XLA:CPU's kernels as the record shows them: one per fusion in the optimized module's entry.

A loop fusion's kernel is an LLVM module in the dump (usually `<fusion>_kernel_module.ir-no-opt.ll`,
`.ir-with-opt.ll` after LLVM's passes; some are `<fusion>.ir-no-opt.ll` or
`__compute_module_<fusion>.ir-no-opt.ll`), found by the file that defines the function
`@<fusion>(`; it has `outer_dimension_partitions` in its backend_config (the threads it is
split across). Fusions are taken from every computation the program runs (a while loop's body
too), not from inside other fusions; an instruction XLA:CPU gives a kernel of its own without
a fusion (an elemental dot, a called computation) defines `@<instruction>_kernel`. A fusion whose fusion_config names a library kind (`__ynn_fusion`: YNNPACK)
has no .ll file: XLA calls the library. Some fusions have no function of their own in any
file of the dump: their note says so.
"""

from __future__ import annotations

import json
import re
from math import prod
from pathlib import Path

from ..compilation.record import Kernel
from ..ir.module import HloModule
from .dump_files import DumpModule


def _config(text: object) -> dict:
    raw = getattr(text, "text", text)
    try:
        found = json.loads(raw) if isinstance(raw, str) else {}
    except json.JSONDecodeError:  # a backend_config that is not JSON: nothing to read from it
        return {}
    return found if isinstance(found, dict) else {}


_DEFINE = re.compile(r'^define (?!internal)[^@\n]*@"?([\w.\-]+)"?\(', re.MULTILINE)


def defined_in(paths: list[Path]) -> dict[str, Path]:
    """{function name: the .ll file that defines it}, for the functions other modules can call."""
    return {name: path for path in paths for name in _DEFINE.findall(path.read_text())}


def xla_kernels(module: HloModule, files: DumpModule) -> list[Kernel]:
    no_opt_files = defined_in(files.files_ending(".ir-no-opt.ll"))
    with_opt_files = defined_in(files.files_ending(".ir-with-opt.ll"))
    kernels = []
    for inst in _running(module):
        # a fusion's kernel is @<fusion>; another instruction's own kernel (an elemental dot, a
        # called computation) is @<instruction>_kernel
        function = inst.name if inst.opcode == "fusion" else f"{inst.name}_kernel"
        no_opt, with_opt = no_opt_files.get(function), with_opt_files.get(function)
        if inst.opcode != "fusion" and no_opt is None:
            continue
        config = _config(inst.attr("backend_config"))
        library = str(config.get("fusion_config", {}).get("kind", "")) if isinstance(config.get("fusion_config"), dict) else ""
        partitions = prod(int(p) for p in config.get("outer_dimension_partitions", []) or [1])
        kind = str(inst.attr("kind") or "").removeprefix("k").lower() if inst.opcode == "fusion" else inst.opcode
        notes = [f"library call ({library})"] if library else []
        if inst.opcode != "fusion":
            notes.append(f"a kernel of its own for a {inst.opcode}, not a fusion")
        if no_opt is None:
            notes.append("no LLVM IR file in the dump" if library else f"no .ll file in the dump defines @{function}")
        kernels.append(Kernel(name=inst.name, instruction=inst.name, kind=kind, buffers=tuple(inst.operands),
                              notes=tuple(notes), partitions=partitions,
                              llvm_ir=no_opt.read_text() if no_opt else "",
                              optimized_llvm_ir=with_opt.read_text() if with_opt else ""))
    return kernels


def _running(module: HloModule) -> list:
    """The instructions of the computations that run (the entry's last, as printed): not
    those inside fusions."""
    fused = {str(i.attr("calls")) for _, i in module.all_instructions() if i.opcode == "fusion"}
    return [i for comp in module.computations if comp.name not in fused for i in comp]
