"""What each line of the user's code costs: the program's work, given back to the lines it
came from, across optimization.

Every instruction carries the line that made it (its metadata), and a fusion keeps the lines
of all it holds. The cost model's numbers (analysis.py) are split so that each byte and flop
is counted on exactly one line, and the lines add up to the module:

    flops, transcendentals   each instruction's own, on its line (a fused one's too)
    bytes read               a fusion reads each parameter once: those bytes go to the
                             line(s) of the fused instructions that use the parameter
    bytes written            a result's bytes go to the line of the instruction that makes it
                             (each element of a tuple to its own)
    time                     each kernel's seconds (measured, or the roofline's estimate),
                             split among its lines by their share of its estimated work

Control flow (while, call, conditional) is opened: its body's instructions go to their own
lines. Work of an instruction with no line is kept under "(no source line)".

    table = cost_by_line(module)                 # estimated time
    table = cost_by_line(module, measured)       # {top-level instruction: seconds per run}
    table.rows                                   # LineCost per line, in file and line order
    table.total                                  # sums: equal to the module's totals
"""

from __future__ import annotations

import linecache
import os
from collections import defaultdict
from dataclasses import dataclass, field

from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.module import HloModule
from .analysis import CALLS, Cost, analysis, nbytes, parameter_read_bytes
from .roofline import Peaks, cpu_peaks, estimate

NO_LINE = ("", 0)


@dataclass
class LineCost:
    """One source line's share of the program."""

    file: str
    line: int
    instructions: set[str] = field(default_factory=set)  # HLO instructions from this line (fused ones too)
    kernels: set[str] = field(default_factory=set)  # top-level instructions (kernels) holding them
    flops: int = 0
    transcendentals: int = 0
    bytes_read: int = 0
    bytes_written: int = 0
    estimated_seconds: float = 0.0
    measured_seconds: float | None = None

    @property
    def bytes_accessed(self) -> int:
        return self.bytes_read + self.bytes_written

    @property
    def where(self) -> str:
        return f"{os.path.basename(self.file)}:{self.line}" if self.file else "(no source line)"

    @property
    def text(self) -> str:
        return linecache.getline(self.file, self.line).strip() if self.file and self.line else ""


@dataclass
class SourceLines:
    """The per-line table of one module (see the module docstring)."""

    module: str
    rows: list[LineCost]
    total: LineCost  # the sums over the rows
    measured: bool  # the time column is measured kernel time (else the estimate)

    def row(self, line: int, file: str | None = None) -> LineCost | None:
        return next((r for r in self.rows if r.line == line and (file is None or r.file == file)), None)

    def __str__(self) -> str:
        kind = "measured" if self.measured else "estimated"
        head = (f"{'line':<22} {'instructions':>12} {'kernels':>7} {'flops':>12} {'bytes':>12} "
                f"{kind + ' time':>15}  code")
        lines = [f"Cost by source line of {self.module}", head, "-" * len(head)]
        for r in [*self.rows, self.total]:
            seconds = r.measured_seconds if self.measured else r.estimated_seconds
            where = "total" if r is self.total else r.where
            lines.append(f"{where[:22]:<22} {len(r.instructions):>12} {len(r.kernels):>7} "
                         f"{r.flops + r.transcendentals:>12,} {r.bytes_accessed:>12,} "
                         f"{(seconds or 0.0) * 1e6:>12.1f} us  {r.text[:60]}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        from ..viz.source_lines_html import source_lines_html

        return source_lines_html(self)


@dataclass(frozen=True)
class _Share:
    """A piece of one top-level instruction's cost that belongs to one line."""

    top: str
    line: tuple[str, int]
    instruction: str
    flops: int = 0
    transcendentals: int = 0
    bytes_read: int = 0
    bytes_written: int = 0


def cost_by_line(module: HloModule, measured: dict[str, float] | None = None, peaks: Peaks | None = None) -> SourceLines:
    """The per-line table. `measured`: seconds per run of each top-level instruction (a
    kernel profile); without it the time is the roofline estimate on `peaks` (this CPU)."""
    peaks = peaks or cpu_peaks()
    shares = _Attribution(module).entry_shares()
    by_top: dict[str, list[_Share]] = defaultdict(list)
    for s in shares:
        by_top[s.top].append(s)
    rows: dict[tuple[str, int], LineCost] = {}
    for top, parts in by_top.items():
        whole = _sum(top, parts)
        estimated = estimate(whole, peaks) if whole.bytes_accessed or whole.flops or whole.transcendentals else 0.0
        weights = [max(0.0, _weight(p, peaks)) for p in parts]
        for part, weight in zip(parts, weights):
            row = rows.setdefault(part.line, LineCost(*part.line))
            fraction = weight / sum(weights) if sum(weights) > 0 else 1 / len(parts)
            row.instructions.add(part.instruction)
            row.kernels.add(top)
            row.flops += part.flops
            row.transcendentals += part.transcendentals
            row.bytes_read += part.bytes_read
            row.bytes_written += part.bytes_written
            row.estimated_seconds += estimated * fraction
            if measured is not None:
                row.measured_seconds = (row.measured_seconds or 0.0) + measured.get(top, 0.0) * fraction
    ordered = sorted(rows.values(), key=lambda r: (r.file == "", r.file, r.line))
    total = LineCost("", 0, set().union(*(r.instructions for r in ordered)) if ordered else set(),
                     set().union(*(r.kernels for r in ordered)) if ordered else set(),
                     sum(r.flops for r in ordered), sum(r.transcendentals for r in ordered),
                     sum(r.bytes_read for r in ordered), sum(r.bytes_written for r in ordered),
                     sum(r.estimated_seconds for r in ordered),
                     None if measured is None else sum(r.measured_seconds or 0.0 for r in ordered))
    return SourceLines(module.name, ordered, total, measured is not None)


def top_level_of(module: HloModule) -> dict[str, str]:
    """{instruction: the ENTRY instruction whose kernel runs it}: the entry's own, and those of
    the loops, calls and branches it runs (a measured kernel inside a loop counts for the loop)."""
    entry = module.entry_computation
    out = {inst.name: inst.name for inst in entry.instructions}
    for inst in entry.instructions:
        stack = list(inst.called_computations()) if inst.opcode in CALLS else []
        while stack:
            comp = module.computation(stack.pop())
            for inner in comp.instructions:
                out.setdefault(inner.name, inst.name)
                if inner.opcode in CALLS:
                    stack.extend(inner.called_computations())
    return out


def _sum(top: str, parts: list[_Share]) -> Cost:
    return Cost(top, "", sum(p.flops for p in parts), sum(p.transcendentals for p in parts),
                sum(p.bytes_read for p in parts), sum(p.bytes_written for p in parts))


def _weight(part: _Share, peaks: Peaks) -> float:
    """A share's estimated seconds if it ran alone: how a kernel's time is split."""
    return (part.flops / peaks.fp32_flops + part.transcendentals / peaks.transcendentals
            + peaks.memory_seconds(part.bytes_read, part.bytes_written))


class _Attribution:
    """Walks the entry computation and splits each instruction's Cost among lines."""

    def __init__(self, module: HloModule):
        self.module = module
        self.costs = {(c.computation, c.name): c for c in analysis(module).every}

    def entry_shares(self) -> list[_Share]:
        entry = self.module.entry_computation
        out: list[_Share] = []
        for inst in entry.instructions:
            out += self.instruction(entry, inst, inst.name, self.line_of(inst) or NO_LINE)
        return out

    def line_of(self, inst: Instruction) -> tuple[str, int] | None:
        where = self.module.source_of(inst)
        return (where[0], where[1]) if where and where[0] else None

    def instruction(self, comp: Computation, inst: Instruction, top: str, fallback: tuple[str, int]) -> list[_Share]:
        cost = self.costs[(comp.name, inst.name)]
        line = self.line_of(inst) or fallback
        if inst.opcode == "fusion":
            parts = self.fusion(inst, top, line)
        elif inst.opcode in CALLS:
            parts = [s for called in inst.called_computations()
                     for i in self.module.computation(called).instructions
                     for s in self.instruction(self.module.computation(called), i, top, line)]
        else:
            return [_Share(top, line, inst.name, cost.flops, cost.transcendentals, cost.bytes_read, cost.bytes_written)]
        return parts + _remainder(cost, parts, top, line, inst.name)

    def fusion(self, inst: Instruction, top: str, line: tuple[str, int]) -> list[_Share]:
        """Fused instructions' flops on their lines; the boundary's bytes on the lines that
        read each parameter and on the line that makes the result."""
        fused = self.module.computation(inst.called_computations()[0])
        parts: list[_Share] = []
        for i in fused.instructions:
            if i.opcode == "parameter":
                continue
            if i.opcode == "fusion":  # a nested fusion: its work, not its inner boundary bytes
                parts += [_Share(top, s.line, s.instruction, s.flops, s.transcendentals)
                          for s in self.fusion(i, top, self.line_of(i) or line)]
                continue
            c = self.costs[(fused.name, i.name)]
            parts.append(_Share(top, self.line_of(i) or line, i.name, c.flops, c.transcendentals))
        for p in fused.parameters:
            readers = [fused[u] for u in fused.users(p.name)]
            lines = list(dict.fromkeys(self.line_of(u) or line for u in readers)) or [line]
            parts += _split(parameter_read_bytes(fused, p), lines, top, p.name, written=False)
        root = fused.root_instruction
        makers = [fused[o] for o in root.operands] if root.opcode == "tuple" else [root]
        for maker in makers:
            parts += _split(nbytes(maker.shape), [self.line_of(maker) or line], top, maker.name, written=True)
        return parts


def _split(amount: int, lines: list[tuple[str, int]], top: str, name: str, written: bool) -> list[_Share]:
    """`amount` bytes over `lines` in whole bytes, the remainder on the first."""
    each, extra = divmod(amount, len(lines))
    out = []
    for k, line in enumerate(lines):
        n = each + (extra if k == 0 else 0)
        if n:
            out.append(_Share(top, line, name, bytes_written=n) if written else _Share(top, line, name, bytes_read=n))
    return out


def _remainder(cost: Cost, parts: list[_Share], top: str, line: tuple[str, int], name: str) -> list[_Share]:
    """What the parts do not account for (a loop's own bookkeeping), on the instruction's line."""
    total = _sum(top, parts)
    rest = _Share(top, line, name, cost.flops - total.flops, cost.transcendentals - total.transcendentals,
                  cost.bytes_read - total.bytes_read, cost.bytes_written - total.bytes_written)
    return [rest] if any((rest.flops, rest.transcendentals, rest.bytes_read, rest.bytes_written)) else [_Share(top, line, name)]
