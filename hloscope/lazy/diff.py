"""What changed between the graphs of two steps: why the second one missed the cache.

The listings are aligned node by node (by operation and wiring, so an inserted operation
shifts nothing after it), then each aligned pair is compared:

    shape    a node's shape changed (a data node: an input of another size; the batch)
    dtype    a node's dtype changed (f32 -> f64: often a float64 numpy array mixed in)
    static   a static argument changed (an axis, a Python number such as a learning rate)
    op       a node is only in one graph, or does another operation

A changed input changes everything computed from it; `causes` are the changes not explained
by an input that changed (what to fix), and `summary()` names them first.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from .history import NodeLine, StepRecord


@dataclass(frozen=True)
class Change:
    kind: str  # "shape", "dtype", "static", "op"
    before: NodeLine | None
    after: NodeLine | None
    cause: bool  # not explained by a change of one of its inputs

    def text(self) -> str:
        a, b = self.before, self.after
        if self.kind == "op":
            if a is None and b is not None:
                return f"added %{b.number} = {b.op} : {b.aval}" + (f" at {b.source}" if b.source else "")
            if b is None and a is not None:
                return f"removed %{a.number} = {a.op} : {a.aval}" + (f" at {a.source}" if a.source else "")
        assert a is not None and b is not None
        where = f" at {b.source}" if b.source else (" (an input)" if b.op == "data" else "")
        if self.kind == "op":
            return f"%{b.number}: {a.op} became {b.op}{where}"
        if self.kind == "static":
            return f"%{b.number} = {b.op}: static arguments [{a.static}] -> [{b.static}]{where}"
        return f"%{b.number} = {b.op}: {self.kind} {a.aval} -> {b.aval}{where}"


@dataclass
class StepDiff:
    """The changes between two steps' graphs (hloscope.viz.diff's GraphDiff compares two HLO modules)."""

    before: StepRecord
    after: StepRecord
    changes: list[Change]

    @property
    def causes(self) -> list[Change]:
        return [c for c in self.changes if c.cause]

    def summary(self) -> str:
        if not self.changes:
            same = self.before.key_digest == self.after.key_digest
            return "the two graphs are the same" + ("" if same else " node by node (outputs or in-place updates differ)")
        lines = [f"step {self.after.index} vs step {self.before.index}: {len(self.causes)} change(s) at the root"
                 f" ({len(self.changes) - len(self.causes)} more follow from them)"]
        lines += ["  " + c.text() for c in self.causes]
        return "\n".join(lines)


def _align_key(line: NodeLine) -> tuple:
    return (line.op, len(line.inputs)) if line.op == "data" else (line.op, line.inputs)


def _dims(aval: str) -> str:
    return aval[aval.find("["):] if "[" in aval else aval


def _dtype(aval: str) -> str:
    return aval.split("[", 1)[0]


def diff_steps(before: StepRecord, after: StepRecord) -> StepDiff:
    """The changes from `before`'s graph to `after`'s (see the module docstring)."""
    a, b = before.listing, after.listing
    matcher = difflib.SequenceMatcher(a=[_align_key(x) for x in a], b=[_align_key(x) for x in b], autojunk=False)
    changes: list[Change] = []
    changed: set[int] = set()  # node numbers in `after` whose value changed

    def inputs_changed(line: NodeLine) -> bool:
        return any(int(i[1:].split(".")[0]) in changed for i in line.inputs)

    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            for x, y in zip(a[i1:i2], b[j1:j2]):
                kinds = []
                if _dtype(x.aval) != _dtype(y.aval):
                    kinds.append("dtype")
                if _dims(x.aval) != _dims(y.aval):
                    kinds.append("shape")
                if x.static != y.static:
                    kinds.append("static")
                if kinds:
                    explained = inputs_changed(y)
                    for kind in kinds:
                        cause = not explained or kind == "static" and not _static_follows_shape(x, y)
                        changes.append(Change(kind, x, y, cause))
                    changed.add(y.number)
            continue
        olds, news = a[i1:i2], b[j1:j2]
        for k in range(max(len(olds), len(news))):
            x = olds[k] if k < len(olds) else None
            y = news[k] if k < len(news) else None
            changes.append(Change("op", x, y, cause=True))
            if y is not None:
                changed.add(y.number)
    return StepDiff(before, after, changes)


def _static_follows_shape(x: NodeLine, y: NodeLine) -> bool:
    """A reshape's sizes that change with its input's shape (a batch dimension) follow it."""
    return _dims(x.aval) != _dims(y.aval)
