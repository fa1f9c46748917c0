"""Peak memory of both compilers, split the same way: parameters and constants, the output,
and the scratch memory in between; and what each holds at its peak (hloscope.memory.at_peak
over both plans: XLA's buffer assignment with its live ranges, hloscope's memory plan).

XLA:CPU's buffer assignment (`<backend>_after_optimizations-buffer-assignment.txt`) lists each
allocation with what it holds (`parameter N`, `maybe-live-out`/`output`, `constant`,
`preallocated-temp`: the one arena of temporaries, `thread-local`: a fusion's scalars); its
memory-usage report's "Total bytes" is their sum. hloscope's memory plan has the same kinds
(hloscope.memory.Buffer.kind) and one arena that holds the output and the temporaries.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..compilation.record import Compilation
from ..memory.at_peak import MemoryAtPeak, memory_at_peak

_ALLOCATION = re.compile(r"^allocation \d+: size (\d+), (?:page \d+, )?(.*)$", re.MULTILINE)  # jaxlib 0.12 adds "page N, "


@dataclass(frozen=True)
class MemorySide:
    """Bytes by kind; `total` is what the compiler itself reports (None: unknown)."""

    total: int | None = None
    inputs: int | None = None  # parameters and constants
    scratch: int | None = None  # XLA: preallocated temp (+ output); hloscope: the arena (output included)
    at_peak: MemoryAtPeak | None = field(default=None, compare=False, repr=False)  # every buffer live at the peak

    def cells(self) -> tuple[str, str, str, str]:
        peak = self.at_peak.total_bytes if self.at_peak is not None else None
        total, inputs, scratch, live = ("-" if v is None else f"{v:,}" for v in (self.total, self.inputs, self.scratch, peak))
        return total, inputs, scratch, live


def xla_memory(c: Compilation) -> MemorySide:
    """From the dump's buffer assignment (and the report's total, which load() read)."""
    text = _assignment_text(c)
    total = c.xla_memory_total_bytes or None
    at_peak = _at_peak(c)
    if text is None:
        return MemorySide(total, at_peak=at_peak)
    inputs = scratch = 0
    for size, what in _ALLOCATION.findall(text):
        if what.startswith(("parameter", "constant")):
            inputs += int(size)
        elif "live-out" in what or what.startswith(("output", "preallocated-temp", "thread-local")):
            scratch += int(size)
    return MemorySide(total, inputs, scratch, at_peak)


def hloscope_memory(c: Compilation) -> MemorySide:
    plan = c.memory_plan
    if plan is None:
        return MemorySide()
    inputs = sum(b.size for b in plan.buffers if b.kind in ("parameter", "constant"))
    return MemorySide(inputs + plan.peak_bytes, inputs, plan.peak_bytes, _at_peak(c))


def _at_peak(c: Compilation) -> MemoryAtPeak | None:
    """What the record's plan holds at its peak (the lens shows it without suggestions: those
    are measured with hloscope's planner, in the record's own memory view)."""
    return memory_at_peak(c.memory_plan, c.module) if c.memory_plan is not None else None


def _assignment_text(c: Compilation) -> str | None:
    files = getattr(c.source, "files", None)  # an XLA dump's source (xla.dump_record.XlaDump)
    path = files.file("-buffer-assignment.txt") if files is not None else None
    return Path(path).read_text() if path is not None and Path(path).exists() else None
