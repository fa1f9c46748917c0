"""How long the visualisation layer takes: DOT, layout, the first graph, a pass step, the export.

    python benchmarks/viz_bench.py                # ~100 and ~1000 instruction modules
    python benchmarks/viz_bench.py 300 --full     # also lay out the whole un-collapsed graph

Modules come from generate.make_chain_module and are optimized with hloscope.optimize.
Every layout is measured without the cache (it is cleared first); the layout service's
worker process is started by the first layout and then stays warm, as in a session.
Figures printed:

  dot ms        module_to_dot of the input and of the optimized module (fusions as clusters)
  nodes         how many nodes that draws, and whether it had to collapse or summarise
  first graph   graph_html(optimized module): what a user waits for the first panel
  step          the before + after graphs of one changed pass (median and worst)
  export        save_html of the whole record (all panels), and the file size
  dump          dump_record of the whole record

Targets for the notebook explorer: first panel < 1 s, stepping < 0.5 s.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generate import make_chain_module  # noqa: E402

from hloscope import parse_hlo  # noqa: E402
from hloscope import optimize  # noqa: E402
from hloscope.viz import layout, render  # noqa: E402
from hloscope.viz.export import dump_record, save_html  # noqa: E402
from hloscope.viz.graph import module_to_dot, plan_graph  # noqa: E402
from hloscope.viz.graph_view import graph_html  # noqa: E402


def _timed(fn, *args, **kwargs):
    start = time.perf_counter()
    value = fn(*args, **kwargs)
    return value, time.perf_counter() - start


def _step_times(records, timeout: float) -> list[float]:
    """Cold time to lay out the before and after graphs of each changed pass."""
    times = []
    for record in records:
        if record.changed:
            layout.clear_cache()
            dots = [module_to_dot(record.before), module_to_dot(record.after)]
            times.append(_timed(layout.render_many, dots, timeout)[1])
    return times


def bench(n: int, timeout: float, full: bool) -> dict:
    module = parse_hlo(make_chain_module(n))
    result, opt_s = _timed(optimize, module)
    out = {"n": n, "optimize s": opt_s, "passes": len(result.records), "changed": len(result.changed_records)}
    for label, m in (("input", module), ("optimized", result.module)):
        dot, seconds = _timed(module_to_dot, m)
        mode, nodes = plan_graph(m)
        out[f"{label} dot ms"] = seconds * 1e3
        out[f"{label} nodes"] = f"{nodes} ({mode})"
        layout.clear_cache()
        out[f"{label} layout s"] = layout.render_svg(dot, timeout).seconds
    layout.clear_cache()
    html, out["first graph s"] = _timed(graph_html, result.module, timeout=timeout)
    out["first graph"] = "svg" if "<svg" in html else "summary"
    steps = _step_times(result.records, timeout)
    out["step median s"] = statistics.median(steps) if steps else 0.0
    out["step worst s"] = max(steps, default=0.0)
    with tempfile.TemporaryDirectory() as tmp:
        layout.clear_cache()
        path, out["export s"] = _timed(save_html, Path(tmp) / "r.html", module=result, timeout=timeout)
        out["export MB"] = path.stat().st_size / 1e6
        _, out["export warm s"] = _timed(save_html, Path(tmp) / "r2.html", module=result, timeout=timeout)
        _, out["dump s"] = _timed(dump_record, Path(tmp) / "dump", module=result)
    if full:
        layout.clear_cache()
        dot = module_to_dot(module, max_nodes=10**9)
        result_full = layout.render_svg(dot, timeout=120)
        out["full layout s"] = result_full.seconds if result_full.ok else f"failed: {result_full.message[:40]}"
    return out


def _fmt(value) -> str:
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sizes", nargs="*", type=int, default=[100, 1000])
    parser.add_argument("--timeout", type=float, default=render.DEFAULT_TIMEOUT, help="layout timeout per graph")
    parser.add_argument("--full", action="store_true", help="also lay out the un-collapsed input graph (slow)")
    args = parser.parse_args()
    print(f"layout engines: {', '.join(render.available_engines()) or 'none'}")
    rows = [bench(n, args.timeout, args.full) for n in args.sizes]
    keys = list(dict.fromkeys(k for row in rows for k in row))
    width = max(map(len, keys))
    for key in keys:
        print(f"{key:<{width}}  " + "  ".join(f"{_fmt(row.get(key, '')):>16}" for row in rows))
    print("targets: first graph < 1 s, step < 0.5 s")


if __name__ == "__main__":
    main()
