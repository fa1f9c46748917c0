"""Memory: the buffer chart (time across, arena addresses up), what is live at the peak and
why (with measured suggestions to lower it), and the table of buffers."""

from __future__ import annotations

import ipywidgets as w

from ...viz.memory_chart import memory_plan_html
from ...viz.memory_peak_html import memory_peak_section
from ...viz.training_html import shows_training, training_memory_html
from .base import Panel, waiting


class MemoryPanel(Panel):
    title = "Memory"

    def __init__(self, layouts=None):
        super().__init__(layouts)
        self.html = w.HTML(waiting("the memory plan"))
        self.widget = w.VBox([self.html])
        self._plan = None

    def update(self, report) -> None:
        if report.memory_plan is not None and report.memory_plan is not self._plan:
            self._plan = report.memory_plan
            # a training step's plan is coloured by forward / backward, with its saved activations
            module = report.module
            # with what is live at the peak, and why, between the chart and the table of buffers
            peak = memory_peak_section(self._plan, module)
            self.html.value = (training_memory_html(module, self._plan, extra=peak)
                               if shows_training(module, self._plan) else memory_plan_html(self._plan, extra=peak))
        elif _stage_status(report, "plan") in ("failed", "skipped") and self._plan is None:
            self.html.value = f"<p>no memory plan: {report.stage('plan').note}</p>"


def _stage_status(report, name: str) -> str:
    return next((s.status for s in report.stages if s.name == name), "")
