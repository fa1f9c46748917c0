"""An XLA dump folder as a `Compilation`, the record every hloscope view reads.

    input_module  the module XLA received (before_optimizations)
    records       one PassRecord per numbered snapshot, in counter order: before = the
                  previous snapshot (the first: the input), after = this one; changed = the
                  snapshot's text differs from the one before (an unchanged one is the same module)
    module        the optimized module (<backend>_after_optimizations)
    memory_plan   XLA's buffer assignment and live ranges as a MemoryPlan (hloscope.xla.memory_plan):
                  peak_bytes = XLA's outputs and temporaries, total_bytes = every allocation
    llvm_ir       the kernels' LLVM IR files, one after another (optimized_llvm_ir: after LLVM)
    kernels       one Kernel per fusion (hloscope.xla.kernels); XLA:GPU: one per kernel launch
    assembly      XLA:GPU: the PTX (assembly_language "PTX"); program: its thunk sequence
                  (hloscope.xla.gpu_dump)
    object_size   the bytes of XLA:CPU's object files (obj-file.*.o)
    xla_memory_total_bytes   XLA's buffer assignment total (its memory-usage report)

XLA records no time per pass and no decisions, so `seconds` is 0 and `log` is empty. The
snapshots repeat most of their text, so they are parsed with one ParseMemo: a computation or
instruction line seen before is not parsed again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..compilation.record import Compilation, LazyText
from ..compilation.stages import Stage, run_stages
from ..errors import HloParseError
from ..ir import parse_hlo
from ..ir.module import HloModule
from ..ir.parser import ParseMemo
from ..passes.record import PassRecord
from .dump_files import DumpModule, find_modules, pick_module
from .buffer_assignment import read_buffer_assignment
from .errors import XlaDumpError
from .gpu_dump import gpu_kernels, read_thunks
from .kernels import xla_kernels
from .live_ranges import read_live_ranges
from .memory_plan import xla_memory_plan

# `Total bytes: N` once per memory space (jaxlib's XLA); `Total bytes used: N (...)` once, in the
# older report TensorFlow's XLA (TF 2.21) writes
_TOTAL = re.compile(r"^Total bytes(?: used)?:\s*(\d+)", re.MULTILINE)


@dataclass
class XlaDump:
    """The source of a record read from a dump folder (kind "xla")."""

    folder: Path
    module_id: str
    module_name: str
    files: DumpModule = field(repr=False)
    kind: str = "xla"
    first_stage: str = "parse dump"

    def load(self, c: Compilation, memo: ParseMemo | None = None) -> str:
        if self.files.before is None:
            raise XlaDumpError(f"{self.folder}: module {self.module_id} ({self.module_name}) has no "
                               f"{self.files.prefix}before_optimizations.txt: the record starts from it")
        c.input_module = parse_file(self.files.before, memo=memo)
        return f"module {self.module_id} ({self.module_name})"


def parse_file(path: Path, text: str | None = None, memo: ParseMemo | None = None) -> HloModule:
    """A dumped module, or an error naming the file (and the parser's line and column)."""
    text = path.read_text() if text is None else text
    if not text.strip():
        raise XlaDumpError(f"{path}: the file is empty (a truncated dump?)")
    try:
        return parse_hlo(text, memo=memo)
    except HloParseError as e:
        raise XlaDumpError(f"{path}: cannot parse this dumped module (truncated?): {e}") from e


def load(folder: str | Path, module: int | str | None = None) -> Compilation:
    """The record of XLA's compilation dumped in `folder` (--xla_dump_to with
    --xla_dump_hlo_pass_re=.*). `module` picks one by id or name when the folder holds
    several; by default the one with the most snapshots."""
    root = Path(folder)
    files = pick_module(find_modules(root), module, root)
    source = XlaDump(root, files.id, files.name, files)
    backend = files.backend or "xla"
    device = ""
    if backend.endswith("_gpu"):  # sm_8.0_gpu: XLA:GPU for that compute capability
        backend, device = "gpu", f" ({backend.removesuffix('_gpu')})"
    c = Compilation(source=source, target=f"xla:{backend}",
                    title=f"XLA:{backend.upper()}{device} dump of {files.name} (module {files.id}) from {root}")
    run_stages(c, [
        Stage("parse dump", lambda c: _parse(c, source), makes=("input_module", "records", "optimized_module")),
        Stage("read reports", lambda c: _reports(c, files), needs=("parse dump",),
              makes=("xla_memory_total_bytes", "memory_plan", "object_size", "llvm_ir", "optimized_llvm_ir",
                     "kernels", "assembly_text", "assembly_language", "program")),
    ])
    c.table = []  # every stage ran here: the explorer and hloscope.session have nothing left to run
    return c


def _parse(c: Compilation, source: XlaDump) -> str:
    memo = ParseMemo()
    source.load(c, memo)
    files = source.files
    assert c.input_module is not None and files.before is not None
    before, before_text, seen = c.input_module, files.before.read_text(), {}
    for snapshot in files.snapshots:
        text = snapshot.path.read_text()
        # XLA prints deterministically, so the same text is the same module (and a change to the
        # header, such as layout assignment's entry layout, is a change)
        changed = text != before_text
        after = parse_file(snapshot.path, text, memo) if changed else before
        key = (snapshot.pipeline, snapshot.name)
        seen[key] = seen.get(key, -1) + 1
        c.records.append(PassRecord(name=snapshot.name, pipeline=snapshot.pipeline, changed=changed, seconds=0.0,
                                    before=before, after=after, log=(), doc=f"XLA's snapshot {snapshot.path.name}",
                                    iteration=seen[key]))
        before, before_text = after, text
    if files.optimized is not None:
        c.optimized_module = parse_file(files.optimized, memo=memo)
    optimized = f", optimized module from {files.optimized.name}" if files.optimized else ", no optimized module"
    return f"{len(files.snapshots)} snapshots{optimized}"


def _reports(c: Compilation, files: DumpModule) -> str:
    notes = _memory(c, files)
    c.object_size = sum(p.stat().st_size for p in files.files_ending(".o"))
    c.llvm_ir = _joined(files.files_ending(".ir-no-opt.ll"))
    c.optimized_llvm_ir = _joined(files.files_ending(".ir-with-opt.ll"))
    notes.append(f"{len(files.files_ending('.ir-no-opt.ll'))} LLVM IR files")
    if c.target == "xla:gpu":
        notes += _gpu(c, files)
    elif c.optimized_module is not None:
        c.kernels = xla_kernels(c.optimized_module, files)
        notes.append(f"{len(c.kernels)} fusion kernels")
    return ", ".join(notes)


def _memory(c: Compilation, files: DumpModule) -> list[str]:
    """XLA's memory total (its memory-usage report, else its allocations) and its plan."""
    notes = []
    report, assignment = files.file("-memory-usage-report.txt"), files.file("-buffer-assignment.txt")
    allocations = read_buffer_assignment(assignment) if assignment is not None else None
    if report is not None:
        totals = _TOTAL.findall(report.read_text())
        if not totals:
            raise XlaDumpError(f"{report}: no 'Total bytes: N' line: not XLA's memory-usage report (truncated?)")
        c.xla_memory_total_bytes = sum(int(n) for n in totals)
        notes.append(f"memory {c.xla_memory_total_bytes:,} B (memory-usage report)")
    elif allocations is not None:
        c.xla_memory_total_bytes = sum(a.size for a in allocations)
        notes.append(f"memory {c.xla_memory_total_bytes:,} B (buffer assignment)")
    live_file = files.file("-live-range.txt")
    if allocations is not None and live_file is not None and c.optimized_module is not None:
        assert assignment is not None
        c.memory_plan = plan = xla_memory_plan(c.optimized_module, allocations, read_live_ranges(live_file), assignment)
        notes.append(f"XLA's plan: {len(plan.buffers)} buffers, outputs and temporaries {plan.peak_bytes:,} B")
    return notes


def _gpu(c: Compilation, files: DumpModule) -> list[str]:
    """XLA:GPU's PTX (the record's PTX, as hloscope's GPU target fills it), its thunk sequence
    (the record's host program) and a kernel per launch."""
    notes = []
    ptx = files.files_ending(".ptx")
    if ptx:
        c.assembly_text = LazyText("\n".join(p.read_text() for p in ptx))
        c.assembly_language = "PTX"
        notes.append(f"PTX from {len(ptx)} file{'s' if len(ptx) > 1 else ''}")
    sequence = files.file(".thunk_sequence.txt")
    if sequence is not None and c.optimized_module is not None:
        c.program = sequence.read_text()
        c.kernels = gpu_kernels(c.optimized_module, read_thunks(sequence), c.llvm_ir, c.optimized_llvm_ir)
        notes.append(f"{len(c.kernels)} kernel launches in the thunk sequence")
    return notes


def _joined(paths: list[Path]) -> str:
    return "\n".join(f"; ---- {p.name} ----\n{p.read_text()}" for p in paths)
