"""Buffer assignment: where every array of the entry computation lives in memory
(XLA's BufferAssigner with a sequential order, xla/service/buffer_assignment.cc).

Three steps, each a file of this package:

1. values.py   which instructions make a new buffer, which alias one, which may overwrite
               an operand in place;
2. liveness.py when each buffer is needed, in schedule order;
3. heap.py     one arena for every temporary and output, packed best-fit, largest first.

Parameters come from the caller and constants are static data, so neither is placed in
the arena, but both are listed. Outputs are in the arena (the runtime copies them out),
except an output written into a donated parameter's buffer (`input_output_alias`,
donated.py): it takes no arena bytes, and its Buffer names the parameter (`donor`).
Values inside fused computations never reach memory at all: that is what fusion is for.

    plan = plan_memory(module)
    plan.peak_bytes          the arena's size
    plan.naive_bytes         what a buffer per value would need
    plan.by_instruction("exp.1").offset
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..ir.instruction import Instruction
from ..ir.module import HloModule
from .donated import donated_outputs
from .heap import Interval, aligned, best_fit
from .liveness import Storage, analyze, live_profile, schedule_of
from .report import plan_text

ALIGNMENT = 64
ARENA_KINDS = ("temporary", "output")


@dataclass
class Buffer:
    """One allocation: the values that occupy it in turn, where, and when."""

    name: str  # the instruction that defines it first
    instruction: Instruction
    kind: str  # parameter | constant | output | temporary
    size: int
    start: int  # schedule positions, inclusive
    end: int
    offset: int | None = None  # in the arena; None for parameters and constants
    values: tuple[str, ...] = ()  # instructions whose results it holds, in order
    aliases: tuple[str, ...] = ()  # instructions that only point into it (bitcast, tuple...)
    in_place_of: dict[str, str] = field(default_factory=dict)  # value -> operand it overwrote
    index: tuple[int, ...] = ()  # the element of a tuple-shaped result it holds, as in XLA's `fusion{1}`
    donor: str | None = None  # an output written into this parameter's buffer (input_output_alias): not in the arena

    @property
    def label(self) -> str:
        return self.name + ("{" + ",".join(map(str, self.index)) + "}" if self.index else "")

    @property
    def in_arena(self) -> bool:
        return self.offset is not None

    def live_at(self, position: int) -> bool:
        return self.start <= position <= self.end


@dataclass
class MemoryPlan:
    """The buffer assignment of one module's entry computation."""

    computation: str
    schedule: list[str]
    buffers: list[Buffer]
    peak_bytes: int  # the arena size
    naive_bytes: int  # every value its own (aligned) buffer, nothing shared
    alignment: int = ALIGNMENT
    _index: dict[str, Buffer] = field(default_factory=dict, repr=False)

    def by_instruction(self, name: str) -> Buffer | None:
        """The buffer holding the value of instruction `name` (for an alias, the buffer it
        points into; for a tuple, its first element's)."""
        return self._index.get(name)

    def live_at(self, position: int) -> list[Buffer]:
        """Buffers live at a schedule position."""
        return [b for b in self.buffers if b.live_at(position)]

    @property
    def live_bytes(self) -> list[int]:
        """Arena bytes live at each schedule position (aligned, what the heap must hold)."""
        return live_profile([_as_storage(b, self.alignment) for b in self.buffers], len(self.schedule), ARENA_KINDS)

    @property
    def min_bytes(self) -> int:
        """The lower bound on the arena: the most bytes live at one time (XLA's
        NoFragmentationStatsHeap). `peak_bytes - min_bytes` is fragmentation."""
        return max(self.live_bytes, default=0)

    def __str__(self) -> str:
        return plan_text(self)

    def _repr_html_(self) -> str:
        """The chart of buffers over the schedule, the peak marked, and the table behind it."""
        # Imported only when Jupyter asks: viz is a layer above memory and imports it.
        from ..viz.memory_chart import memory_plan_html

        return memory_plan_html(self)


def _as_storage(b: Buffer, alignment: int) -> Storage:
    kind = "donated" if b.donor is not None else b.kind  # in the parameter's bytes, not the arena's
    return Storage(0, b.name, aligned(b.size, alignment), b.start, b.end, kind)


def plan_memory(module: HloModule, alignment: int = ALIGNMENT, in_place: bool = True) -> MemoryPlan:
    """Liveness, in-place reuse and best-fit placement for the entry computation."""
    comp = module.entry_computation
    order = schedule_of(comp, module.is_scheduled)
    storages, where = analyze(comp, order, module, in_place=in_place)
    donated = donated_outputs(comp, order, storages, where, module)
    placed = {s.id for s in storages if s.kind in ARENA_KINDS and s.id not in donated}
    arena = [Interval(s.id, s.start, s.end, s.size) for s in storages if s.id in placed and s.size > 0]
    offsets, peak = best_fit(arena, alignment)
    buffers = [_buffer(s, comp[s.name], offsets.get(s.id, 0) if s.id in placed else None, donated.get(s.id))
               for s in storages]
    naive = sum(aligned(b.size, alignment) for s, b in zip(storages, buffers) if s.kind in ARENA_KINDS
                for _ in s.values)
    plan = MemoryPlan(comp.name, order, buffers, peak, naive, alignment)
    by_id = {s.id: b for s, b in zip(storages, buffers)}
    plan._index = {name: by_id[ids[0]] for name, ids in where.items() if ids}
    return plan


def _buffer(s: Storage, inst: Instruction, offset: int | None, donor: str | None) -> Buffer:
    return Buffer(s.name, inst, s.kind, s.size, s.start, s.end, offset, tuple(s.values), tuple(s.aliases),
                  dict(s.in_place_of), s.index, donor)
