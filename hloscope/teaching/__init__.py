"""Small helpers for the course notebooks (notebooks/01..15), so the notebooks can stay about
the compiler.

Exercises use `hloscope.teaching.exercises` (an answer starts as `...`: `not answered yet`,
then ✓, or ✗ with a hint that never holds the answer), with one small module of checks per
chapter (`hello_hlo`, `fusion`, `write_a_pass`, ..., `xla_dump` for notebook 11,
`training_step` for 12, `frameworks` for 15). `running_example` is the transformer block the
chapters share; `plots`, `gpu_figures`, `ptx_notes` and `occupancy` draw and annotate.

`check` below is for demonstrations, not exercises: a statement the notebook shows to be true.

    from hloscope.teaching import check, repo_path, best_time, side_by_side

    check("the broadcast maps b to rows", got, expected)
        ✓ the broadcast maps b to rows
        ✗ the broadcast maps b to rows: got ..., expected ...   (raises CheckFailed)

A failed check raises, so a notebook run top to bottom (as the tests do) stops there; in
Jupyter it shows as one line instead of a traceback.
"""

from __future__ import annotations

import html
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

_MISSING = object()


class CheckFailed(AssertionError):
    """An exercise answer that is not right (yet); the message carries the hint."""

    def _render_traceback_(self) -> list[str]:
        # IPython shows this instead of a traceback: the learner needs the hint, not our stack.
        return [f"\u2717 {self}"]


def _matches(got: Any, expected: Any, rtol: float, atol: float) -> bool:
    """Equality for numbers, arrays and plain values; floats within the tolerances."""
    if isinstance(got, (np.ndarray, np.generic, float)) or isinstance(expected, (np.ndarray, np.generic, float)):
        try:
            a, b = np.asarray(got), np.asarray(expected)
        except (TypeError, ValueError):
            return False
        if a.shape != b.shape or not all(x.dtype.kind in "biufc" for x in (a, b)):
            return False
        if a.dtype.kind in "fc" or b.dtype.kind in "fc":
            return bool(np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=True))
        return bool(np.array_equal(a, b))
    return bool(got == expected)


def _difference(got: Any, expected: Any, rtol: float, atol: float) -> str:
    """How a wrong answer differs: for arrays, the shapes or how many elements are off."""
    if isinstance(got, np.ndarray) and isinstance(expected, np.ndarray) and got.size > 1:
        if got.shape != expected.shape:
            return f": got an array of shape {got.shape}, expected shape {expected.shape}"
        if got.dtype.kind in "biufc" and expected.dtype.kind in "biufc":
            a, b = got.astype(np.float64), expected.astype(np.float64)
            off = ~np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=True)
            worst = float(np.nanmax(np.abs(a - b)))
            return f": {int(off.sum())} of {off.size} elements differ (the largest difference is {worst:.3g})"
    return f": got {_short(got)}, expected {_short(expected)}"


def _short(value: Any, limit: int = 300) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def check(name: str, got: Any, expected: Any = _MISSING, *, hint: str = "",
          rtol: float = 1e-5, atol: float = 1e-6) -> None:
    """Print `✓ name` when the answer is right; raise CheckFailed with `hint` when not.

    With `expected`, `got` must equal it (arrays and floats within rtol/atol, shapes equal).
    Without it, `got` is a condition that must be true.
    """
    if expected is _MISSING:
        ok, detail = bool(got), ""
    else:
        ok = _matches(got, expected, rtol, atol)
        detail = "" if ok else _difference(got, expected, rtol, atol)
    if not ok:
        raise CheckFailed(f"{name}{detail}." + (f" Hint: {hint}" if hint else ""))
    print(f"\u2713 {name}")  # returns None: a check as the last line of a cell shows no `True`


def repo_path(*parts: str) -> Path:
    """A path inside the hloscope repository (`repo_path("tests", "corpus")`), found by
    walking up from the working directory, so a notebook works from notebooks/ or the root."""
    here = Path.cwd().resolve()
    for folder in (here, *here.parents):
        if (folder / "tests" / "corpus").is_dir() and (folder / "hloscope").is_dir():
            return folder.joinpath(*parts)
    raise FileNotFoundError("the hloscope repository (with tests/corpus) is not above the working directory")


def best_time(fn: Callable[[], Any], repeat: int = 5, number: int = 0, budget: float = 0.2) -> float:
    """The best of `repeat` timings of `fn()`, in seconds per call. `number` calls per timing
    (0: as many as fit in about budget/repeat seconds, measured from one warm-up call)."""
    start = time.perf_counter()
    fn()  # warm up (and size the batches)
    once = max(time.perf_counter() - start, 1e-7)
    number = number or max(1, min(10_000, int(budget / repeat / once)))
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - start) / number)
    return best


class HTMLPanels:
    """HTML blocks side by side, each under a title (what `side_by_side` returns)."""

    def __init__(self, panels: dict[str, str]):
        self.panels = panels

    def _repr_html_(self) -> str:
        cells = "".join(
            f"<div style='flex:1 1 0;min-width:0;overflow:auto'><h4 style='margin:4px 0'>{html.escape(title)}</h4>"
            f"{body}</div>"
            for title, body in self.panels.items()
        )
        return f"<div style='display:flex;gap:16px;align-items:flex-start'>{cells}</div>"


def side_by_side(panels: dict[str, str] | None = None, **named: str) -> HTMLPanels:
    """Show HTML blocks next to each other: `side_by_side({"before": a, "after": b})`."""
    return HTMLPanels({**(panels or {}), **named})


def pre(text: str, max_lines: int = 60) -> str:
    """Plain text as an HTML <pre> block (long texts cut to max_lines), for side_by_side."""
    lines = text.splitlines()
    more = f"\n... {len(lines) - max_lines} more lines" if len(lines) > max_lines else ""
    body = html.escape("\n".join(lines[:max_lines]) + more)
    return f"<pre style='font-size:11px;line-height:1.3'>{body}</pre>"
