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
The precompiled library (backend/cpu/fast/library/) is built once per machine and kept in the
user's cache folder; a second fresh process, whose library cache starts empty, times cell 1
as the very first use on a machine sees it.

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


def main(library_cache: str | None = None) -> None:
    """Both cells; with `library_cache`, the library's cache is that folder (empty: built now)."""
    print(f"{os.cpu_count()} CPUs")
    start = time.perf_counter()
    import hloscope  # noqa: F401
    from hloscope.backend.cpu.fast.library import loader
    from hloscope.jupyter import warm_up
    from hloscope.jupyter.explorer import Explorer  # noqa: F401  (%load_ext imports these)

    if library_cache is not None:
        loader.cache_directory = Path(library_cache)
    warm_up.start()  # what %load_ext hloscope does (it imports the backends, then warms up in the background)
    print(f"import hloscope + explorer + %load_ext: {time.perf_counter() - start:.3f} s")
    show("cell 1 (fresh process)", cell(inputs(128, 256, 64)))
    print(f"  the library came from its cache: {loader.from_cache}")
    if library_cache is None:
        show("cell 2", cell(inputs(64, 128, 32)))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--library-cache"]:
        main(sys.argv[2])
    else:
        main()
        import subprocess
        import tempfile

        with tempfile.TemporaryDirectory() as empty:
            print("\nthe first use on a machine (a fresh process, its library built, not found in a cache):")
            subprocess.run([sys.executable, __file__, "--library-cache", empty], check=True)
