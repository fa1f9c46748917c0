"""How interactive the explorer is: first panel, completion, and stepping through passes.

The explorer is built headlessly (ipywidgets without a browser), the way `%%hlo` builds it,
on a 100-instruction function (a dense layer, layer norm, GELU, a second layer, layer norm and softmax):

    first panel   the cell's start -> the explorer exists with the trace in its Overview
                  (what %%hlo displays before running the other stages)     goal: < 1 s
    complete      the cell's start -> every stage done (passes, memory plan, LLVM,
                  assembly, the run checked against the evaluator and numpy) goal: < 3 s
    step          one click on "next" in the pass stepper: both graphs and the diff
                  redrawn, right after completion (layouts cold or being prefetched)
                  and once the background prefetch is done                 goal: < 0.5 s

Cell 1 is the first in a fresh process, started right after `%load_ext hloscope` (so the
backend warm-up it starts has not finished); cell 2 runs the same model at other shapes.

    .venv/bin/python benchmarks/explorer_bench.py
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402


def mlp(x, w1, b1, w2, b2, g):
    h = x @ w1 + b1
    mu = h.mean(axis=1, keepdims=True)
    var = ((h - mu) ** 2).mean(axis=1, keepdims=True)
    h = (h - mu) / np.sqrt(var + 1e-5) * g
    h = 0.5 * h * (1 + np.tanh(0.79788456 * (h + 0.044715 * h**3)))
    y = h @ w2 + b2
    y = (y - y.mean(axis=1, keepdims=True)) / np.sqrt(y.var(axis=1, keepdims=True) + 1e-5)
    m = y.max(axis=1, keepdims=True)
    e = np.exp(y - m)
    return e / e.sum(axis=1, keepdims=True)


def inputs(batch: int, hidden: int, out: int) -> list[np.ndarray]:
    rng = np.random.default_rng(0)
    shapes = [(batch, hidden), (hidden, hidden), (hidden,), (hidden, out), (out,), (hidden,)]
    return [rng.standard_normal(s).astype(np.float32) for s in shapes]


def cell(args) -> dict:
    """One %%hlo cell, headless: the times the module docstring describes."""
    from hloscope import session
    from hloscope.jupyter import ExploreOptions
    from hloscope.jupyter.explorer import Explorer

    start = time.perf_counter()
    report = session.new(mlp, *args, options=ExploreOptions())
    session.run(report, limit=1, strict=True)
    explorer = Explorer(report)
    first = time.perf_counter() - start
    explorer.run()
    complete = time.perf_counter() - start
    assert report.done and not report.failed and not explorer.errors, report.summary()
    explorer.select("stepper")
    assert explorer.stepper is not None and report.input_module is not None
    explorer.stepper.changed_only.value = True
    cold = _steps(explorer)
    if explorer._prefetcher is not None:
        explorer._prefetcher.join()
    explorer.stepper.slider.value = 0
    warm = _steps(explorer)
    result = {
        "instructions": report.input_module.instruction_count(),
        "passes": len(report.records),
        "first": first,
        "complete": complete,
        "stages": {s.name: s.seconds for s in report.stages},
        "step_cold": cold,
        "step_warm": warm,
    }
    explorer.close()
    return result


def _steps(explorer) -> list[float]:
    stepper, times = explorer.stepper, []
    while stepper.slider.value < stepper.slider.max:
        t = time.perf_counter()
        stepper.step(+1)
        times.append(time.perf_counter() - t)
    return times


def show(title: str, r: dict) -> None:
    print(f"{title}: {r['instructions']} instructions, {r['passes']} pass runs")
    print(f"  first panel   {r['first']:6.3f} s   (goal < 1 s)")
    print(f"  complete      {r['complete']:6.3f} s   (goal < 3 s)")
    print("  stages        " + ", ".join(f"{k} {v * 1e3:.0f} ms" for k, v in r["stages"].items()))
    for key, label in (("step_cold", "right after"), ("step_warm", "prefetched")):
        t = r[key]
        print(f"  step ({label:<11}) median {statistics.median(t):.3f} s, max {max(t):.3f} s over {len(t)} steps"
              "   (goal < 0.5 s)")


def main() -> None:
    print(f"{os.cpu_count()} CPUs")
    start = time.perf_counter()
    import hloscope  # noqa: F401
    from hloscope.jupyter import warm_up
    from hloscope.jupyter.explorer import Explorer  # noqa: F401  (%load_ext imports these)

    warm_up.start()  # what %load_ext hloscope does (it imports the backends, then warms up in the background)
    print(f"import hloscope + explorer + %load_ext: {time.perf_counter() - start:.3f} s")
    show("cell 1 (fresh process)", cell(inputs(128, 256, 64)))
    show("cell 2", cell(inputs(64, 128, 32)))


if __name__ == "__main__":
    main()
