"""How fast hloscope reads, prints and checks a large module.

Builds a 10,000-instruction module with `make_chain_module`, then times `parse_hlo`,
`to_text()` and `verify()` (median of 5 runs each) and prints them beside the targets.

    .venv/bin/python benchmarks/parse_bench.py [n_instructions]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # for `generate`, when run from anywhere

import hloscope  # noqa: E402
from generate import make_chain_module  # noqa: E402

RUNS = 5
TARGETS = {"parse_hlo": 1.0}  # seconds; the target this benchmark guards


def median_time(fn, runs: int = RUNS) -> float:
    """Median wall time of `fn()` over `runs` calls, in seconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def run(n_instructions: int = 10_000) -> dict[str, float]:
    """Time each stage on an n-instruction chain module; return {stage: seconds}."""
    text = make_chain_module(n_instructions)
    module = hloscope.parse_hlo(text)
    return {
        "parse_hlo": median_time(lambda: hloscope.parse_hlo(text)),
        "to_text": median_time(module.to_text),
        "verify": median_time(module.verify),
    }


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    results = run(n)
    print(f"{n:,}-instruction chain module, median of {RUNS} runs")
    print(f"{'stage':<12}{'seconds':>10}{'target':>10}  ok")
    for stage, seconds in results.items():
        target = TARGETS.get(stage)
        verdict = "" if target is None else ("yes" if seconds < target else "NO")
        shown = f"< {target:g}" if target else "-"
        print(f"{stage:<12}{seconds:>10.3f}{shown:>10}  {verdict}")


if __name__ == "__main__":
    main()
