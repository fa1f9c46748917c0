"""Overview: the stages with their times (filled in live) and what the compiler achieved."""

from __future__ import annotations

import ipywidgets as w

from ...viz.cost_html import estimate_vs_measured_html
from ...viz.records_html import records_table_html
from ...viz.record_html import overview_html
from ...viz.training_html import training_parts_html
from .base import Panel


class OverviewPanel(Panel):
    title = "Overview"

    def __init__(self, layouts=None):
        super().__init__(layouts)
        self.html = w.HTML()
        self.passes = w.HTML()
        self.parts = w.HTML()  # forward / backward counts, only for a training step
        self.widget = w.VBox([self.html, self.parts, self.passes])
        self._records = None
        self._module = None

    def update(self, report) -> None:
        self.html.value = overview_html(report) + estimate_vs_measured_html(report)
        if report.optimized_module is not None and self._records is not report.records:
            self._records = report.records
            self.passes.value = "<div class='hloscope'><h4>Passes</h4></div>" + records_table_html(self._records)
        if report.optimized_module is not None and self._module is not report.optimized_module:
            self._module = report.optimized_module
            self.parts.value = training_parts_html(self._module, report.input_module)
