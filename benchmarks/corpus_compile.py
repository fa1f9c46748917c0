"""Compile time on the real-model corpus (tests/models): hloscope against XLA through JAX.

    .venv/bin/python benchmarks/corpus_compile.py                   # every program
    .venv/bin/python benchmarks/corpus_compile.py gpt2_train_step   # some

For each program of tests/models/programs.py, the same HLO text (JAX's lowering) compiled
both ways: hloscope's parse to executable (`cache=False`), and jax's `lower(...).compile()`
(XLA:CPU's whole pipeline, LLVM included; jax's caches cleared first). Each is the best of `--repeats` compiles,
taken in turns (hloscope, jax, jax, hloscope, ...), so a busy moment of the machine counts
less and falls on both alike. Prints the ratio hloscope/jax per program (< 1:
hloscope compiles faster) and its median; cpu_bench.py prints this table too.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("JAX_PLATFORMS", "cpu")
import jax  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "models"))
import hloscope  # noqa: E402
from hloscope.compiler import compile as hs_compile  # noqa: E402
from programs import PROGRAMS  # pyright: ignore[reportMissingImports]  # noqa: E402


def best_of(compiles: list, repeats: int) -> list[float]:
    """Each compile's best time of `repeats`, run in turns, the order reversed every round:
    this machine's load comes and goes over seconds, and a compile run only while it lasted
    would lose to one run after it."""
    times: list[list[float]] = [[] for _ in compiles]
    for k in range(repeats):
        order = list(enumerate(compiles))
        for i, compile_once in order if k % 2 == 0 else order[::-1]:
            jax.clear_caches()  # jax keeps compiled executables: a second compile would be a lookup
            start = time.perf_counter()
            compile_once()
            times[i].append(time.perf_counter() - start)
    return [min(t) for t in times]


def compile_times(name: str, repeats: int) -> tuple[float, float, int]:
    """(hloscope seconds, jax seconds, instructions) for one corpus program."""
    fn, args, _ = PROGRAMS[name](np.random.default_rng(0))
    lowered = jax.jit(fn).lower(*args)
    text = lowered.as_text(dialect="hlo")
    module = hloscope.parse_hlo(text)
    size = sum(len(c.instructions) for c in module.computations)
    hs, jx = best_of([lambda: hs_compile(hloscope.parse_hlo(text), cache=False),
                      lambda: jax.jit(fn).lower(*args).compile()], repeats)
    return hs, jx, size


def table(names: list[str], repeats: int) -> list[tuple[str, int, float, float]]:
    rows = []
    for name in names:
        hs, jx, size = compile_times(name, repeats)
        rows.append((name, size, hs, jx))
    return rows


def print_table(rows: list[tuple[str, int, float, float]]) -> None:
    print(f"\ncompile time on the real-model corpus (best of several; hloscope parse to executable, "
          f"jax lower + compile), load average {os.getloadavg()[0]:.2f}")
    head = f"{'program':<24} {'instr':>6} {'hloscope ms':>12} {'jax ms':>9} {'hs/jax':>7}"
    print(head)
    print("-" * len(head))
    for name, size, hs, jx in rows:
        print(f"{name:<24} {size:6d} {hs * 1e3:12.1f} {jx * 1e3:9.1f} {hs / jx:7.2f}")
    ratios = [hs / jx for _, _, hs, jx in rows]
    print(f"median hs/jax {statistics.median(ratios):.2f} (target <= 1.0), worst {max(ratios):.2f} (target <= 2.0)")


def main() -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("programs", nargs="*", default=list(PROGRAMS))
    p.add_argument("--repeats", type=int, default=3)
    args = p.parse_args()
    hs_compile(hloscope.parse_hlo(jax.jit(lambda x: x + 1).lower(np.ones(4, np.float32)).as_text(dialect="hlo")),
               cache=False)  # start the LLVM workers before timing
    print_table(table(args.programs, args.repeats))


if __name__ == "__main__":
    main()
