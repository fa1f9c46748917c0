"""XLA:CPU's kernels as the record shows them: one per fusion in the optimized module's entry.

A loop fusion's kernel is an LLVM module in the dump (usually `<fusion>_kernel_module.ir-no-opt.ll`,
`.ir-with-opt.ll` after LLVM's passes; some are `<fusion>.ir-no-opt.ll` or
`__compute_module_<fusion>.ir-no-opt.ll`), found by the file that defines the function
`@<fusion>(`; it has `outer_dimension_partitions` in its backend_config (the threads it is
split across). Fusions are taken from every computation the program runs (a while loop's body
too), not from inside other fusions nor from inside an instruction compiled whole into one
kernel (a small call); an instruction XLA:CPU gives a kernel of its own without
a fusion (an elemental dot, a called computation) defines `@<instruction>_kernel`. A fusion whose fusion_config names a library kind (`__ynn_fusion`: YNNPACK)
has no .ll file: XLA calls the library. A fusion with no function of its own is the twin of
one that has: the same fused computation up to names (XLA:CPU emits one kernel for identical
fusions; in every real-model dump we made, each such fusion has a twin), so it shows its
twin's IR and a note naming it. From jaxlib 0.11 on, the dump holds no LLVM IR (see _no_ir):
each kernel then names its object file.
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
    twins = _FusionTwins(module)
    for inst in _running(module, set(no_opt_files)):
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
        twin = twins.with_ir(inst, no_opt_files) if no_opt is None and not library else None
        if twin is not None:
            no_opt, with_opt = no_opt_files[twin], with_opt_files.get(twin)
            notes.append(f"the same kernel as {twin}: identical fused computation, compiled once")
        elif no_opt is None:
            notes.append("no LLVM IR file in the dump" if library else _no_ir(function, files, bool(no_opt_files)))
        kernels.append(Kernel(name=inst.name, instruction=inst.name, kind=kind, buffers=tuple(inst.operands),
                              notes=tuple(notes), partitions=partitions,
                              llvm_ir=no_opt.read_text() if no_opt else "",
                              optimized_llvm_ir=with_opt.read_text() if with_opt else ""))
    return kernels


def _no_ir(function: str, files: DumpModule, dump_has_ir: bool) -> str:
    """Why a kernel shows no LLVM IR: the dump's other files have it and none defines this
    one; or, in a dump with no IR at all, that XLA wrote only the object code."""
    if dump_has_ir:
        return f"no .ll file in the dump defines @{function}"
    objects = [p for p in files.files_ending(".o")
               if p.name.endswith((f"obj-file.{function}_kernel_module.o", f"obj-file.__compute_module_{function}.o"))]
    made = f"its object code ({objects[0].name}, {objects[0].stat().st_size:,} bytes)" if objects else "object code"
    return (f"XLA wrote {made}, not its LLVM IR: jaxlib 0.11 and later write a CPU kernel's IR only with "
            "--xla_dump_emitter_re, which makes jaxlib 0.12 crash on most programs")


def _running(module: HloModule, functions: set[str]) -> list:
    """The instructions XLA gives kernels to: those of the computations that run (the entry's
    last, as printed), not those inside fusions, nor those inside an instruction compiled whole
    into its own kernel (@<call>_kernel: XLA:CPU's small calls, a hoisted while loop and its
    fusions in one function)."""
    fused = {str(i.attr("calls")) for _, i in module.all_instructions() if i.opcode == "fusion"}
    inside: set[str] = set()
    work = [c for _, i in module.all_instructions() if i.opcode != "fusion" and f"{i.name}_kernel" in functions
            for c in i.called_computations()]
    while work:
        name = work.pop()
        if name not in inside:
            inside.add(name)
            work.extend(c for i in module.computation(name) for c in i.called_computations())
    return [i for comp in module.computations if comp.name not in fused | inside for i in comp]


class _FusionTwins:
    """Fusions whose fused computations are the same up to instruction and computation names."""

    def __init__(self, module: HloModule):
        self.module = module
        self.keys: dict[str, int] = {}
        self.values: dict[tuple, int] = {}  # (opcode, shape, parameter, operand numbers, attrs) -> number
        self.first_with_ir: dict[int, str] | None = None  # made on the first question

    def with_ir(self, inst, functions: dict[str, Path]) -> str | None:
        """The first fusion with a kernel in `functions` that is `inst`'s twin, if any."""
        if inst.opcode != "fusion":
            return None
        if self.first_with_ir is None:
            self.first_with_ir = {}
            for _, other in self.module.all_instructions():
                if other.opcode == "fusion" and other.name in functions:
                    self.first_with_ir.setdefault(self.key(str(other.attr("calls"))), other.name)
        return self.first_with_ir.get(self.key(str(inst.attr("calls"))))

    def key(self, computation: str) -> int:
        """The computation's root as a value number: equal numbers, equal computations (the
        order instructions are printed in and their names do not matter; callees by their own keys)."""
        if computation not in self.keys:
            numbers: dict[str, int] = {}
            for i in self.module.computation(computation):
                attrs = tuple(sorted((k, self.key(str(v)) if k in ("to_apply", "calls") else str(v))
                                     for k, v in i.attrs.items() if k != "metadata"))
                value = (i.opcode, str(i.shape), i.parameter_number, tuple(numbers[o] for o in i.operands), attrs)
                numbers[i.name] = self.values.setdefault(value, len(self.values))
            self.keys[computation] = numbers[self.module.computation(computation).root]
        return self.keys[computation]
