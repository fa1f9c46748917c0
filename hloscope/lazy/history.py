"""The record of every step run: what the explorer's lazy view and the diff read.

A `StepRecord` says how a step started (`mark_step` or an implicit sync and its line),
whether its graph hit the cache, how long cutting, compiling and running took, how big the
graph was, and the graph itself as a listing (one line per node: `%3 = tanh(%2) f32[8,16]`).
Its `compilation` is the full `Compilation` record of the program that ran (shared by every
step that hit the same cache entry), so any view of a compile is one click away. A record
holds it weakly: the graph cache (64 programs) decides how long compilations live, so a loop
that recompiles every step does not keep every program alive; an evicted step's
`compilation` and `module` are None.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..compilation.record import Compilation
    from ..ir.module import HloModule


@dataclass(frozen=True)
class NodeLine:
    """One node of a step graph as the listing and the diff see it."""

    number: int
    op: str  # "data" for a parameter, else the numpy call's name
    inputs: tuple[str, ...]  # "%2", "%4.1" (output 1 of node 4)
    aval: str  # f32[8,16] (the first output's, for multi-output calls "(f32[2], f32[2])")
    static: str  # the static arguments, shortened
    source: str  # file:line where the call was written

    def text(self) -> str:
        args = ", ".join(self.inputs)
        static = f" [{self.static}]" if self.static else ""
        where = f"  # {self.source}" if self.source else ""
        return f"%{self.number} = {self.op}({args}){static} : {self.aval}{where}"


@dataclass
class StepRecord:
    """One executed step (see the module docstring)."""

    index: int
    trigger: str  # "mark_step", or the implicit read (".item()", "str() or print()")
    source: str  # the user's line that triggered it
    cache_hit: bool
    key_digest: str
    graph_size: int
    parameters: int
    outputs: int
    aliases: list[tuple[int, int]]  # (output index, parameter number) updated in place
    listing: list[NodeLine]
    cut_s: float = 0.0
    compile_s: float = 0.0
    run_s: float = 0.0
    entry: Any = None  # the cache entry that ran (held weakly; see the module docstring)
    why: Any = None  # a step that compiled: why (why.py's StepMissReason)
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self):
        if self.entry is not None and not isinstance(self.entry, weakref.ref):
            self.entry = weakref.ref(self.entry)

    @property
    def module(self) -> "HloModule | None":
        entry = self.entry() if self.entry is not None else None
        return entry.module if entry is not None else None

    @property
    def compilation(self) -> "Compilation | None":
        entry = self.entry() if self.entry is not None else None
        return entry.compilation if entry is not None else None

    @property
    def implicit(self) -> bool:
        return self.trigger != "mark_step"

    def summary(self) -> str:
        what = "cache hit" if self.cache_hit else f"compiled in {self.compile_s * 1e3:.1f} ms"
        if self.why is not None and self.why.causes:
            what += f" ({'; '.join(self.why.causes)})"
        sync = f", implicit sync at {self.source}" if self.implicit else ""
        return (f"step {self.index}: {what}, ran in {self.run_s * 1e3:.2f} ms, {self.graph_size} nodes "
                f"({self.parameters} in, {self.outputs} out, {len(self.aliases)} in place){sync}")

    def graph_text(self) -> str:
        return "\n".join(line.text() for line in self.listing)

    def _hloscope_explore_(self, *args, run: bool = True, **options):
        """hloscope.explore(step): the lazy view of this one step."""
        return StepHistory([self])._hloscope_explore_(*args, run=run, **options)


class StepHistory(list):
    """Steps, oldest first, as `steps()` returns them: a list (slices stay one) that
    hloscope.explore shows as the lazy view: timeline, graphs, each compilation."""

    def __getitem__(self, index):
        got = super().__getitem__(index)
        return StepHistory(got) if isinstance(index, slice) else got

    def _hloscope_explore_(self, *args, run: bool = True, **options):
        from ..jupyter.panels.lazy_steps import LazyStepsView

        return LazyStepsView(self)


_STEPS: list[StepRecord] = []
_LIMIT = 2_000  # a long loop keeps its latest steps


def add(record: StepRecord) -> None:
    _STEPS.append(record)
    if len(_STEPS) > _LIMIT:
        del _STEPS[: len(_STEPS) - _LIMIT]


def last() -> StepRecord | None:
    return _STEPS[-1] if _STEPS else None


def steps() -> StepHistory:
    """Every recorded step, oldest first."""
    return StepHistory(_STEPS)


def clear() -> None:
    _STEPS.clear()


def next_index() -> int:
    return _STEPS[-1].index + 1 if _STEPS else 0
