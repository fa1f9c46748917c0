"""XLA's buffer assignment and live ranges as hloscope's MemoryPlan, so the memory chart, the
plan's text and the record's facts show XLA's plan exactly as they show hloscope's.

Every value XLA placed is one Buffer, live over XLA's range in the flattened schedule. XLA's
allocations that the runtime provides per run (outputs and temporaries) are laid end to end
in allocation order, so a value's offset is its allocation's start plus its offset inside it,
and `peak_bytes` (the arena) is their total: what hloscope's arena holds too (temporaries and
outputs), so the two compare directly. Parameters and constants are outside the arena, as in
hloscope's plan. XLA's offsets are aligned already, so the plan's own alignment is 1 (its
lower bound is then the most bytes XLA's values hold at one time). Thread-local allocations (values of computations a kernel calls per element)
never reach memory the runtime allocates and are left out.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..ir.module import HloModule
from ..memory import MemoryPlan
from ..memory.plan import Buffer
from .buffer_assignment import AllocatedValue, Allocation
from .errors import XlaDumpError
from .live_ranges import LiveRanges

ARENA_KINDS = ("output", "temporary")


@dataclass
class XlaMemoryPlan(MemoryPlan):
    """A MemoryPlan read from XLA's dump; also XLA's own numbers: `total_bytes` (every
    allocation, parameters included: the memory-usage report's "Total bytes") and the live
    bytes at XLA's peak position (`live_peak_bytes` at `live_peak_position`)."""

    total_bytes: int = 0
    live_peak_bytes: int = 0
    live_peak_position: int | None = None
    allocations: int = 0


def xla_memory_plan(module: HloModule, allocations: list[Allocation], live: LiveRanges, source: Path) -> XlaMemoryPlan:
    """The plan; `source` (the buffer-assignment file) is named if it does not fit `module`."""
    instructions = {inst.name: inst for _, inst in module.all_instructions()}
    last = max(len(live.sequence) - 1, 0)
    buffers: list[Buffer] = []
    base = 0
    for allocation in allocations:
        if allocation.kind == "thread-local":
            continue
        for value in allocation.values:
            if value.name not in instructions:
                raise XlaDumpError(f"{source}: allocation {allocation.index} holds {value.name!r}, which is not in "
                                   f"the optimized module {module.name} (a file of another module?)")
        in_arena = allocation.kind in ARENA_KINDS
        for group in _in_turn(allocation, live, last):
            first = group[0][0]
            buffers.append(Buffer(first.name, instructions[first.name], allocation.kind, max(v.size for v, _ in group),
                                  min(r[0] for _, r in group), max(r[1] for _, r in group),
                                  base + first.offset if in_arena else None, tuple(v.label for v, _ in group),
                                  index=first.index))
        if in_arena:
            base += allocation.size
    naive = sum(v.size for a in allocations if a.kind in ARENA_KINDS for v in a.values)
    plan = XlaMemoryPlan(module.entry_computation.name, list(live.sequence), buffers, base, naive, 1,
                         total_bytes=sum(a.size for a in allocations), live_peak_bytes=live.peak_bytes,
                         live_peak_position=live.peak_position, allocations=len(allocations))
    plan._index = {}
    for b in buffers:
        for value in b.values:
            plan._index.setdefault(value.partition("{")[0], b)
    return plan


def _in_turn(allocation: Allocation, live: LiveRanges, last: int) -> list[list[tuple[AllocatedValue, tuple[int, int]]]]:
    """The allocation's values grouped into buffers: values at one offset whose live ranges
    overlap or touch share the memory in turn (a loop's values, an output written in place)
    and are one buffer, as hloscope's plan keeps the values that reuse one buffer."""
    ranged = sorted(((v, _range(v, live, last)) for v in allocation.values), key=lambda vr: (vr[0].offset, vr[1]))
    groups: list[list[tuple[AllocatedValue, tuple[int, int]]]] = []
    for value, span in ranged:
        group = groups[-1] if groups else None
        if group is not None and group[0][0].offset == value.offset and span[0] <= max(r[1] for _, r in group):
            group.append((value, span))
        else:
            groups.append([(value, span)])
    return groups


def _range(value: AllocatedValue, live: LiveRanges, last: int) -> tuple[int, int]:
    """XLA's live range of the value; one it has none for (a parameter XLA did not list) is
    live throughout. `max` (the end of the program) is the last position."""
    start, end = live.ranges.get(value.key, (0, last))
    return min(start, last), min(end, last)
