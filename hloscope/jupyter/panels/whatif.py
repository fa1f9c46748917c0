"""What if: switch a pass, a rule or a heuristic and see what it costs (hloscope.whatif).

The toggles are every pass the pipeline ran, every rule that fired (algsimp's rewrites, the
fusion heuristics that said no), fusion's limits, the scheduler, LLVM's level and the vector
width. Each change compiles again from the first stage it affects and updates the delta table
and the two graphs in place. Every experiment is kept: "compare with" sets the latest against
an earlier one instead of the original, and the record's HTML page shows them all.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as w

from ...passes.fusion import InstructionFusion
from ...whatif import WhatIf, whatif
from ...whatif.changes import VECTOR_CPUS, known_rules
from ...whatif.comparison import side_by_side, versus
from .base import Panel, waiting

ORIGINAL = -1


class WhatIfPanel(Panel):
    title = "What if"

    def __init__(self, layouts=None):
        super().__init__(layouts)
        self.report: Any = None
        self.experiments: list[WhatIf] = []
        self.passes: dict[str, w.Checkbox] = {}
        self.rules: dict[str, w.Checkbox] = {}
        self.status = w.HTML(waiting("the compilation"))
        self.toggles = w.VBox()
        self.compare = w.Dropdown(options=[("the original", ORIGINAL)], value=ORIGINAL, description="compare with")
        self.measure = w.Checkbox(True, description="measure runs", indent=False)
        self.table = w.HTML()
        self.left, self.right = w.HTML(layout=w.Layout(width="50%")), w.HTML(layout=w.Layout(width="50%"))
        self.graphs = w.Checkbox(True, description="draw both graphs", indent=False)
        self.widget = w.VBox([self.status, self.toggles, w.HBox([self.compare, self.measure, self.graphs]), self.table,
                              w.HBox([self.left, self.right])])
        self.compare.observe(lambda _: self._show(), names="value")
        self.graphs.observe(lambda _: self._show(), names="value")

    def update(self, report) -> None:
        self.report = report
        if self.active and not self.passes:
            self._build()

    def activate(self) -> None:
        super().activate()
        if not self.passes:
            self._build()

    # ---- the toggles ----
    def _build(self) -> None:
        report = self.report
        if report is None or not report.done or not report.records or report.executable is None:
            if report is not None and report.done:
                self.status.value = "<p>nothing to experiment on: no pass ran, or nothing was compiled</p>"
            return
        names = list(dict.fromkeys(r.name for r in report.records))
        self.passes = {n: w.Checkbox(True, description=n, indent=False, layout=w.Layout(width="200px")) for n in names}
        fired = [d.rule for r in report.records for d in r.log if d.rule in known_rules()]
        self.rules = {n: w.Checkbox(True, description=n, indent=False, layout=w.Layout(width="200px"))
                      for n in dict.fromkeys(fired)}
        fusion = _fusion_pass(report)
        self.max_operands = w.BoundedIntText(fusion.max_operands if fusion else 20, min=1, max=1000,
                                             description="max operands")
        self.duplicate = w.Checkbox(fusion.may_duplicate if fusion else True, description="duplicate cheap producers",
                                    indent=False)
        self.duplicate_expensive = w.Checkbox(False, description="duplicate expensive producers", indent=False)
        has_scheduler = "hlo-memory-scheduler" in names
        self.scheduler = w.Dropdown(options=["memory", "program"], value="memory" if has_scheduler else "program",
                                    description="scheduler")
        self.opt_level = w.Dropdown(options=[0, 1, 2, 3], value=report.options.get("opt_level", 3),
                                    description="LLVM -O")
        self.vector_width = w.Dropdown(options=[("this CPU", 0)] + [(f"{b} bits", b) for b in VECTOR_CPUS], value=0,
                                       description="vectors")
        self.library = w.Checkbox(bool(report.options.get("library", True)), indent=False,
                                  description="library kernels and row programs")
        self._defaults = self._settings()
        controls = [*self.passes.values(), *self.rules.values(), self.max_operands, self.duplicate,
                    self.duplicate_expensive, self.scheduler, self.opt_level, self.vector_width, self.library]
        for c in controls:
            c.observe(lambda _: self.run(), names="value")
        if report.target != "cpu":
            self.vector_width.disabled = self.library.disabled = True
        self.toggles.children = [
            w.HTML("<b>passes</b> (unticked: not run)"), w.HBox(list(self.passes.values()), layout=_wrap()),
            w.HTML("<b>rules that fired</b> (unticked: switched off)"), w.HBox(list(self.rules.values()),
                                                                                layout=_wrap()),
            w.HTML("<b>heuristics</b>"), w.HBox([self.max_operands, self.duplicate, self.duplicate_expensive]),
            w.HBox([self.scheduler, self.opt_level, self.vector_width, self.library]),
        ]
        self.status.value = "<p>change a toggle: the compile reruns from the first stage it affects</p>"

    def _settings(self) -> dict[str, Any]:
        return {"max_operands": self.max_operands.value, "duplicate": self.duplicate.value,
                "duplicate_expensive": self.duplicate_expensive.value, "scheduler": self.scheduler.value,
                "opt_level": self.opt_level.value, "vector_width": self.vector_width.value or None,
                "library": self.library.value}

    def changes(self) -> dict[str, Any]:
        """The keywords of hloscope.whatif the toggles stand for (those that differ)."""
        out: dict[str, Any] = {k: v for k, v in self._settings().items() if v != self._defaults[k]}
        disabled = [n for n, box in self.passes.items() if not box.value]
        rules = [n for n, box in self.rules.items() if not box.value]
        if "hlo-memory-scheduler" in disabled:
            disabled.remove("hlo-memory-scheduler")
            out["scheduler"] = "program"
        return out | ({"disable": disabled} if disabled else {}) | ({"disable_rules": rules} if rules else {})

    # ---- running and showing ----
    def run(self) -> WhatIf | None:
        """Run the experiment the toggles describe and show it (as changing a toggle does)."""
        changes = self.changes()
        if not changes:
            self.status.value = "<p>the toggles are as compiled: nothing to compare</p>"
            self.table.value = self.left.value = self.right.value = ""
            return None
        try:
            experiment = whatif(self.report, run=self.measure.value, repeats=5, **changes)
        except Exception as e:  # noqa: BLE001 - a change the compiler cannot make is shown, not raised
            self.status.value = f"<p style='color:#cf222e'>{html.escape(type(e).__name__)}: {html.escape(str(e))}</p>"
            return None
        self.experiments.append(experiment)
        n = len(self.experiments)
        self.status.value = f"<p>experiment {n}: {html.escape(experiment.changes.describe())}</p>"
        earlier = [(f"experiment {i + 1}: {e.changes.describe()}", i) for i, e in enumerate(self.experiments[:-1])]
        self.compare.options = [("the original", ORIGINAL), *earlier]
        self.compare.value = ORIGINAL
        self._show()
        return experiment

    def shown(self) -> WhatIf | None:
        """The comparison on screen: the latest experiment against the original or an earlier one."""
        if not self.experiments:
            return None
        latest = self.experiments[-1]
        index = self.compare.value
        if index is None or index == ORIGINAL or index >= len(self.experiments) - 1:
            return latest
        return versus(self.experiments[index], latest)

    def _show(self) -> None:
        shown = self.shown()
        if shown is None:
            return
        self.table.value = shown.html(graphs=False)
        if self.graphs.value:
            pair = side_by_side(shown)
            self.left.value, self.right.value = pair
        else:
            self.left.value = self.right.value = ""


def _fusion_pass(report) -> InstructionFusion | None:
    pipeline = report.pipeline
    if pipeline is None:
        return None
    stack = list(pipeline.passes)
    while stack:
        step = stack.pop(0)
        if isinstance(step, InstructionFusion):
            return step
        stack.extend(getattr(step, "passes", []))
    return None


def _wrap() -> w.Layout:
    return w.Layout(flex_flow="row wrap")
