"""Memory at the peak: what is live where the program holds the most memory, and why.

The peak is the schedule position where the most bytes are live, counting

- the arena's buffers (temporaries and outputs) live there, each at its aligned size, as the
  heap holds it (a donated output, written into its parameter's buffer, adds nothing), and
- the parameters and constants live there at their own sizes: the caller's arrays and the
  static data hold memory too, and "what holds memory" is the question.

The first such position wins a tie. Every buffer live there is one row: its bytes, the
instruction whose value it holds at that moment, that instruction's source lines (a
fusion's: the lines of what it holds), and why it is still live: its last reader, "a result
of the program", or "a parameter". The rows sum to `total_bytes` exactly.

    at = memory_at_peak(plan, module)
    at.total_bytes, at.position, at.instruction
    print(at)                      the table, biggest first, with the totals

The same works on XLA's buffer assignment read from a dump (an XlaMemoryPlan is a
MemoryPlan), where the total is XLA's own "Live ranges at N (peak)".
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..ir.instruction import Instruction
from ..ir.module import HloModule
from .heap import aligned

if TYPE_CHECKING:  # plan.py does not import this file; annotations only
    from .plan import Buffer, MemoryPlan

ARENA_KINDS = ("temporary", "output")
Source = tuple[str, int]  # (file, line)


@dataclass(frozen=True)
class PeakRow:
    """One buffer live at the peak."""

    label: str  # the buffer (its first value; `name{1}` for a tuple's element)
    kind: str  # parameter | constant | output | temporary
    bytes: int  # what it counts at the peak (aligned for the arena, 0 for a donated output)
    instruction: str  # the value it holds at the peak
    opcode: str
    sources: tuple[Source, ...]  # the value's source lines (a fusion: of what it holds)
    why: str  # why it is still live, in words
    last_user: str | None = None  # the instruction at the end of its live range (None: lives to the end)
    last_user_opcode: str = ""
    last_user_sources: tuple[Source, ...] = ()
    start: int = 0
    end: int = 0

    @property
    def source(self) -> str:
        """`block.py:12, block.py:14` ("" when unknown)."""
        return where(self.sources)


@dataclass(frozen=True)
class PeakSuggestion:
    """A change that lowers the peak, measured by planning the changed module again."""

    kind: str  # donate | rematerialize | reorder
    what: str  # the change, in words
    before_bytes: int
    after_bytes: int
    module: HloModule | None = field(default=None, repr=False, compare=False)  # the changed module

    @property
    def saved_bytes(self) -> int:
        return self.before_bytes - self.after_bytes


@dataclass
class MemoryAtPeak:
    """Every buffer live at the peak (see the module docstring)."""

    position: int
    instruction: str  # what runs at the peak position
    rows: list[PeakRow]  # biggest first
    total_bytes: int  # the rows' sum: arena_bytes + outside_bytes
    arena_bytes: int  # live arena bytes there (aligned)
    outside_bytes: int  # parameters and constants live there
    arena_peak_bytes: int  # the arena's size (the plan's peak_bytes: fragmentation included)
    positions: int
    computation: str = ""
    profile: list[int] = field(default_factory=list, repr=False)  # bytes live at each position, counted the same way
    suggestions: list[PeakSuggestion] | None = None  # None: not looked for

    def __str__(self) -> str:
        return at_peak_text(self)

    def _repr_html_(self) -> str:
        from ..viz.memory_peak_html import memory_peak_html

        return memory_peak_html(self)


def where(sources: tuple[Source, ...], limit: int | None = None) -> str:
    """`block.py:12, block.py:14` (past `limit` lines: `, +3 lines`)."""
    shown = sources if limit is None else sources[:limit]
    more = f", +{len(sources) - len(shown)} lines" if len(sources) > len(shown) else ""
    return ", ".join(f"{os.path.basename(f)}:{line}" for f, line in shown) + more


def position_totals(plan: MemoryPlan) -> list[int]:
    """Bytes live at each schedule position: aligned arena buffers plus parameters and constants."""
    n = max([len(plan.schedule)] + [b.end + 1 for b in plan.buffers])
    delta = [0] * (n + 1)
    for b in plan.buffers:
        counted = _counted(b, plan.alignment)
        delta[max(b.start, 0)] += counted
        delta[b.end + 1] -= counted
    totals, running = [], 0
    for d in delta[:n]:
        running += d
        totals.append(running)
    return totals


def _counted(b: Buffer, alignment: int) -> int:
    if b.kind in ARENA_KINDS:
        return 0 if b.offset is None else aligned(b.size, alignment)
    return b.size


def memory_at_peak(plan: MemoryPlan, module: HloModule | None = None) -> MemoryAtPeak:
    """What is live at the plan's peak, and why (`module` gives opcodes and source lines)."""
    totals = position_totals(plan)
    position = max(range(len(totals)), key=totals.__getitem__) if totals else 0
    names = _instructions(module)
    placed = {name: i for i, name in enumerate(plan.schedule)}
    last = len(plan.schedule) - 1
    rows = [_row(b, position, last, plan, names, placed, module) for b in plan.buffers if b.live_at(position)]
    rows.sort(key=lambda r: (-r.bytes, r.label))
    arena = sum(r.bytes for r in rows if r.kind in ARENA_KINDS)
    outside = sum(r.bytes for r in rows if r.kind not in ARENA_KINDS)
    at = plan.schedule[position] if position < len(plan.schedule) else ""
    return MemoryAtPeak(position, at, rows, arena + outside, arena, outside, plan.peak_bytes, len(totals),
                        plan.computation, totals)


def _instructions(module: HloModule | None) -> dict[str, Instruction]:
    if module is None:
        return {}
    return {inst.name: inst for _, inst in module.all_instructions()}


def _held_at(b: Buffer, position: int, placed: dict[str, int]) -> str:
    """The value the buffer holds at `position`: the last of its in-place values made by then."""
    held = b.values[0] if b.values else b.name
    for value in b.values:
        if placed.get(value.partition("{")[0], -1) <= position:
            held = value
    return held


def _row(b: Buffer, position: int, last: int, plan: MemoryPlan, names: dict[str, Instruction],
         placed: dict[str, int], module: HloModule | None) -> PeakRow:
    held = _held_at(b, position, placed)
    inst = names.get(held.partition("{")[0], b.instruction)
    user_name = plan.schedule[b.end] if b.end < len(plan.schedule) else None
    user = names.get(user_name) if user_name is not None else None
    why, lives_on = _why(b, held, position, last, user_name, user, module)
    return PeakRow(b.label, b.kind, _counted(b, plan.alignment), inst.name, inst.opcode, sources_of(module, inst),
                   why, None if lives_on else user_name, "" if lives_on or user is None else user.opcode,
                   () if lives_on or user is None else sources_of(module, user), b.start, b.end)


def _why(b: Buffer, held: str, position: int, last: int, user_name: str | None, user: Instruction | None,
         module: HloModule | None) -> tuple[str, bool]:
    """(why it is live, whether it lives to the end of the program)."""
    if b.kind == "parameter":
        return "a parameter: the caller's array for the whole call", True
    later = list(b.values[b.values.index(held) + 1:]) if held in b.values else []
    made = "made here; " if b.start == position else ""
    if later:  # the next value is the held one's last reader, writing over it in place
        then = "the result" if b.kind == "output" and b.end >= last else f"read last by {_reader(user_name, user, module)}"
        return f"{made}read by {later[0]}, which overwrites it in place ({' -> '.join(later)}; then {then})", False
    if b.kind == "output" and b.end >= last:
        into = f", written into parameter {b.donor}'s buffer (donated)" if b.donor else ""
        return f"{made}a result of the program (live to the end){into}", True
    text = f"read last by {_reader(user_name, user, module)} at position {b.end}"
    return made + ("a constant, " if b.kind == "constant" else "") + text, False


def _reader(name: str | None, user: Instruction | None, module: HloModule | None) -> str:
    """`dot.3 (dot, block.py:27)`."""
    if user is None:
        return str(name)
    line = where(sources_of(module, user), limit=2)
    return f"{name} ({user.opcode}{', ' + line if line else ''})"


def sources_of(module: HloModule | None, inst: Instruction | None) -> tuple[Source, ...]:
    """Source lines of an instruction, or of every instruction a fusion holds (in order, once each)."""
    if module is None or inst is None:
        return ()
    insts = [inst]
    calls = inst.attr("calls") if inst.opcode == "fusion" else None
    if isinstance(calls, str) and module.has_computation(calls):
        insts = [i for i in module.computation(calls) if i.opcode != "parameter"]
    found: list[Source] = []
    for i in insts:
        src = module.source_of(i)
        if src is not None and src[0] and (src[0], src[1]) not in found:
            found.append((src[0], src[1]))
    return tuple(found)


# ---- text ----
def at_peak_text(at: MemoryAtPeak, max_rows: int = 40) -> str:
    """The totals, the table biggest first, then the suggestions."""
    lines = [f"Memory at the peak of {at.computation}: {at.total_bytes:,} bytes live at position {at.position} "
             f"of {at.positions} ({at.instruction})",
             f"  arena {at.arena_bytes:,} (the arena's size: {at.arena_peak_bytes:,}) + parameters and constants "
             f"{at.outside_bytes:,}; {len(at.rows)} buffers",
             f"  {'bytes':>12} {'share':>6}  {'kind':<10} {'buffer':<28} {'made by':<48} why live"]
    for r in at.rows[:max_rows]:
        share = f"{100 * r.bytes / at.total_bytes:.1f}%" if at.total_bytes else "-"
        line = where(r.sources, limit=2)
        made = f"{r.instruction} ({r.opcode}{', ' + line if line else ''})"
        lines.append(f"  {r.bytes:>12,} {share:>6}  {r.kind:<10} {r.label:<28} {made:<48} {r.why}")
    if len(at.rows) > max_rows:
        rest = sum(r.bytes for r in at.rows[max_rows:])
        lines.append(f"  {rest:>12,}         ... {len(at.rows) - max_rows} more buffers")
    lines.append(f"  {at.total_bytes:>12,}  total")
    lines += suggestions_text(at.suggestions)
    return "\n".join(lines)


def suggestions_text(suggestions: list[PeakSuggestion] | None) -> list[str]:
    if suggestions is None:
        return []
    if not suggestions:
        return ["suggestions: none lowers the peak (donating an input, rematerializing a cheap value, reordering)"]
    lines = ["suggestions (each measured by planning the changed module again):"]
    for s in suggestions:
        lines.append(f"  {s.kind:<14} {s.before_bytes:,} -> {s.after_bytes:,} bytes "
                     f"(-{s.saved_bytes:,}): {s.what}")
    return lines
