"""Checking and timing a compiled program's run.

    timing = time_call("hloscope", lambda: exe(*args))
    check = compare_outputs("evaluator", expected, actual)

Timings are the median of as many calls as fit in a small budget (at least one), so a cell
stays interactive. A check judges every output, flattened, by the error model
(error_model.py): its error relative to its scale, against what an f32 evaluation incurs.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np

from .error_model import F32_MULTIPLE, OutputReference, OutputVerdict, growth, judge_output

TIME_BUDGET = 0.06  # seconds per timed function: the median of what fits (one run at least); the explorer waits for it
MAX_RUNS = 200


@dataclass(frozen=True)
class Timing:
    name: str
    seconds: float | None  # None when it could not run
    runs: int = 0
    note: str = ""


@dataclass(frozen=True)
class Check:
    """Whether `name`'s outputs match hloscope's, per output by the error model
    (compilation/error_model.py); `outputs` holds each output's verdict, to explain it."""

    name: str
    ok: bool
    max_abs_error: float | None
    note: str = ""
    outputs: tuple[OutputVerdict, ...] = ()

    @property
    def worst(self) -> OutputVerdict | None:
        """The output closest to (or furthest beyond) what it is allowed."""
        return max(self.outputs, key=lambda v: v.severity, default=None)

    def describe(self) -> str:
        """`matches the evaluator: worst output 3 (dot.7) 1.5e-07 of its scale, ...`, or the
        note when nothing was compared."""
        worst = self.worst
        if worst is None:
            return self.note
        who = "the evaluator" if self.name == "evaluator" else self.name
        if self.ok:
            return f"matches {who}: {_worst_words(worst, len(self.outputs))}"
        return f"DIFFERS from {who}: {_failure_words(worst)}"


def _worst_words(v: OutputVerdict, count: int) -> str:
    if v.basis == "exact":
        return f"all {count} outputs equal" if count > 1 else "equal"
    said = f"worst {v.name()} {v.relative:.2g} of its scale"
    if v.f32_error is not None:
        return (f"{said}, an f32 evaluation itself is off by {v.f32_error / v.scale:.2g} "
                f"(allowed {v.allowed / v.scale:.2g}: {F32_MULTIPLE * growth(v.longest_sum):.3g}x that plus {v.slack_words()})")
    return f"{said} ({v.bound_words()})"


def _failure_words(v: OutputVerdict) -> str:
    at = f" at {list(v.where)}" if v.where else ""
    values = f" (hloscope {v.got:.6g}, reference {v.want:.6g})" if v.got is not None and v.want is not None else ""
    if v.problem:
        return f"{v.name()}: {v.problem}{at}{values}"
    return f"{v.name()} is off by {v.relative:.2g} of its scale{at}{values}; {v.bound_words()}"


def time_call(name: str, fn: Callable[[], Any], budget: float = TIME_BUDGET, max_runs: int = MAX_RUNS,
              note: str = "") -> Timing:
    """Median seconds per call of fn() (called once to warm up, then within `budget`)."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - a comparison that cannot run is reported, not raised
        return Timing(name, None, 0, f"failed: {type(e).__name__}: {e}")
    times = []
    deadline = time.perf_counter() + budget
    while len(times) < max_runs and (not times or time.perf_counter() < deadline):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return Timing(name, statistics.median(times), len(times), note)


def flat_outputs(value: Any) -> list[np.ndarray]:
    """Arrays of a result, nested tuples/lists/dicts flattened in order."""
    if isinstance(value, dict):
        return [a for k in sorted(value) for a in flat_outputs(value[k])]
    if isinstance(value, (tuple, list)):
        return [a for v in value for a in flat_outputs(v)]
    return [np.asarray(value)]


def compare_outputs(name: str, expected: Any, actual: Any, references: list[OutputReference] | None = None,
                    labels: Sequence[str] = ()) -> Check:
    """Do `expected` (from `name`) and hloscope's `actual` outputs agree, by the error model?

    `references` (evaluator_references) give each output its f64 yardstick; without them
    each output is judged against `expected` with the fixed tolerance relative to its scale."""
    return _check(name, flat_outputs(expected), flat_outputs(actual), references, labels, against_evaluator=False)


def check_against_evaluator(references: list[OutputReference], actual: Any, labels: Sequence[str] = ()) -> Check:
    """hloscope's outputs against the evaluator's f64 evaluation where it is meaningful."""
    expected = [r.program for r in references]
    return _check("evaluator", expected, flat_outputs(actual), references, labels, against_evaluator=True)


def _check(name: str, exp: list[np.ndarray], act: list[np.ndarray], references: list[OutputReference] | None,
           labels: Sequence[str], against_evaluator: bool) -> Check:
    if len(exp) != len(act):
        return Check(name, False, None, f"{len(exp)} outputs vs hloscope's {len(act)}")
    refs = references if references is not None and len(references) == len(exp) else [OutputReference(e) for e in exp]
    verdicts = tuple(judge_output(i, labels[i] if i < len(labels) else "", a, e, r, against_evaluator)
                     for i, (e, a, r) in enumerate(zip(exp, act, refs)))
    shape_problem = next((v for v in verdicts if v.problem.startswith("shape")), None)
    if shape_problem is not None:
        return Check(name, False, None, f"{shape_problem.name()}: {shape_problem.problem}", verdicts)
    worst = max((v.error for v in verdicts), default=0.0)
    return Check(name, all(v.ok for v in verdicts), worst, "", verdicts)
