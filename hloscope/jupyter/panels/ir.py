"""IR: every text the compiler produced, highlighted, and how they line up.

The table at the top links each kernel to its HLO fusion and to the user's source lines; the
kernel list narrows every view to that kernel: its fused computation in HLO, its LLVM function
before and after LLVM's optimizer, its machine code.
"""

from __future__ import annotations

import ipywidgets as w

from ...ir.printer import format_computation
from ..ir_text import asm_function, code_block, kernel_rows, kernel_table_html, llvm_function, ptx_function
from .base import Panel, waiting

WHOLE = "(whole module)"


class IRPanel(Panel):
    title = "IR"

    def __init__(self, layouts=None):
        super().__init__(layouts)
        self.report = None
        self.view = w.Dropdown(options=[], description="view", layout=w.Layout(width="340px"))
        self.kernel = w.Dropdown(options=[WHOLE], description="kernel", layout=w.Layout(width="420px"))
        self.table = w.HTML(waiting("the compiler"))
        self.code = w.HTML()
        self.widget = w.VBox([self.table, w.HBox([self.view, self.kernel]), self.code])
        self.view.observe(lambda _: self._show(), names="value")
        self.kernel.observe(lambda _: self._show(), names="value")
        self._key = None

    def update(self, report) -> None:
        self.report = report
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
            self.table.value = ("<div class='hloscope'><h4>Kernels: fusion &harr; LLVM function &harr; source</h4>"
                                f"{kernel_table_html(kernel_rows(report.module, report.kernels))}</div>")
        elif report.compile_report is None:
            stage = next((s for s in report.stages if s.name == "LLVM"), None)
            if stage is not None and stage.status in ("failed", "skipped"):
                self.table.value = f"<div class='hloscope'><p>no LLVM IR: {stage.note}</p></div>"
        self._show()

    def _show(self) -> None:
        if self.report is None or not self.view.value:
            return
        kernel = None if self.kernel.value in (None, WHOLE) else self.kernel.value
        self.code.value = view_html(self.report, self.view.value, kernel)


def available_views(report) -> list[str]:
    views = []
    if report.optimize_result is not None:
        views.append("HLO (optimized)")
    if report.input_module is not None:
        views.append("HLO (input)")
    if report.listing is not None:
        views.append("trace (numpy-level)")
    if report.compile_report is not None:
        views += ["LLVM IR", "LLVM IR (optimized)"]
        if any(s.name == "assembly" and s.status == "done" for s in report.stages):
            views.append("PTX" if report.options.backend == "gpu" else "assembly")
        if report.program:
            views.append("host program (GPU)")
    return views


def view_html(report, view: str, kernel: str | None) -> str:
    """One view, narrowed to `kernel`'s part when one is picked."""
    if view.startswith("HLO"):
        module = report.module if view == "HLO (optimized)" else report.input_module
        if kernel and view == "HLO (optimized)":
            instruction = next((k.instruction for k in report.kernels if k.name == kernel), kernel)
            return code_block(_fused_text(module, instruction), "hlo")
        return code_block(module.to_text(), "hlo")
    if view.startswith("trace"):
        return code_block(str(report.listing), "asm")
    if view.startswith("host program"):
        return code_block(report.program, "asm")
    if view.startswith("LLVM"):
        text = report.optimized_llvm_ir if "optimized" in view else report.llvm_ir
        part = llvm_function(text, kernel) if kernel else text
        return code_block(part or f"(no function @{kernel} in this IR)", "llvm")
    text = report.ptx if view == "PTX" else report.assembly
    part = ((ptx_function if view == "PTX" else asm_function)(text, kernel)) if kernel else text
    return code_block(part or f"(no label {kernel}: in the assembly)", "asm")


def _fused_text(module, kernel: str) -> str:
    """The kernel's instruction (named `kernel`), and the fused computation it calls."""
    entry = module.entry_computation
    if kernel not in entry:
        return f"// {kernel}: not an instruction of the ENTRY"
    inst = entry[kernel]
    text = str(inst)
    called = inst.attr("calls") if inst.opcode == "fusion" else None
    if called and module.has_computation(called):
        text = format_computation(module.computation(called)) + "\n\n// in ENTRY:\n" + text
    return text
