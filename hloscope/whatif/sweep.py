"""`sweep(fn, sizes, changes)`: the same experiments across input sizes, and the figure of
run time against bytes moved (the memory wall: past the caches, time follows bytes).

    s = hloscope.sweep(softmax, sizes=[256, 512, 1024, 2048], changes=[{"disable": ["fusion"]}])
    s.rows()          # (experiment, size, bytes moved, measured seconds, kernels)
    s.svg()           # the figure; s.save("sweep.svg")

A size is an int n (one f32 argument of shape (n, n)) or a shape; `make_args(size)` gives
the arguments yourself. Each size is compiled once, and each change is a what-if of it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from ..compilation.sources import GivenModule
from ..compilation.stages import run_stages
from ..compiler import compile_table, jit, new_compilation
from ..viz.sweep_plot import sweep_svg
from .comparison import WhatIf
from .experiment import whatif

ORIGINAL = "original"


@dataclass(frozen=True)
class SweepPoint:
    experiment: str
    size: str
    bytes_moved: int
    run_seconds: float | None
    kernels: int


@dataclass
class Sweep:
    points: list[SweepPoint] = field(default_factory=list)
    experiments: list[WhatIf] = field(default_factory=list, repr=False)

    def rows(self) -> list[tuple[str, str, int, float | None, int]]:
        return [(p.experiment, p.size, p.bytes_moved, p.run_seconds, p.kernels) for p in self.points]

    def svg(self, title: str = "run time against bytes moved") -> str:
        return sweep_svg([(p.experiment, p.size, float(p.bytes_moved), p.run_seconds or 0.0) for p in self.points],
                         title)

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.write_text(self.svg(), encoding="utf-8")
        return path

    def text(self) -> str:
        lines = [f"{'experiment':<36} {'size':>12} {'bytes moved':>14} {'run (ms)':>10} {'kernels':>8}"]
        for p in self.points:
            run = f"{p.run_seconds * 1e3:.3f}" if p.run_seconds is not None else "-"
            lines.append(f"{p.experiment:<36} {p.size:>12} {p.bytes_moved:>14,} {run:>10} {p.kernels:>8}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.text()

    def _repr_html_(self) -> str:
        return self.svg()


def default_args(size: Any) -> tuple[np.ndarray, ...]:
    shape = (size, size) if isinstance(size, int) else tuple(size)
    return (np.random.default_rng(0).standard_normal(shape).astype(np.float32),)


def sweep(fn: Callable, sizes: Sequence[Any], changes: Sequence[dict[str, Any]], *,
          make_args: Callable[[Any], Sequence[Any]] = default_args, repeats: int = 7, **compile_options: Any) -> Sweep:
    """Compile `fn` for each size, run each change as a what-if of it, keep both sides."""
    out = Sweep()
    traced = jit(fn)
    for size in sizes:
        module, _, flat = traced.specialize(*make_args(size))
        c = new_compilation(GivenModule(module, flat), "cpu", **compile_options)
        run_stages(c, compile_table(c))
        label = "x".join(map(str, size)) if not isinstance(size, int) else f"{size}x{size}"
        for n, change in enumerate(changes):
            w = whatif(c, repeats=repeats, **change)
            out.experiments.append(w)
            if n == 0:
                out.points.append(SweepPoint(ORIGINAL, label, w.before.bytes_moved, w.before.run_seconds,
                                             w.before.kernels))
            out.points.append(SweepPoint(w.changes.describe(), label, w.after.bytes_moved, w.after.run_seconds,
                                         w.after.kernels))
    return out
