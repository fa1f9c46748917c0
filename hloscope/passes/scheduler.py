"""hlo-memory-scheduler: choose the order instructions run in, to keep memory low (XLA's
HloMemoryScheduler with its ListScheduler, xla/service/hlo_memory_scheduler.cc).

Any order that puts operands first computes the same result, but not with the same memory:
a value occupies its buffer from its definition to its last use, so the order decides how
many buffers are alive at once. The list scheduler builds the order one instruction at a
time. Of the instructions whose operands are all done (the ready list) it takes the one
that frees the most bytes (operands it is the last reader of) minus the bytes it allocates;
ties go to the instruction that comes first in the given order.

    a = exp(p)   b = log(p)   ra = reduce(a)   rb = reduce(b)   ROOT s = add(ra, rb)
    written order  a b ra rb s:  a and b are alive together       (2 big arrays at once)
    scheduled      a ra b rb s:  ra frees a before b is made      (1 big array at a time)

After it runs, the module is `is_scheduled=true` and each computation's instruction order IS
its schedule (fused computations are not scheduled: they run as one loop).
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

from ..ir.computation import Computation
from ..ir.module import HloModule
from ..memory.liveness import analyze, live_profile
from ..memory.values import OUTSIDE, alias_sources, aliases, shape_bytes
from .pipeline import HloPass
from .record import DecisionLog


class _ListScheduler:
    """The ready list with priorities that change as operands lose their last readers."""

    def __init__(self, comp: Computation):
        self.comp, self.index = comp, {i.name: n for n, i in enumerate(comp.instructions)}
        self.buffers: dict[str, list[str]] = {}
        for inst in comp.post_order():
            self.buffers[inst.name] = self._buffers(inst)
        deps = {i.name: set(i.operands) | set(i.control_predecessors) for i in comp}
        self.waiting = {n: len(d) for n, d in deps.items()}
        self.successors: dict[str, list[str]] = {n: [] for n in deps}
        for n, d in deps.items():
            for dep in d:
                self.successors[dep].append(n)
        self.readers: dict[str, set[str]] = {}  # buffer -> instructions still to read it
        for i in comp:
            for b in self._read(i.name):
                self.readers.setdefault(b, set()).add(i.name)
        self.pinned = set(self.buffers[comp.root]) | {i.name for i in comp if i.opcode in OUTSIDE}

    def _buffers(self, inst) -> list[str]:
        """The buffers an instruction's value lives in (its own, or the ones it aliases)."""
        if aliases(inst, self.comp):
            return sorted({b for o in alias_sources(inst, self.comp) for b in self.buffers[o]})
        return [inst.name]

    def _read(self, name: str) -> set[str]:
        return {b for o in self.comp[name].operands for b in self.buffers[o]}

    def priority(self, name: str) -> float:
        """Bytes freed minus bytes allocated by running `name` now (parameters go first)."""
        inst = self.comp[name]
        if inst.opcode == "parameter":
            return float("inf")
        allocates = self.buffers[name] == [name] and inst.opcode not in OUTSIDE
        defined = shape_bytes(inst.shape) if allocates else 0
        freed = sum(shape_bytes(self.comp[b].shape) for b in self._read(name)
                    if b not in self.pinned and self.readers[b] == {name})
        return freed - defined

    def run(self) -> tuple[list[str], list[tuple[str, str, float]]]:
        """The schedule, and the choice points (chosen, the instruction the given order had
        next, the chosen one's priority) where it left the given order."""
        self.ready: list = []  # (-priority, index, name): best first
        self.by_index: list = []  # (index, name): the given order's next ready instruction
        self.done: set[str] = set()
        for name, waiting in self.waiting.items():
            if waiting == 0:
                self._push(name)
        order, choices = [], []
        while self.ready:
            key, _, name = heapq.heappop(self.ready)
            if name in self.done:
                continue
            while self.by_index[0][1] in self.done:
                heapq.heappop(self.by_index)
            if self.by_index[0][1] != name and self.comp[name].opcode not in OUTSIDE:
                choices.append((name, self.by_index[0][1], -key))
            self.done.add(name)
            order.append(name)
            self._retire(name)
        return order, choices

    def _push(self, name: str, by_index: bool = True) -> None:
        heapq.heappush(self.ready, (-self.priority(name), self.index[name], name))
        if by_index:
            heapq.heappush(self.by_index, (self.index[name], name))

    def _retire(self, name: str) -> None:
        """Run `name`: buffers lose a pending reader, successors may become ready."""
        for b in self._read(name):
            self.readers[b].discard(name)
            if len(self.readers[b]) == 1:  # its last reader would now free it: re-rank that one
                last = next(iter(self.readers[b]))
                if self.waiting[last] == 0 and last not in self.done:
                    self._push(last, by_index=False)
        for user in self.successors[name]:
            self.waiting[user] -= 1
            if self.waiting[user] == 0:
                self._push(user)


def list_schedule(comp: Computation) -> list[str]:
    """The list scheduler's order of `comp`, ties broken by its instruction order (the start)."""
    return _ListScheduler(comp).run()[0]


def peak_bytes(comp: Computation, order: list[str], module: HloModule | None = None) -> int:
    """The most temporary and output bytes alive at once in this order, counting in-place
    reuse (the lower bound of the arena that plan_memory builds)."""
    storages, _ = analyze(comp, order, module)
    return max(live_profile(storages, len(order)), default=0)


@dataclass
class MemoryScheduler(HloPass):
    """Memory scheduler: order each computation to keep few buffers alive at once.

    A list scheduler (XLA's ListScheduler): among the instructions whose operands are done,
    run the one that frees the most bytes minus the bytes it allocates; ties keep the given
    order. Every computation except fused ones is scheduled, and the module is marked
    is_scheduled=true: from then on the instruction order of a computation is its schedule.
    The log gives each computation's peak live bytes before and after, and the first places
    where the scheduler chose differently from the given order.
    """

    name = "hlo-memory-scheduler"
    max_logged_choices: int = 5

    def run(self, module: HloModule, log: DecisionLog) -> HloModule:
        fused = {i.attr("calls") for c in module.computations for i in c if i.opcode == "fusion"}
        comps = [c if c.name in fused else self._schedule(module, c, log) for c in module.computations]
        if module.is_scheduled and all(a is b for a, b in zip(comps, module.computations)):
            return module
        attrs = {"is_scheduled": True, **{k: v for k, v in module.attrs.items() if k != "is_scheduled"}}
        return module.replace(computations=tuple(comps), attrs=attrs)

    def _schedule(self, module: HloModule, comp: Computation, log: DecisionLog) -> Computation:
        """The list schedule, unless the given order (made valid) needs no more memory:
        like XLA's DefaultMemoryScheduler, keep the better of the candidates."""
        given = [i.name for i in comp.post_order()]
        order, choices = _ListScheduler(comp).run()
        before, after = peak_bytes(comp, given, module), peak_bytes(comp, order, module)
        if after >= before:
            order, after = given, before
        if order is not given:
            for name, instead, gain in choices[: self.max_logged_choices]:
                effect = (f"frees {gain:,.0f} bytes net" if gain >= 0
                          else f"allocates {-gain:,.0f} bytes net, the least of the ready ones")
                log.add("scheduled", name, f"it {effect}; the given order ran {instead} first", target=instead,
                        rule="list_scheduler", computation=comp.name)
        if order is not given or choices or comp.name == module.entry:
            which = (f"list schedule, {len(choices)} choices differ from the given order" if order is not given
                     else f"given order kept, the list schedule ({len(choices)} other choices) was no better")
            log.add("scheduled", comp.name, f"{len(order)} instructions, {which}; peak live bytes "
                    f"{before:,} -> {after:,}", rule="list_scheduler", computation=comp.name)
        if order == [i.name for i in comp.instructions]:
            return comp
        return comp.replace(tuple(comp[n] for n in order))
