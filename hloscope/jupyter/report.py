"""`HloReport`: everything one `%%hlo` cell (or `hloscope.explore`, or `hloscope report`)
produced, stage by stage. The explorer widget, the static export and the CLI all read it.

    hlo_report.stages            [StageInfo(name, status, seconds, note)]
    hlo_report.input_module      the traced or parsed HLO
    hlo_report.optimize_result   pass records with decision logs, the optimized module
    hlo_report.memory_plan       the buffer assignment
    hlo_report.executable        the compiled function (call it with numpy arrays)
    hlo_report.compile_report    LLVM IR, assembly, kernels, backend stage times
    hlo_report.outputs, .checks, .timings    the run, checked and timed
    hlo_report.save_html("out.html")         one self-contained page with every panel
    hlo_report.dump("dump/")                 the deterministic text/JSON dump
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .options import ExploreOptions

STAGE_STATUSES = ("pending", "running", "done", "failed", "skipped")


@dataclass
class StageInfo:
    """One stage as the overview shows it. status: pending|running|done|failed|skipped."""

    name: str
    status: str = "pending"
    seconds: float = 0.0
    note: str = ""
    error: BaseException | None = field(default=None, repr=False)


@dataclass
class HloReport:
    title: str
    kind: str  # "python" or "hlo"
    options: ExploreOptions = field(default_factory=ExploreOptions)
    source: str = ""
    function: object = None  # the plain Python function (python cells)
    jitted: object = None
    call_args: tuple = ()
    call_kwargs: dict = field(default_factory=dict)
    listing: object = None  # the trace listing (hloscope.frontend.Program)
    input_module: object = None
    inputs: list | None = None  # flat numpy arguments of the module
    optimize_result: object = None
    memory_plan: object = None
    executable: object = None
    compile_report: object = None
    outputs: object = None
    checks: list = field(default_factory=list)
    timings: list = field(default_factory=list)
    stages: list = field(default_factory=list)

    # ---- what the stages produced ----
    @property
    def module(self):
        """The final module: after the passes if they ran, else the input."""
        return self.optimize_result.module if self.optimize_result is not None else self.input_module

    @property
    def records(self) -> list:
        return list(self.optimize_result.records) if self.optimize_result is not None else []

    def stage(self, name: str) -> StageInfo:
        return next(s for s in self.stages if s.name == name)

    @property
    def done(self) -> bool:
        return all(s.status not in ("pending", "running") for s in self.stages)

    @property
    def failed(self) -> list[StageInfo]:
        return [s for s in self.stages if s.status == "failed"]

    # ---- the attributes hloscope.viz.export reads from a compile report ----
    def _compiled(self, name: str, default=""):
        return getattr(self.compile_report, name, default) if self.compile_report is not None else default

    @property
    def llvm_ir(self) -> str:
        return self._compiled("llvm_ir")

    @property
    def optimized_llvm_ir(self) -> str:
        return self._compiled("optimized_llvm_ir")

    @property
    def assembly(self) -> str:
        return self._compiled("assembly")

    @property
    def ptx(self) -> str:
        return self._compiled("ptx")

    @property
    def program(self) -> str:
        """The GPU host program (launches, copies, loops, branches); "" for the CPU."""
        return self._compiled("program")

    @property
    def kernels(self) -> list:
        return list(self._compiled("kernels", []) or [])

    def timing(self, name: str):
        return next((t for t in self.timings if t.name == name), None)

    # ---- outputs ----
    def timing_rows(self) -> list[tuple]:
        """(name, seconds, note) per timed function, for the export's Run panel."""
        checks = {c.name: c for c in self.checks}
        rows = []
        for t in self.timings:
            if t.seconds is None:
                continue
            c = checks.get(t.name)
            note = t.note or (_check_note(c) if c is not None else "")
            rows.append((t.name, t.seconds, note))
        return rows

    def save_html(self, path, **options) -> Path:
        """One self-contained HTML file with every panel (hloscope.viz.export.save_html)."""
        from ..viz.export import save_html

        module = self.optimize_result if self.optimize_result is not None else self.input_module
        return save_html(path, module=module, report=self, timings=self.timing_rows(), title=self.title, **options)

    def dump(self, directory, timings: bool = False) -> list[Path]:
        """The deterministic text/JSON dump (hloscope.viz.dump.dump_record)."""
        from ..viz.dump import dump_record

        module = self.optimize_result if self.optimize_result is not None else self.input_module
        return dump_record(directory, module=module, memory_plan=self.memory_plan, report=self, timings=timings)

    def explore(self):
        """A new explorer widget on this report (needs ipywidgets)."""
        from .explorer import Explorer

        return Explorer(self)

    def summary(self) -> str:
        from .report_html import summary_text

        return summary_text(self)

    def __str__(self) -> str:
        return self.summary()

    def __repr__(self) -> str:
        done = sum(s.status == "done" for s in self.stages)
        return f"<HloReport {self.title!r}: {done}/{len(self.stages)} stages done>"

    def _repr_html_(self) -> str:
        from .report_html import report_html

        return report_html(self)


def _check_note(check) -> str:
    if check.max_abs_error is None:
        return check.note
    verdict = "matches hloscope" if check.ok else "DIFFERS from hloscope"
    return f"{verdict} (max |error| {check.max_abs_error:.3g})"
