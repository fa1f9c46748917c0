"""Large graphs through every stage, and how each stage's time grows with the size.

    python benchmarks/large_graphs.py                    # 5k, 10k, 20k instructions, both shapes
    python benchmarks/large_graphs.py 2000 8000 --shape branchy --no-cpu

Two module shapes (benchmarks/generate.py): "chain", one long elementwise dependency chain,
and "branchy", transformer-like layers with fan-out, diamonds, dots, reshapes, slices,
concatenates and skip connections (long live ranges for the scheduler and memory planner).

Stages: parse, verify, optimize (the default pipeline: passes, scheduler and memory plan),
plan (the memory plan again, alone), cpu (hloscope.compile: lowering, LLVM, machine code;
skipped with --no-cpu or while hloscope.compile does not exist), dot (the explorer's
graph: module_to_dot of the optimized module with every node drawn) and view (graph_html,
which falls back to a summary past its node limit). Times are wall seconds: LLVM runs in
child processes (backend/llvm_worker.py), whose time this process's CPU clock would not see,
so run it on a quiet machine. "growth" is time(n) / time(previous n): a linear stage grows
like the size ratio (2.0 for 5k -> 10k), a quadratic one like its square.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generate import make_branchy_module, make_chain_module  # noqa: E402

import hloscope  # noqa: E402
from hloscope.memory import plan_memory  # noqa: E402

GENERATORS = {"chain": make_chain_module, "branchy": make_branchy_module}


def _timed(fn):
    start = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - start


def run_stages(text: str, cpu: bool = True) -> dict[str, float]:
    """Wall seconds of each stage for one module's text (a stage that is not available is left out)."""
    times = {}
    module, times["parse"] = _timed(lambda: hloscope.parse_hlo(text))
    _, times["verify"] = _timed(module.verify)
    result, times["optimize"] = _timed(lambda: hloscope.optimize(module))
    optimized = result.module
    assert optimized is not None
    _, times["plan"] = _timed(lambda: plan_memory(optimized))
    if cpu and getattr(hloscope, "compile", None) is not None:
        _, times["cpu"] = _timed(lambda: hloscope.compile(module, backend="cpu", cache=False))
    try:
        from hloscope.viz import graph_html, module_to_dot
    except ImportError:
        return times
    _, times["dot"] = _timed(lambda: module_to_dot(result.module, max_nodes=10**9))
    _, times["view"] = _timed(lambda: graph_html(result.module))
    return times


def report(shape: str, sizes: list[int], cpu: bool) -> None:
    rows = {}
    for n in sizes:
        rows[n] = run_stages(GENERATORS[shape](n), cpu)
        print(f"  {shape} {n}: " + ", ".join(f"{k} {v:.2f}s" for k, v in rows[n].items()), flush=True)
    stages = list(rows[sizes[0]])
    print(f"\n{shape}: wall seconds per stage")
    print("stage      " + "".join(f"{n:>10,}" for n in sizes) + "".join(f"   growth x{b / a:.1f}" for a, b in zip(sizes, sizes[1:])))
    for stage in stages:
        cells = "".join(f"{rows[n][stage]:>10.2f}" for n in sizes)
        growth = "".join(f"{rows[b][stage] / max(rows[a][stage], 1e-9):>14.2f}" for a, b in zip(sizes, sizes[1:]))
        print(f"{stage:<11}{cells}{growth}")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("sizes", nargs="*", type=int, default=[5000, 10000, 20000])
    parser.add_argument("--shape", choices=[*GENERATORS, "both"], default="both")
    parser.add_argument("--no-cpu", action="store_true", help="skip the CPU backend (the slowest stage)")
    args = parser.parse_args()
    for shape in GENERATORS if args.shape == "both" else [args.shape]:
        report(shape, sorted(args.sizes), cpu=not args.no_cpu)


if __name__ == "__main__":
    main()
