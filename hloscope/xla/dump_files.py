"""Which files of an XLA dump folder (`--xla_dump_to`) belong to which module, in order.

File names (see tests/xla_dumps/README.md): `module_<id>.<name>.` then
    NNNN.<pipeline>.after_<A>.before_<B>.txt    a snapshot between two passes of a pipeline
    NNNN.<pass>.after_<step>.txt                a snapshot from inside a pass (copy-insertion)
    before_optimizations.txt                    the module as XLA received it
    <backend>_after_optimizations.txt           the optimized module (plus -memory-usage-report etc.);
                                                <backend> is cpu, or sm_<major>.<minor>_gpu for XLA:GPU
    <kernel>_kernel_module.ir-no-opt.ll         one kernel's LLVM IR (ir-with-opt: after LLVM's passes)
    obj-file.<kernel>_kernel_module.o           its object code (XLA:CPU)
    ir-no-opt.ll, ptx, thunk_sequence.txt       XLA:GPU: the module's LLVM IR, PTX and thunks
                                                (hloscope.xla.gpu_dump)
NNNN counts dumps of this module: it orders the snapshots (it is not a pass index).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .errors import XlaDumpError

# the module's name ends where one of XLA's suffixes starts (a name may hold dots: TensorFlow's
# clusters are `cluster_0__XlaCompiledKernel_true__..._.1`, so the backend before
# `_after_optimizations` is a word or sm_X.Y[a]_gpu, never `1.cpu`)
_PREFIX = re.compile(r"^module_(\d+)\.(.+?)\.(?=\d{4,}\.|before_optimizations"
                     r"|(?:sm_\d+\.\d+\w*_gpu|\w+)_after_optimizations|obj-file\."
                     r"|debug_options$|thunk_sequence\.txt$|(?:.*\.)?(?:ll|ptx|o)$)")
_SNAPSHOT = re.compile(r"^(\d{4,})\.(.+)\.txt$")
_OPTIMIZED = re.compile(r"^([\w.]+?)_after_optimizations\.txt$")  # cpu_, or sm_8.0_gpu_ for XLA:GPU


@dataclass(frozen=True)
class Snapshot:
    """One numbered snapshot: `pipeline` is the part before `.after_`, `name` the pass (or
    in-pass step) it follows, without the `.before_<next pass>`."""

    counter: int
    pipeline: str
    name: str
    path: Path


@dataclass
class DumpModule:
    """One module's files in a dump folder."""

    id: str
    name: str
    snapshots: list[Snapshot] = field(default_factory=list)
    before: Path | None = None
    optimized: Path | None = None
    backend: str = ""
    others: list[Path] = field(default_factory=list)  # reports, .ll files, ...

    @property
    def prefix(self) -> str:
        return f"module_{self.id}.{self.name}."

    def file(self, suffix: str) -> Path | None:
        """The module's file whose name ends with `suffix`, if any."""
        return next((p for p in self.others if p.name.endswith(suffix)), None)

    def files_ending(self, suffix: str) -> list[Path]:
        return sorted(p for p in self.others if p.name.endswith(suffix))


def snapshot_of(counter: int, rest: str, path: Path) -> Snapshot:
    """`<pipeline>.after_<A>[.before_<B>]` -> Snapshot(pipeline, A)."""
    at = rest.find(".after_")
    if at < 0:  # an in-pass dump without "after_": `<pass>.<step>`
        pipeline, _, name = rest.partition(".")
        return Snapshot(counter, pipeline, name or rest, path)
    name = rest[at + len(".after_"):]
    return Snapshot(counter, rest[:at], name.split(".before_")[0], path)


def find_modules(folder: str | Path) -> dict[str, DumpModule]:
    """{module id: its files}, snapshots in counter order. Raises on a folder with none."""
    root = Path(folder)
    if not root.is_dir():
        raise XlaDumpError(f"{root}: not a folder (expected an XLA dump folder written by --xla_dump_to)")
    modules: dict[str, DumpModule] = {}
    for path in sorted(p for p in root.iterdir() if p.is_file()):
        match = _PREFIX.match(path.name)
        if match is None:
            continue
        module = modules.setdefault(match.group(1), DumpModule(match.group(1), match.group(2)))
        rest = path.name[match.end():]
        snapshot, optimized = _SNAPSHOT.match(rest), _OPTIMIZED.match(rest)
        if snapshot is not None or optimized is not None or rest == "before_optimizations.txt":
            # these files say where the name ends; a kernel's file (`<name>.<kernel>.ir-no-opt.ll`,
            # where both may hold dots, as TensorFlow's `..._.3.wrapped_reduce.1_kernel_module`) does not
            module.name = match.group(2)
        if snapshot is not None:
            module.snapshots.append(snapshot_of(int(snapshot.group(1)), snapshot.group(2), path))
        elif rest == "before_optimizations.txt":
            module.before = path
        elif optimized is not None:
            module.optimized, module.backend = path, optimized.group(1)
        else:
            module.others.append(path)
    if not modules:
        raise XlaDumpError(f"{root}: no XLA module dumps in this folder (expected files named "
                           f"module_NNNN.<name>.before_optimizations.txt, written by --xla_dump_to)")
    for module in modules.values():
        module.snapshots.sort(key=lambda s: s.counter)
    return modules


def pick_module(modules: dict[str, DumpModule], module: int | str | None, folder: str | Path) -> DumpModule:
    """`module` by id (3 or "0003") or by name; None: the one with the most snapshots."""
    if module is None:
        return max(modules.values(), key=lambda m: (len(m.snapshots), m.id))
    for m in modules.values():
        if str(module) in (m.id, m.name) or (isinstance(module, int) and int(m.id) == module):
            return m
    known = ", ".join(f"{m.id} ({m.name})" for m in modules.values())
    raise XlaDumpError(f"{folder}: no module {module!r} in this dump; modules: {known}")
