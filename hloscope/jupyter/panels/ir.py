"""IR: every text the compiler produced, highlighted, and how they line up.

The table at the top links each kernel to its HLO fusion and to the user's source lines; the
kernel list narrows every view to that kernel: its fused computation in HLO, its LLVM function
before and after LLVM's optimizer, its machine code.
"""

from __future__ import annotations

import html

import ipywidgets as w

from ...backend.cpu.llvm_profile import llvm_time_by_kernel
from ...errors import HloscopeError

from ...compilation.record import Compilation
from ...viz.cost_html import kernel_estimates_html
from ...viz.ir_text import WHOLE, available_views, kernel_rows, kernel_table_html, view_html
from ...viz.training_html import kernel_parts
from .base import Panel, waiting

class IRPanel(Panel):
    title = "IR"

    def __init__(self, layouts=None):
        super().__init__(layouts)
        self.report = None
        self.view = w.Dropdown(options=[], description="view", layout=w.Layout(width="340px"))
        self.kernel = w.Dropdown(options=[WHOLE], description="kernel", layout=w.Layout(width="420px"))
        self.table = w.HTML(waiting("the compiler"))
        self.code = w.HTML()
        self.time_llvm = w.Button(description="time LLVM per kernel", layout=w.Layout(width="200px"),
                                  tooltip="compile each kernel alone through LLVM and time it (CPU)")
        self.llvm_times = w.HTML()
        self.time_llvm.on_click(lambda _: self._time_llvm())
        self.widget = w.VBox([self.table, w.HBox([self.view, self.kernel, self.time_llvm]), self.llvm_times,
                              self.code])
        self.view.observe(lambda _: self._show(), names="value")
        self.kernel.observe(lambda _: self._show(), names="value")
        self._key = None

    def update(self, report: Compilation) -> None:
        self.report = report
        self.time_llvm.layout.display = "" if report.backend == "cpu" else "none"
        views = available_views(report)
        key = (tuple(views), len(report.kernels))
        if key == self._key:
            return
        self._key = key
        current = self.view.value
        self.view.options = views  # (selects the first option)
        if current in views:
            self.view.value = current
        self.kernel.options = [WHOLE] + [k.name for k in report.kernels]
        if report.kernels:
            parts = kernel_parts(report.module)  # a training step's kernels say which pass they run
            table = kernel_table_html(kernel_rows(report.module, report.kernels), parts)
            self.table.value = ("<div class='hloscope'><h4>Kernels: fusion &harr; LLVM function &harr; source</h4>"
                                f"{table}</div>" + kernel_estimates_html(report))
        elif not report.llvm_ir:
            stage = next((s for s in report.stages if s.name == "lower"), None)
            if stage is not None and stage.status in ("failed", "skipped"):
                self.table.value = f"<div class='hloscope'><p>no LLVM IR: {stage.note}</p></div>"
        self._show()

    def _time_llvm(self) -> None:
        if self.report is None:
            return
        self.llvm_times.value = waiting("LLVM, kernel by kernel")
        try:
            self.llvm_times.value = llvm_time_by_kernel(self.report)._repr_html_()
        except HloscopeError as e:
            self.llvm_times.value = f"<div class='hloscope'><p>{html.escape(str(e))}</p></div>"
        except Exception as e:  # noqa: BLE001 - a button's failure is said in the view, never a traceback
            self.llvm_times.value = (f"<div class='hloscope'><p>timing LLVM failed: "
                                     f"{html.escape(type(e).__name__)}: {html.escape(str(e))}</p></div>")

    def _show(self) -> None:
        if self.report is None or not self.view.value:
            return
        kernel = None if self.kernel.value in (None, WHOLE) else self.kernel.value
        self.code.value = view_html(self.report, self.view.value, kernel)
