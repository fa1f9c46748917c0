"""Why a step compiled: its graph compared with the step before, the causes in words, and
how to avoid them (the questions torch_xla users answer with a debug mode and a metrics dump).

The previous step's graph is the one a loop should have reused. `diff_steps` aligns the two
graphs and keeps the changes no changed input explains (diff.py); each such root change is a
cause, said with the user's line, and its kind says what helps:

    static   a Python number (a learning rate that decays, a step counter) is part of the
             graph as a constant: lz.tensor(value) makes it device data, an input
    shape    an input of another size (the last, smaller batch): fixed sizes or buckets
    dtype    an input of another dtype: convert it once, outside the loop
    op       other operations: a graph that grows step after step lacks a mark_step in the
             loop; one cut elsewhere had an implicit sync (print, .item()) move
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .diff import Change, diff_steps
from .history import StepRecord


@dataclass(frozen=True)
class StepMissReason:
    """Why one step compiled (StepRecord.why)."""

    compared_with: int | None  # the step whose graph it was compared with (None: the first)
    causes: tuple[str, ...]  # each root change in words
    advice: tuple[str, ...]
    kinds: tuple[tuple[str, str, str], ...] = field(default=())  # (kind, user's line, tip) per cause: metrics

    def text(self) -> str:
        if self.compared_with is None:
            return "the first step: nothing compiled yet"
        lines = [f"compared with step {self.compared_with}: " + ("; ".join(self.causes) or "the same graph")]
        return "\n".join(lines + [f"  avoid: {a}" for a in self.advice])


def explain_step(record: StepRecord, previous: StepRecord | None, cache_limit: int,
                 growing: bool = False) -> StepMissReason:
    """The reason `record` (a step that missed the graph cache) compiled."""
    if previous is None:
        return StepMissReason(None, (), ())
    diff = diff_steps(previous, record)
    causes = diff.causes
    if not diff.changes:
        same = (f"the graph of step {previous.index} again: its program was evicted from the graph cache "
                f"(it keeps {cache_limit}), or the two differ only in outputs or in-place updates",)
        return StepMissReason(previous.index, same, ())
    advice: list[str] = []
    for change in causes:
        tip = _tip(change, growing)
        if tip and tip not in advice:
            advice.append(tip)
    kinds = tuple((c.kind, _where(c), _tip(c, growing)) for c in causes)
    return StepMissReason(previous.index, _grouped(causes), tuple(advice), kinds)


def _grouped(causes: list[Change]) -> tuple[str, ...]:
    """Each cause in words; the same change at many nodes (one per parameter of an update
    loop) said once, with how many nodes it changed."""
    counts: dict[str, int] = {}
    for c in causes:
        text = c.text()
        text = text.split(" = ", 1)[1] if text.startswith("%") and " = " in text else text
        counts[text] = counts.get(text, 0) + 1
    return tuple(text + (f" ({n} nodes)" if n > 1 else "") for text, n in counts.items())


def _where(change: Change) -> str:
    line = change.after or change.before
    return line.source if line is not None and line.source else "?"


def _tip(change: Change, growing: bool) -> str:
    where = _where(change)
    if change.kind == "static":
        return (f"a Python number at {where} is part of the step graph (Python ints, 0.0 and 1.0 stay constants; "
                "other floats become data), so each new value compiles a new program: fold it into one Python "
                "float that is never 0.0 or 1.0 (lr / (step + 1)), or make it device data with lz.tensor(value)")
    if change.kind == "shape":
        return (f"an input changed shape ({where or 'a data node'}): keep sizes fixed (drop or pad the last "
                "smaller batch) or pad to a few bucket sizes")
    if change.kind == "dtype":
        return f"an input changed dtype ({where}): convert it once, before the loop"
    if growing:
        return ("the step graph grows from step to step: call lz.mark_step() at the end of every iteration, "
                "so each step's graph is the same")
    return ("the step's operations changed: if an implicit sync (print, .item(), a Python `if` on a tensor) "
            "cuts the graph at a different place, move it after lz.mark_step()")
