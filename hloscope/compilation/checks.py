"""Checking and timing a compiled program's run.

    timing = time_call("hloscope", lambda: exe(*args))
    check = compare_outputs("evaluator", expected, actual)

Timings are the median of as many calls as fit in a small budget (at least one), so a cell
stays interactive. A check compares every output, flattened, within a tolerance per dtype.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

TIME_BUDGET = 0.12  # seconds per timed function
MAX_RUNS = 200


@dataclass(frozen=True)
class Timing:
    name: str
    seconds: float | None  # None when it could not run
    runs: int = 0
    note: str = ""


@dataclass(frozen=True)
class Check:
    """Whether `name`'s outputs match hloscope's: max abs error and allclose."""

    name: str
    ok: bool
    max_abs_error: float | None
    note: str = ""

    def describe(self) -> str:
        """`matches hloscope (max |error| 1e-07)`, or the note when nothing was compared."""
        if self.max_abs_error is None:
            return self.note
        verdict = "matches hloscope" if self.ok else "DIFFERS from hloscope"
        return f"{verdict} (max |error| {self.max_abs_error:.3g})"


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


def tolerance(dtype: Any) -> tuple[float, float]:
    """(rtol, atol) for comparing results of this dtype computed two different ways."""
    dtype = np.dtype(dtype)
    if dtype.kind in "biu":
        return 0.0, 0.0
    if dtype.itemsize <= 2:  # f16, bf16
        return 2e-2, 2e-2
    if dtype == np.float64:
        return 1e-9, 1e-12
    return 2e-4, 2e-5


def compare_outputs(name: str, expected: Any, actual: Any) -> Check:
    """Do `expected` (from `name`) and hloscope's `actual` outputs agree?"""
    exp, act = flat_outputs(expected), flat_outputs(actual)
    if len(exp) != len(act):
        return Check(name, False, None, f"{len(exp)} outputs vs hloscope's {len(act)}")
    worst, ok = 0.0, True
    for i, (e, a) in enumerate(zip(exp, act)):
        if e.shape != a.shape:
            return Check(name, False, None, f"output {i}: shape {e.shape} vs hloscope's {a.shape}")
        rtol, atol = tolerance(a.dtype)
        e64, a64 = (x if x.dtype.kind == "c" else x.astype(np.float64) for x in (e, a))
        if e.size:
            worst = max(worst, float(np.nanmax(np.abs(e64 - a64))) if np.isfinite(e64).any() else 0.0)
        ok &= bool(np.allclose(a64, e64, rtol=rtol, atol=atol, equal_nan=True))
    return Check(name, ok, worst)
