"""XLA:CPU's kernels as the record shows them: one per fusion in the optimized module's entry.

A loop fusion has its own LLVM module in the dump (`<fusion>_kernel_module.ir-no-opt.ll`,
`.ir-with-opt.ll` after LLVM's passes) and `outer_dimension_partitions` in its backend_config
(the threads it is split across). A fusion whose fusion_config names a library kind
(`__ynn_fusion`: YNNPACK) has no .ll file: XLA calls the library.
"""

from __future__ import annotations

import json
from math import prod

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


def xla_kernels(module: HloModule, files: DumpModule) -> list[Kernel]:
    kernels = []
    for inst in module.entry_computation:
        if inst.opcode != "fusion":
            continue
        config = _config(inst.attr("backend_config"))
        library = str(config.get("fusion_config", {}).get("kind", "")) if isinstance(config.get("fusion_config"), dict) else ""
        partitions = prod(int(p) for p in config.get("outer_dimension_partitions", []) or [1])
        no_opt = files.file(f".{inst.name}_kernel_module.ir-no-opt.ll")
        with_opt = files.file(f".{inst.name}_kernel_module.ir-with-opt.ll")
        kind = str(inst.attr("kind") or "").removeprefix("k").lower()
        notes = [f"library call ({library})"] if library else []
        if no_opt is None:
            notes.append("no LLVM IR file in the dump")
        kernels.append(Kernel(name=inst.name, instruction=inst.name, kind=kind, buffers=tuple(inst.operands),
                              notes=tuple(notes), partitions=partitions,
                              llvm_ir=no_opt.read_text() if no_opt else "",
                              optimized_llvm_ir=with_opt.read_text() if with_opt else ""))
    return kernels
