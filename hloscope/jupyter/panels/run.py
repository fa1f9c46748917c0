"""Run: the outputs, checked against the evaluator (and numpy, jax), and the timings."""

from __future__ import annotations

import ipywidgets as w

from ...viz.record_html import run_html
from .base import Panel, waiting


class RunPanel(Panel):
    title = "Run"

    def __init__(self, layouts=None):
        super().__init__(layouts)
        self.html = w.HTML(waiting("the run"))
        self.widget = w.VBox([self.html])
        self._shown = None

    def update(self, report) -> None:
        stage = next((s for s in report.stages if s.name == "run"), None)
        if stage is None or stage.status in ("pending", "running"):
            return
        if self._shown != stage.status:
            self._shown = stage.status
            self.html.value = run_html(report)
