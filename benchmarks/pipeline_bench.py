"""How long the pass pipeline takes on large modules, per size and per pass.

    python benchmarks/pipeline_bench.py                 # 5k, 10k, 20k instructions
    python benchmarks/pipeline_bench.py 10000 --pipeline simplify --no-verify --repeat 3

Modules come from generate.make_chain_module: long elementwise chains with broadcast
constants, a broadcast bias row, periodic row reductions, and many equal constants and
broadcasts for cse to merge. Prints the wall time of `optimize` (passes plus the verifier
the pipeline runs after each changed pass), the time per pass summed over its runs, and how
the time grows with size: linear passes take twice as long for twice the instructions.
With --repeat N each size runs N times and the fastest run is shown; "cpu s" is the process
time of that run, which a busy machine disturbs less than the wall time.
Target: under 2 s at 10k instructions, growth ratio about 2.0 per doubling.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generate import make_chain_module  # noqa: E402

from hloscope import parse_hlo  # noqa: E402
from hloscope.passes.dce import DeadCodeElimination  # noqa: E402
from hloscope import optimize  # noqa: E402
from hloscope.passes.pipeline import Pipeline  # noqa: E402
from hloscope.passes.pipelines import pipelines  # noqa: E402


def default_pipeline() -> Pipeline:
    """ "default"; until the scheduler exists, "simplify" plus the fusion passes that exist."""
    try:
        return pipelines["default"]
    except ImportError:
        pass
    p = pipelines["simplify"]
    try:
        from hloscope.passes.fusion import InstructionFusion, MultiOutputFusion
    except ImportError:
        return p
    p.name = "simplify+fusion"
    p.passes += [InstructionFusion(), MultiOutputFusion(), DeadCodeElimination()]
    return p


def bench(n: int, pipeline: Pipeline, verify: bool, repeat: int) -> dict:
    """Optimize one n-instruction module `repeat` times; the fastest run's times per pass."""
    module = parse_hlo(make_chain_module(n))
    best = None
    for _ in range(repeat):
        start, cpu_start = time.perf_counter(), time.process_time()
        result = optimize(module, pipeline, verify=verify)
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu_start
        if best is None or wall < best[0]:
            best = (wall, cpu, result)
    assert best is not None, "repeat must be at least 1"
    wall, cpu, result = best
    assert result.module is not None
    per_pass: dict[str, float] = defaultdict(float)
    runs: dict[str, int] = defaultdict(int)
    for r in result.records:
        per_pass[r.name] += r.seconds
        runs[r.name] += 1
    passes = sum(per_pass.values())
    return dict(
        n=n,
        wall=wall,
        cpu=cpu,
        passes=passes,
        other=wall - passes,
        per_pass=per_pass,
        runs=runs,
        before=module.instruction_count(),
        after=result.module.instruction_count(),
    )


def report(results: list[dict], pipeline: Pipeline, verify: bool) -> None:
    print(f"pipeline {pipeline.name!r}: {', '.join(pipeline.pass_names())}; verify={verify}")
    print(
        f"{'instructions':>12} {'after':>6} {'wall s':>7} {'cpu s':>6} {'passes s':>8} {'verify+other s':>14}"
    )
    for r in results:
        print(
            f"{r['before']:>12} {r['after']:>6} {r['wall']:>7.3f} {r['cpu']:>6.3f} {r['passes']:>8.3f} "
            f"{r['other']:>14.3f}"
        )
    print("\nper pass (ms, summed over its runs):")
    print(f"{'pass':<20} {'runs':>4} " + " ".join(f"{r['n']:>8}" for r in results))
    for name in results[-1]["per_pass"]:
        cells = " ".join(f"{r['per_pass'].get(name, 0) * 1e3:>8.1f}" for r in results)
        print(f"{name:<20} {results[-1]['runs'][name]:>4} {cells}")
    print()
    for a, b in zip(results, results[1:]):
        size, wall, passes = b["n"] / a["n"], b["wall"] / a["wall"], b["passes"] / a["passes"]
        print(f"{a['n']} -> {b['n']} (x{size:.1f} instructions): wall x{wall:.2f}, passes x{passes:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("sizes", nargs="*", type=int, default=[5000, 10000, 20000])
    parser.add_argument("--pipeline", default=None, help="a pipeline name (default: 'default' if it exists)")
    parser.add_argument("--no-verify", action="store_true", help="skip the verifier after each pass")
    parser.add_argument("--repeat", type=int, default=1, help="runs per size; the fastest is shown")
    args = parser.parse_args()
    pipeline = pipelines[args.pipeline] if args.pipeline else default_pipeline()
    results = [bench(n, pipeline, not args.no_verify, args.repeat) for n in args.sizes]
    report(results, pipeline, not args.no_verify)


if __name__ == "__main__":
    main()
