"""vs XLA: the same input module through XLA and hloscope (hloscope.xla.compare): the
pipelines by role, the fusions matched with hloscope's reason for each difference, memory
and run time. Shown when the record is part of a comparison.

Below the tables, picking a fusion match shows XLA's fusions and hloscope's side by side,
as HLO, with hloscope's reason between them.
"""

from __future__ import annotations

import html

import ipywidgets as w

from ...viz.hlo_html import hlo_block
from .base import Panel, waiting


class VsXlaPanel(Panel):
    title = "vs XLA"

    def __init__(self, layouts=None):
        super().__init__(layouts)
        self.html = w.HTML(waiting("the comparison with XLA"))
        self.match = w.Dropdown(options=[("(pick a fusion match)", -1)], description="match",
                                layout=w.Layout(width="720px"))
        self.reason = w.HTML()
        self.xla = w.HTML(layout=w.Layout(width="50%", overflow="auto"))
        self.ours = w.HTML(layout=w.Layout(width="50%", overflow="auto"))
        self.widget = w.VBox([self.html, self.match, self.reason, w.HBox([self.xla, self.ours])])
        self.match.observe(lambda _: self._show_match(), names="value")
        self._shown = None

    def update(self, report) -> None:
        comparison = report.comparison
        if comparison is None or comparison is self._shown:
            return
        self._shown = comparison
        self.html.value = comparison.html()
        matches = [(_label(m), i) for i, m in enumerate(comparison.fusions)]
        self.match.options = [("(pick a fusion match)", -1), *matches]

    def select(self, index: int) -> None:
        """Show fusion match `index` (as picking it does)."""
        self.match.value = index

    def _show_match(self) -> None:
        comparison, index = self._shown, self.match.value
        if comparison is None or index is None or index < 0:
            self.reason.value = self.xla.value = self.ours.value = ""
            return
        m = comparison.fusions[index]
        why = html.escape(m.reason or "the same operations")
        self.reason.value = f"<div class='hloscope'><b>{m.status}</b>: {why}</div>"
        self.xla.value = self._side(comparison, "XLA", [g.name for g in m.xla])
        self.ours.value = self._side(comparison, "hloscope", [g.name for g in m.hloscope])

    @staticmethod
    def _side(comparison, compiler: str, names: list[str]) -> str:
        if not names:
            return f"<div class='hloscope'><p>no {compiler} fusion</p></div>"
        return "".join(hlo_block(comparison.fusion_text(compiler, n), header=f"{compiler}: {n}") for n in names)


def _label(match) -> str:
    """`merged: a, b | c`: the status, XLA's fusions, hloscope's."""
    xla = ", ".join(g.name for g in match.xla) or "-"
    ours = ", ".join(g.name for g in match.hloscope) or "-"
    return f"{match.status}: {xla} | {ours}"
