"""`optimize(module)`: run a pipeline and keep everything it did.

    result = hloscope.optimize(module)              # the "default" pipeline
    result = hloscope.optimize(module, "simplify")  # or a name, or a Pipeline object
    result = hloscope.optimize(module, "algsimp,dce")  # or pass and pipeline names in order
    result.module                                   # the optimized module
    result.records                                  # one PassRecord per pass run
    print(result.summary())                         # pass, changed, ms, decisions

The input is verified first, so an invalid module is blamed on the input rather than on
the first pass that trips over it. Modules are immutable: the input is never changed, and
every record's `before`/`after` stays valid.
"""

from __future__ import annotations

import html
import time
from dataclasses import dataclass, field

from ..errors import HloVerifierError
from ..gc_pause import collector_paused
from ..ir.module import HloModule
from .pipeline import Pipeline
from .pipelines import Spec, resolve
from .record import PassRecord


@dataclass
class OptimizeResult:
    """What `optimize` produced: the module, every pass record, the memory plan, the time."""

    input: HloModule
    module: HloModule
    pipeline: Pipeline
    records: list[PassRecord] = field(default_factory=list)
    memory_plan: object | None = None
    seconds: float = 0.0

    @property
    def changed_records(self) -> list[PassRecord]:
        return [r for r in self.records if r.changed]

    def record(self, name: str) -> PassRecord:
        """The first record of the pass called `name`."""
        return next(r for r in self.records if r.name == name)

    def summary(self) -> str:
        """A text table: one row per pass run, then the instruction counts and total time."""
        rows = [("pass", "pipeline", "iter", "changed", "ms", "decisions", "instructions")]
        for r in self.records:
            rows.append(
                (
                    r.name,
                    r.pipeline,
                    str(r.iteration),
                    "yes" if r.changed else "",
                    f"{r.seconds * 1e3:.2f}",
                    str(len(r.log)),
                    f"{r.after.instruction_count()}",
                )
            )
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
        lines.insert(1, "  ".join("-" * w for w in widths))
        lines.append(
            f"{self.input.instruction_count()} -> {self.module.instruction_count()} instructions, "
            f"{len(self.changed_records)} of {len(self.records)} pass runs changed the module, "
            f"{self.seconds * 1e3:.1f} ms"
        )
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.summary()

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{h}</th>" for h in ("pass", "pipeline", "changed", "ms", "decisions"))
        body = "".join(
            f"<tr><td>{html.escape(r.name)}</td><td>{html.escape(r.pipeline)}</td>"
            f"<td>{'yes' if r.changed else ''}</td><td>{r.seconds * 1e3:.2f}</td><td>{len(r.log)}</td></tr>"
            for r in self.records
        )
        return (
            f"<table><tr>{head}</tr>{body}</table><p>{self.input.instruction_count()} &rarr; "
            f"{self.module.instruction_count()} instructions, {self.seconds * 1e3:.1f} ms</p>"
        )


def optimize(module: HloModule, pipeline: Spec = "default", verify: bool = True) -> OptimizeResult:
    """Run `pipeline` on `module`: a Pipeline, a name in `hloscope.pipelines`, or pass and
    pipeline names in order ("algsimp,dce,fusion", or a list); see pipelines.resolve."""
    p = resolve(pipeline)  # first: a misspelt pass name is reported before any work
    if verify:
        try:
            module.verify()
        except HloVerifierError as e:
            error = HloVerifierError(f"the input module is invalid (before any pass ran): {e}")
            error.computation, error.instruction = e.computation, e.instruction
            raise error from e
    if not verify:
        p = _without_verification(p)
    records: list[PassRecord] = []
    start = time.perf_counter()
    with collector_paused():
        result = p.run(module, records)
        plan = _memory_plan(result)
    seconds = time.perf_counter() - start
    return OptimizeResult(module, result, p, records, plan, seconds)


def _without_verification(p: Pipeline) -> Pipeline:
    """A copy of `p` (and its sub-pipelines) that skips the verifier after each pass."""
    steps = [_without_verification(s) if isinstance(s, Pipeline) else s for s in p.passes]
    return Pipeline(p.name, steps, p.fixed_point, p.max_iterations, verify=False)


def _memory_plan(module: HloModule):
    """hloscope.memory's plan for the result, or None where memory planning is not available."""
    try:
        from ..memory import plan_memory
    except ImportError:
        return None
    return plan_memory(module)
