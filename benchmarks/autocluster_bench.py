"""hloscope.autojit: what auto-clustering costs and what it saves, in one process.

    .venv/bin/python benchmarks/autocluster_bench.py

For each workload: the first call (trace, three passes, each cluster compiled: compile time
per cluster is printed), then the median of repeated calls with the same shapes (every
XlaCompile a cache hit) against plain numpy, and, where the function is fully supported,
against hloscope.jit (one compiled module, no host round trips). Ratios: numpy/autojit and
jit/autojit (> 1: autojit is faster). The compile cache is cleared first, so the compile
times are real compiles.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from typing import Callable

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import hloscope  # noqa: E402

rng = np.random.default_rng(0)
N = 256


def mixed(a, v):
    """supported -> np.linalg.solve on the host -> supported."""
    m = a @ a.T + N * np.eye(N)
    y = np.linalg.solve(m, np.tanh(v) * 2.0)
    return np.exp(-y * y) * 3.0 - np.log1p(y * y)


def spectrum(x):
    """np.fft.fft on the host; its complex result stays there, the magnitude is clustered."""
    power = np.abs(np.fft.fft(x)) ** 2
    return np.sum(np.sqrt(power + 1.0) * np.tanh(power))


def dense(x, w, b):
    """Fully supported: one cluster."""
    return np.tanh(x @ w + b)


WORKLOADS: list[tuple[str, Callable, tuple, bool]] = [
    ("mixed (solve between clusters)", mixed, (rng.standard_normal((N, N)), rng.standard_normal(N)), False),
    ("spectrum (fft on the host)", spectrum, (rng.standard_normal(4096),), False),
    ("dense tanh(x @ w + b)", dense, (rng.standard_normal((64, 128)).astype(np.float32),
                                      rng.standard_normal((128, 64)).astype(np.float32),
                                      rng.standard_normal(64).astype(np.float32)), True),
]


def median_ms(fn: Callable, args: tuple, repeats: int = 50) -> float:
    fn(*args)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def run(name: str, fn: Callable, args: tuple, fully_supported: bool) -> None:
    hloscope.compile_cache.clear()
    auto = hloscope.autojit(fn)
    start = time.perf_counter()
    auto(*args)
    first = (time.perf_counter() - start) * 1e3
    record = auto.record(*args)
    print(f"\n{name}: {len(record.clusters)} cluster(s), {len(record.hosts)} host node(s)")
    print(f"  first call {first:.1f} ms (trace {record.trace_seconds * 1e3:.1f} ms, "
          f"passes {sum(p.seconds for p in record.passes) * 1e3:.2f} ms)")
    for c in record.clusters.values():
        print(f"  {c.name}: {', '.join(c.ops)}: compile {c.compile_seconds * 1e3:.1f} ms")
    again = median_ms(auto, args)
    plain = median_ms(fn, args)
    info = auto.cache_info()
    print(f"  second call (cache hits {info.hits}, compiles {info.misses}): {again:.3f} ms; "
          f"numpy {plain:.3f} ms; numpy/autojit {plain / again:.2f}")
    if fully_supported:
        jitted = hloscope.jit(fn)
        jit_ms = median_ms(jitted, args)
        print(f"  hloscope.jit {jit_ms:.3f} ms; jit/autojit {jit_ms / again:.2f}")


def main() -> None:
    for workload in WORKLOADS:
        run(*workload)


if __name__ == "__main__":
    main()
