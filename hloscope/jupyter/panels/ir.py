"""IR: every text the compiler produced, highlighted, and how they line up.

The table at the top links each kernel to its HLO fusion and to the user's source lines; the
kernel list narrows every view to that kernel: its fused computation in HLO, its LLVM function
before and after LLVM's optimizer, its machine code.
"""

from __future__ import annotations

import html

import ipywidgets as w

from ...backend.cpu.lesson import lesson_code_of, runs_as_a_call
from ...backend.cpu.llvm_profile import llvm_time_by_kernel
from ...errors import HloscopeError

from ...compilation.record import Compilation
from ...viz.cost_html import kernel_estimates_html
from ...viz.ir_text import WHOLE, available_views, code_block, kernel_rows, kernel_table_html, llvm_function, view_html
from ...viz.kernel_decisions import decisions_html
from ...viz.training_html import kernel_parts
from .base import Panel, waiting

LESSON, AS_RUN = "plain loops", "as it runs"


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
        # Kernels that run as calls (row programs, the library) are shown as the plain loops
        # they stand for unless the user asks for the code as it runs (backend/cpu/lesson.py).
        self.decisions = w.HTML()
        self.form = w.ToggleButtons(options=[LESSON, AS_RUN], value=LESSON, description="kernels",
                                    tooltip="the loops each kernel stands for, or the calls the executable makes")
        self.form.layout.display = "none"
        self.widget = w.VBox([self.table, self.decisions, w.HBox([self.view, self.kernel, self.time_llvm]), self.form,
                              self.llvm_times, self.code])
        self.view.observe(lambda _: self._show(), names="value")
        self.kernel.observe(lambda _: self._show(), names="value")
        self.form.observe(lambda _: self._show(), names="value")
        self._key = None

    def update(self, report: Compilation) -> None:
        self.report = report
        self.time_llvm.layout.display = "" if report.backend == "cpu" else "none"
        self._show_decisions()
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
        self.form.layout.display = "" if self._has_calls() else "none"
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

    def _show_decisions(self) -> None:
        """What each kernel runs as and why, whichever view is picked (kernel_decisions.py)."""
        if self.report is None or self.report.backend != "cpu":
            self.decisions.value = ""
            return
        self.decisions.value = decisions_html(self.report, self._has_calls() and self.form.value == LESSON)

    def _has_calls(self) -> bool:
        return self.report is not None and self.report.backend == "cpu" and any(
            runs_as_a_call(k.kind) for k in self.report.kernels)

    def _show(self) -> None:
        if self.report is None or not self.view.value:
            return
        lesson = self._has_calls() and self.form.value == LESSON
        self._show_decisions()
        kernel = None if self.kernel.value in (None, WHOLE) else self.kernel.value
        if lesson and self.view.value.startswith("LLVM IR"):
            self.code.value = self._plain_loops(kernel, optimized="optimized" in self.view.value)
            return
        self.code.value = view_html(self.report, self.view.value, kernel)

    def _plain_loops(self, kernel: str | None, optimized: bool) -> str:
        """The plain-loop form's LLVM IR: the whole module, or the loop kernels of the
        picked kernel's instruction."""
        assert self.report is not None
        try:
            loops = lesson_code_of(self.report)
            text = loops.optimized_llvm_ir if optimized else loops.llvm_ir
        except HloscopeError as e:
            return f"<div class='hloscope'><p>no plain loops: {html.escape(str(e))}</p></div>"
        if kernel is None:
            return code_block(text, "llvm")
        instruction = next((k.instruction for k in self.report.kernels if k.name == kernel), kernel)
        parts = [llvm_function(text, k.llvm_function) for k in loops.stands_for(instruction)]
        return code_block("\n\n".join(p for p in parts if p) or f"(no loop kernel for {instruction})", "llvm")
