"""vs XLA: the same input module through XLA and hloscope (hloscope.xla.compare): the
pipelines by role, the fusions matched with hloscope's reason for each difference, memory
and run time. Shown when the record is part of a comparison."""

from __future__ import annotations

import ipywidgets as w

from .base import Panel, waiting


class VsXlaPanel(Panel):
    title = "vs XLA"

    def __init__(self, layouts=None):
        super().__init__(layouts)
        self.html = w.HTML(waiting("the comparison with XLA"))
        self.widget = w.VBox([self.html])
        self._shown = None

    def update(self, report) -> None:
        comparison = report.comparison
        if comparison is not None and comparison is not self._shown:
            self._shown = comparison
            self.html.value = comparison.html()
