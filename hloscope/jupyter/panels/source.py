"""Source lines: the user's code with what each line costs laid over it (bytes, flops,
time), and the table of every line with its HLO instructions and kernels. The time is the
roofline's estimate until "measure" runs each kernel on the run's inputs (exe.profile)."""

from __future__ import annotations

import ipywidgets as w

from ...compilation.source_costs import cost_by_line
from ...viz.source_lines_html import METRICS, source_lines_html
from .base import Panel, waiting


class SourcePanel(Panel):
    title = "Source lines"

    def __init__(self, layouts=None):
        super().__init__(layouts)
        self.html = w.HTML(waiting("the optimized module"))
        self.metric = w.ToggleButtons(options=list(METRICS), value="bytes", description="shade by")
        self.measure = w.Button(description="measure each kernel", disabled=True, layout=w.Layout(width="200px"))
        self.note = w.HTML()
        self.widget = w.VBox([w.HBox([self.metric, self.measure]), self.note, self.html])
        self.table = None
        self._module = None
        self._report = None
        self.metric.observe(lambda _: self._draw(), names="value")
        self.measure.on_click(lambda _: self.measure_kernels())

    def update(self, report) -> None:
        self._report = report
        module = report.module
        if module is not None and module is not self._module:
            self._module = module
            self.table = cost_by_line(module)
            self._draw()
        self.measure.disabled = not self._measurable()

    def _measurable(self) -> bool:
        r = self._report
        return r is not None and r.inputs is not None and hasattr(r.executable, "profile")

    def measure_kernels(self) -> None:
        """Time each kernel on the run's inputs and show measured time."""
        report = self._report
        if report is None or not self._measurable():
            return
        self.note.value = "<p>measuring each kernel ...</p>"
        self.table = cost_by_line(report, *(report.inputs or []))
        self.note.value = ""
        self.metric.value = "time"
        self._draw()

    def _draw(self) -> None:
        if self.table is not None:
            self.html.value = source_lines_html(self.table, str(self.metric.value))
