"""`WhatIf`: an experiment's result. Both records, the delta table, the graph diff, and which
pass decisions changed and why; it prints as text and draws itself as HTML.

    w = hloscope.whatif(exe, disable=["fusion"])
    print(w)                      # the delta table, what was reused, the decisions that changed
    w.delta("kernels")            # (original, what-if) numbers of one row
    w                             # in a notebook: the same, with the two graphs side by side
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field, replace
from typing import Any

from ..compilation.record import Compilation
from ..viz.delta_table import Row, delta_html, delta_text
from ..viz.diff import GraphDiff, graph_diff
from ..viz.memory_chart import human_bytes
from ..viz.theme import style_block
from .changes import Changes
from .decisions import DecisionChanges, decision_changes, decision_lines, decisions_html, explain
from .metrics import Metrics


# (row label, Metrics field, how to format it, the words for up / down)
QUANTITIES = (
    ("instructions", "instructions", "count", ("more", "fewer")),
    ("kernels", "kernels", "count", ("more", "fewer")),
    ("fusions", "fusions", "count", ("more", "fewer")),
    ("peak memory", "peak_bytes", "bytes", ("larger", "smaller")),
    ("bytes moved", "bytes_moved", "bytes", ("more", "fewer")),
    ("estimated time", "estimated_seconds", "seconds", ("slower", "faster")),
    ("measured run", "run_seconds", "seconds", ("slower", "faster")),
    ("compile time", "compile_seconds", "seconds", ("slower", "faster")),
)
NOISE = 0.03  # relative differences of times below this read "about the same"


@dataclass(eq=False)
class WhatIf:
    """One experiment: `original` and `changed` records, their metrics, what was reused."""

    original: Compilation
    changed: Compilation
    changes: Changes
    before: Metrics
    after: Metrics
    reused: tuple[str, ...] = ()
    against: str = "the original"  # what `before` is: the original, or an earlier experiment
    executables: tuple[Any, Any] = field(default=(None, None), repr=False)
    _diff: GraphDiff | None = field(default=None, repr=False)

    # ---- the numbers ----
    def delta(self, quantity: str) -> tuple[Any, Any]:
        """(original, what-if) of one row, by its label ("kernels", "bytes moved", ...)."""
        for label, name, _, _ in QUANTITIES:
            if label == quantity:
                return getattr(self.before, name), getattr(self.after, name)
        raise KeyError(f"no quantity {quantity!r}; the rows: {[q[0] for q in QUANTITIES]}")

    def rows(self) -> list[Row]:
        out = []
        for label, name, kind, words in QUANTITIES:
            a, b = getattr(self.before, name), getattr(self.after, name)
            out.append((label, _fmt(a, kind, self.before.run_note), _fmt(b, kind, self.after.run_note),
                        _change(a, b, kind, words)))
        return out

    def table(self) -> str:
        return delta_text(self.rows())

    # ---- what changed ----
    @property
    def diff(self) -> GraphDiff:
        """The graph diff of the two optimized modules (instruction names matched)."""
        if self._diff is None:
            a, b = self.original.module, self.changed.module
            assert a is not None and b is not None, "both records have modules (measured before)"
            self._diff = graph_diff(a, b)
        return self._diff

    @property
    def decisions_changed(self) -> DecisionChanges:
        return decision_changes(self.original, self.changed)

    def run_notes(self) -> list[str]:
        """Why a side's run was not measured (nothing when both were)."""
        return list(dict.fromkeys(m.run_note for m in (self.before, self.after) if m.run_seconds is None and m.run_note))

    @property
    def rerun_from(self) -> str:
        """The first stage the experiment ran again (the first after those it reused)."""
        return next((s.name for s in self.changed.stages if s.status != "reused" and s.name != "cache"), "nothing")

    def why(self) -> list[str]:
        """A sentence per change: what it switched, and what the original did there."""
        return explain(self.original, self.changes)

    # ---- views ----
    def text(self) -> str:
        d, dec = self.diff, self.decisions_changed
        lines = [f"what if: {self.changes.describe()} (against {self.against})",
                 f"reused from the original: {', '.join(self.reused) or 'nothing'}; rerun from "
                 f"{self.rerun_from}", "", self.table(), ""]
        lines += [f"measured run: {note}" for note in self.run_notes()]
        lines += ["why:"] + [f"  {w}" for w in self.why()]
        lines.append(f"graph diff: {len(d.added)} added, {len(d.removed)} removed, {len(d.changed)} changed")
        lines += decision_lines(dec)
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"<WhatIf {self.changes.describe()}: reused {', '.join(self.reused) or 'nothing'}>"

    def html(self, graphs: bool = True) -> str:
        d, dec = self.diff, self.decisions_changed
        reused = html.escape(", ".join(self.reused) or "nothing")
        parts = [
            f"<h3>what if: {html.escape(self.changes.describe())}</h3><p>against {html.escape(self.against)}</p>",
            f"<p>reused from the original: <b>{reused}</b>; rerun from "
            f"<b>{html.escape(self.rerun_from)}</b></p>",
            delta_html(self.rows()),
            "".join(f"<p>measured run: {html.escape(note)}</p>" for note in self.run_notes()),
            "<ul>" + "".join(f"<li>{html.escape(w)}</li>" for w in self.why()) + "</ul>",
            f"<p>graph diff: {len(d.added)} added, {len(d.removed)} removed, {len(d.changed)} changed</p>",
            decisions_html(dec),
        ]
        if graphs:
            left, right = side_by_side(self)
            parts.append(f"<div style='display:flex;gap:8px'><div style='flex:1;overflow:auto'>{left}</div>"
                         f"<div style='flex:1;overflow:auto'>{right}</div></div>")
        return f"<div class='hloscope hs-whatif'>{style_block()}{''.join(parts)}</div>"

    def _repr_html_(self) -> str:
        return self.html()

    def kept(self) -> WhatIf:
        """This experiment without its executables (what a record keeps: no machine code)."""
        return replace(self, executables=(None, None), changed=self.changed.compiled_part())


def side_by_side(w: WhatIf, timeout: float = 3.0) -> tuple[str, str]:
    """The two final graphs (HTML each), what the what-if removed and added highlighted."""
    from ..viz.graph_view import graph_html

    a, b = w.original.module, w.changed.module
    if a is None or b is None:
        return "", ""
    left = graph_html(a, timeout=timeout, highlight={"removed": list(w.diff.removed)}, id_prefix="wa-", scopes=False)
    right = graph_html(b, timeout=timeout, highlight=w.diff.highlight(), id_prefix="wb-", scopes=False)
    return f"<h4>original</h4>{left}", f"<h4>what if</h4>{right}"


def versus(first: WhatIf, second: WhatIf) -> WhatIf:
    """`second` compared with `first` instead of with the original (two experiments side by
    side; their runs were measured each against the original, not against each other)."""
    return WhatIf(first.changed, second.changed, second.changes, first.after, second.after, second.reused,
                  f"the what-if {first.changes.describe()}", (first.executables[1], second.executables[1]))


def _fmt(value: Any, kind: str, note: str = "") -> str:
    if value is None:
        return "not run"
    if kind == "bytes":
        return human_bytes(value)
    if kind == "seconds":
        return _seconds(value)
    return f"{value:,}"


def _seconds(s: float) -> str:
    if s >= 1:
        return f"{s:.2f} s"
    if s >= 1e-3:
        return f"{s * 1e3:.3f} ms"
    return f"{s * 1e6:.1f} us"


def _change(a: Any, b: Any, kind: str, words: tuple[str, str]) -> str:
    if a is None or b is None:
        return ""
    if kind == "count":
        return "same" if a == b else f"{b - a:+,}, {words[0] if b > a else words[1]}"
    if a == b:
        return "same"
    if not a:
        return words[0] if b > a else words[1]
    ratio = b / a
    if kind == "seconds" and abs(ratio - 1) < NOISE:
        return f"x{ratio:.2f}, about the same"
    return f"x{ratio:.2f}, {words[0] if b > a else words[1]}"
