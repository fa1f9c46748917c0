"""Stream assignment: independent kernels on separate streams, with the events they wait on.

Like XLA's stream_assignment.cc: build the dependency DAG of the top-level steps, then walk
them in launch order and give each a stream greedily:

    - a stream whose last thunk is an ancestor of this one (reusing it serializes nothing
      that could have overlapped), the lowest such stream first;
    - else a new stream, up to `max_streams`;
    - else the stream with the fewest thunks.

Then each thunk waits, per other stream, on the event of its latest dependency there.

A step depends on an earlier one when their memory accesses conflict: one writes bytes
the other reads or writes (read-after-write, write-after-read, write-after-write). A kernel
writes its instruction's result (arena buffers named after it, or its scratch) and any
output; everything else it touches it reads. Arena bytes are compared as intervals, so a
temporary the memory plan reused orders its old readers before its new writer. Parameters
and constants are only read: two kernels reading the same weight may overlap. Kernels of one
instruction stay in order. A loop or conditional is driven by the host: it waits for
everything before it and everything after waits for it (stream 0).
"""

from __future__ import annotations

from bisect import bisect_left, insort
from dataclasses import dataclass, field

from ...runtime.thunks import Thunk, ThunkSequence
from ..buffers import ArrayStorage
from .program import Conditional, DeviceCopy, KernelLaunch, Step, WhileLoop, listing

MAX_STREAMS = 4  # a handful: more streams rarely find more independent work


def is_host_driven(step: Step) -> bool:
    return isinstance(step, (WhileLoop, Conditional))


def accesses(step: Step, instruction_of: dict[str, str]) -> tuple[list[ArrayStorage], list[ArrayStorage]]:
    """(read, written) buffers of a top-level kernel or copy (see the module docstring)."""
    if isinstance(step, DeviceCopy):
        return ([] if step.src is None else [step.src]), [step.dst]
    if not isinstance(step, KernelLaunch):
        return [], []
    inst = instruction_of.get(step.name)
    read, written = [], []
    for b in step.buffers:
        writes = b.kind == "output" or (b.kind == "arena" and (
            inst is None or b.value == inst or b.value.startswith(inst + ".")))
        (written if writes else read).append(b)
    return read, written


@dataclass
class Region:
    """The accesses so far to one buffer's bytes: its last writer, and readers since."""

    writer: int | None = None
    readers: list[int] = field(default_factory=list)


class Hazards:
    """Memory regions and who touched them; finds the steps a new access conflicts with."""

    def __init__(self):
        self.regions: dict[tuple, Region] = {}
        self.starts: list[tuple[int, int, tuple]] = []  # arena regions by start: (start, end, key)
        self.widest = 0

    @staticmethod
    def key(b: ArrayStorage) -> tuple:
        return (b.kind, b.slot, b.size) if b.kind == "arena" else (b.kind, b.slot, b.value)

    def overlapping(self, b: ArrayStorage) -> list[Region]:
        if b.kind != "arena":
            region = self.regions.get(self.key(b))
            return [region] if region else []
        end = b.slot + b.size
        first = bisect_left(self.starts, (b.slot - self.widest,))
        found = []
        for start, stop, key in self.starts[first:]:
            if start >= end:
                break
            if stop > b.slot:
                found.append(self.regions[key])
        return found

    def conflicts(self, read: list[ArrayStorage], written: list[ArrayStorage]) -> set[int]:
        deps: set[int] = set()
        for b in read + written:
            for region in self.overlapping(b):
                if region.writer is not None:
                    deps.add(region.writer)
                if b in written:
                    deps.update(region.readers)
        return deps

    def record(self, i: int, read: list[ArrayStorage], written: list[ArrayStorage]) -> None:
        for b in read + written:
            k = self.key(b)
            if k not in self.regions:
                self.regions[k] = Region()
                if b.kind == "arena":
                    insort(self.starts, (b.slot, b.slot + b.size, k))
                    self.widest = max(self.widest, b.size)
            region = self.regions[k]
            if b in written:
                region.writer, region.readers = i, []
            else:
                region.readers.append(i)


def dependencies(steps: tuple, instruction_of: dict[str, str] | None = None) -> list[set[int]]:
    """For each top-level step, the earlier steps it must wait for."""
    instruction_of = instruction_of or {}
    hazards = Hazards()
    deps: list[set[int]] = []
    barrier, since_barrier = None, []  # the last host-driven step, the steps after it
    last_of: dict[str, int] = {}  # instruction -> its latest kernel
    for i, step in enumerate(steps):
        if is_host_driven(step):
            deps.append(set(since_barrier) | ({barrier} if barrier is not None else set()))
            barrier, since_barrier = i, []
            continue
        read, written = accesses(step, instruction_of)
        found = hazards.conflicts(read, written) | ({barrier} if barrier is not None else set())
        inst = instruction_of.get(getattr(step, "name", ""))
        if inst in last_of:
            found.add(last_of[inst])
        if inst:
            last_of[inst] = i
        hazards.record(i, read, written)
        deps.append(found)
        since_barrier.append(i)
    return deps


def ancestors(deps: list[set[int]]) -> list[int]:
    """Transitive closure of the dependencies, as bit sets (bit j: step j comes first)."""
    closed: list[int] = []
    for direct in deps:
        bits = 0
        for j in direct:
            bits |= closed[j] | (1 << j)
        closed.append(bits)
    return closed


def assign(steps: tuple, max_streams: int = MAX_STREAMS, instruction_of: dict[str, str] | None = None,
           deps: list[set[int]] | None = None) -> list[int]:
    """A stream per top-level step (the greedy rule in the module docstring)."""
    deps = deps if deps is not None else dependencies(steps, instruction_of)
    before = ancestors(deps)
    tails: list[int | None] = []  # per stream: its last step so far
    counts: list[int] = []
    chosen: list[int] = []
    for i, step in enumerate(steps):
        free = [s for s, tail in enumerate(tails) if tail is None or (before[i] >> tail) & 1]
        if is_host_driven(step):
            stream = 0
        elif free:
            stream = free[0]
        elif len(tails) < max_streams:
            stream = len(tails)
        else:
            stream = min(range(len(tails)), key=lambda s: counts[s])
        while len(tails) <= stream:
            tails.append(None)
            counts.append(0)
        tails[stream], counts[stream] = i, counts[stream] + 1
        chosen.append(stream)
    return chosen


def waits(deps: list[set[int]], streams: list[int]) -> list[tuple[int, ...]]:
    """Per step: on each other stream, only the latest dependency (the earlier ones are
    ordered before it on that stream already)."""
    out = []
    for i, direct in enumerate(deps):
        latest: dict[int, int] = {}
        for j in direct:
            if streams[j] != streams[i]:
                latest[streams[j]] = max(latest.get(streams[j], -1), j)
        out.append(tuple(sorted(latest.values())))
    return out


def thunk_sequence(steps: tuple, instruction_of: dict[str, str], max_streams: int = MAX_STREAMS,
                   arena_bytes: int = 0) -> ThunkSequence:
    """The program's thunks in launch order with streams and events; nested steps follow
    their loop or conditional on stream 0."""
    deps = dependencies(steps, instruction_of)
    streams = assign(steps, max_streams, deps=deps)
    thunks: list[Thunk] = []
    index_of: list[int] = []  # top-level step -> its thunk's index
    for step, stream, wait in zip(steps, streams, waits(deps, streams)):
        index_of.append(len(thunks))
        thunks.append(_thunk(step, len(thunks), stream, tuple(index_of[w] for w in wait), 0, instruction_of))
        _add_nested(thunks, step, 1, instruction_of)
    return ThunkSequence(tuple(thunks), max_streams, arena_bytes)


def _add_nested(thunks: list[Thunk], step: Step, depth: int, instruction_of: dict) -> None:
    for nested in _nested_steps(step):
        thunks.append(_thunk(nested, len(thunks), 0, (), depth, instruction_of))
        _add_nested(thunks, nested, depth + 1, instruction_of)


def _nested_steps(step: Step) -> list[Step]:
    if isinstance(step, WhileLoop):
        return [*step.init, *step.condition, *step.body, *step.update]
    if isinstance(step, Conditional):
        return [s for branch in step.branches for s in branch]
    return []


def _thunk(step: Step, index: int, stream: int, wait: tuple, depth: int, instruction_of: dict) -> Thunk:
    if isinstance(step, KernelLaunch):
        g, b = step.grid, step.block
        return Thunk(index, "kernel", step.name, instruction_of.get(step.name, ""), stream, wait,
                     tuple(x.describe() for x in step.buffers),
                     f"grid=({g[0]},{g[1]},{g[2]}) block=({b[0]},{b[1]},{b[2]})", depth)
    if isinstance(step, DeviceCopy):
        source = f"constant {step.constant}" if step.src is None else step.src.describe()
        buffers = (step.dst.describe(),) + (() if step.src is None else (step.src.describe(),))
        return Thunk(index, "copy", f"{source} -> {step.dst.describe()}", step.dst.value, stream, wait, buffers,
                     "", depth, step.dst.size)
    kind = "while" if isinstance(step, WhileLoop) else "conditional"
    assert isinstance(step, (WhileLoop, Conditional))
    return Thunk(index, kind, listing([step])[0], step.instruction, stream, wait, (), "", depth)
