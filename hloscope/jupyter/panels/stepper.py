"""Pass stepper: every pass run in order, one at a time.

A slider (and prev/next buttons) picks the pass run; the panel shows its name, the pass's
explanation, its time and decision log, the module before and after side by side (what it
removed / added / changed coloured, refused fusions dashed; in a graph grouped by name scopes,
a closed scope holding such changes is coloured and counts them, and a line names the scopes
the pass changed) and the unified diff of the HLO text. "only passes that changed" hides the runs that left the module as it was.

Graphs are laid out when a pass is shown (not before), through the layout service (hloscope.viz.layout),
so a step costs two cached or warm layouts; the explorer prefetches the rest in the background.
"""

from __future__ import annotations

import html

import ipywidgets as w

from ...viz.cost_html import fusion_saving_html
from ...viz.diff import text_diff_html
from ...viz.records_html import decisions_html, doc_html, record_header_html, record_title
from ...viz.graph_blocks import graph_block, step_specs
from ...viz.scope_changes import scope_changes, scope_changes_html
from .base import Panel, waiting

GRAPH_HEIGHT = 640  # pixels; taller graphs scroll, so both sides and the diff stay in view
LEGEND = (
    "<div class='hloscope' style='font-size:12px'><span style='background:#c9f2c7;padding:0 4px'>added</span> "
    "<span style='background:#ffd4d4;padding:0 4px'>removed</span> "
    "<span style='background:#ffe8a3;padding:0 4px'>changed</span> "
    "<span style='color:#cf222e'>- - - fusion refused (hover an edge for why)</span></div>"
)


class StepperPanel(Panel):
    title = "Pass stepper"

    def __init__(self, layouts=None):
        super().__init__(layouts)
        self.records: list = []
        self.visible: list[int] = []  # record indices the slider walks over
        self.shown: int | None = None  # the record index on screen
        self.prev = w.Button(description="◀ prev", layout=w.Layout(width="80px"), tooltip="previous pass run")
        self.next = w.Button(description="next ▶", layout=w.Layout(width="80px"), tooltip="next pass run")
        self.slider = w.IntSlider(0, 0, 0, description="pass run", continuous_update=False,
                                  layout=w.Layout(width="420px"))
        self.changed_only = w.Checkbox(False, description="only passes that changed", indent=False)
        self.title_html = w.HTML(waiting("the passes"))
        self.detail = w.HTML()
        self.before = w.HTML(layout=w.Layout(width="50%", overflow="auto"))
        self.after = w.HTML(layout=w.Layout(width="50%", overflow="auto"))
        self.diff = w.HTML()
        heads = w.HBox([w.HTML("<b>before</b>", layout=w.Layout(width="50%")),
                        w.HTML("<b>after</b>", layout=w.Layout(width="50%"))])
        self.widget = w.VBox([
            w.HBox([self.prev, self.slider, self.next, self.changed_only]),
            self.title_html, self.detail, w.HTML(LEGEND), heads, w.HBox([self.before, self.after]),
            w.HTML("<div class='hloscope'><h4>HLO diff</h4></div>"), self.diff,
        ])
        self.prev.on_click(lambda _: self.step(-1))
        self.next.on_click(lambda _: self.step(+1))
        self.slider.observe(lambda _: self._show_current(), names="value")
        self.changed_only.observe(lambda _: self._filter(), names="value")

    # ---- data ----
    def update(self, report) -> None:
        if report.optimized_module is None or self.records is report.records:
            return
        self.records = report.records
        self._filter()

    def _filter(self) -> None:
        keep = self.shown
        self.visible = [i for i, r in enumerate(self.records) if r.changed or not self.changed_only.value]
        if not self.visible:
            self.title_html.value = "<div class='hloscope'><p>no pass runs to show</p></div>"
            return
        position = min(range(len(self.visible)), key=lambda p: abs(self.visible[p] - keep)) if keep is not None else 0
        with self.slider.hold_trait_notifications():
            self.slider.max = len(self.visible) - 1
            self.slider.value = position
        self._show_current(force=True)

    # ---- navigation ----
    def step(self, delta: int) -> None:
        if self.visible:
            self.slider.value = max(0, min(len(self.visible) - 1, self.slider.value + delta))

    def select_record(self, index: int) -> None:
        """Show record `index` (turning "only changed" off if it hides it)."""
        if index not in self.visible:
            self.changed_only.value = False
        self.slider.value = self.visible.index(index)

    def activate(self) -> None:
        super().activate()
        self._show_current(force=True)

    def _show_current(self, force: bool = False) -> None:
        if not self.visible:
            return
        index = self.visible[min(self.slider.value, len(self.visible) - 1)]
        if not self.active:
            self.shown = index
            self._show_text(index)  # the cheap part; graphs wait for the tab to be opened
            return
        if force or index != self.shown or not self.before.value:
            self.shown = index
            self._show_text(index)
            self._show_graphs(index)

    def _show_text(self, index: int) -> None:
        r = self.records[index]
        position = f"{self.slider.value + 1} of {len(self.visible)}" + (" changed" if self.changed_only.value else "")
        self.title_html.value = (
            f"<div class='hloscope hs-pass-title' data-index='{index}'><h3>#{index} "
            f"{html.escape(record_title(r))}</h3><span style='color:#57606a'>{position}</span></div>"
        )
        scopes = scope_changes_html(scope_changes(r.before, r.after)) if r.changed else ""
        self.detail.value = (f"<div class='hloscope'>{record_header_html(r, title=False)}{scopes}{doc_html(r.doc)}"
                             f"{fusion_saving_html(r)}"
                             f"<details><summary>decisions ({len(r.log)})</summary>{decisions_html(r.log)}"
                             "</details></div>")
        self.diff.value = (text_diff_html(r.before.to_text(), r.after.to_text()) if r.changed
                           else "<div class='hloscope'><p>this pass changed nothing</p></div>")

    def _show_graphs(self, index: int) -> None:
        before, after = step_specs(self.records[index], index)
        self.before.value = graph_block(self.layouts, before, max_height=GRAPH_HEIGHT)
        self.after.value = (graph_block(self.layouts, after, max_height=GRAPH_HEIGHT) if after is not None
                            else "<div class='hloscope'><p>unchanged: same graph as before</p></div>")
