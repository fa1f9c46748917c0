"""Autodiff benchmark: the transformer block's loss gradient and the MLP's SGD step from
tests/autodiff/autodiff_models.py, hloscope (traced, compiled natively) vs jax.jit.

    .venv/bin/python benchmarks/autodiff_bench.py

Prints, per program: hloscope's first call (trace + differentiate + compile) vs jax's
(trace + lower + compile), and the median run time of a compiled call, with the ratio
jax/hloscope (> 1: hloscope is faster).
"""

from __future__ import annotations

import os
import statistics
import sys
import time

import numpy as np

os.environ.setdefault("JAX_PLATFORMS", "cpu")
import jax  # noqa: E402

HERE = os.path.dirname(__file__)
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "autodiff"))
import hloscope  # noqa: E402
from autodiff_models import DIM, SEQ, block_loss, block_params, mlp_params, sgd_step  # pyright: ignore[reportMissingImports]  # noqa: E402,E501


def first_call(f, *args) -> float:
    start = time.perf_counter()
    jax.block_until_ready(f(*args))
    return time.perf_counter() - start


def median_run(f, *args, repeat=200) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        jax.block_until_ready(f(*args))
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def compare(name, ours, theirs, *args) -> None:
    c_ours, c_theirs = first_call(ours, *args), first_call(theirs, *args)
    r_ours, r_theirs = median_run(ours, *args), median_run(theirs, *args)
    print(f"{name:28s} compile: hloscope {c_ours:6.2f} s  jax {c_theirs:6.2f} s | "
          f"run: hloscope {r_ours * 1e6:8.1f} us  jax {r_theirs * 1e6:8.1f} us  jax/hloscope {r_theirs / r_ours:5.2f}")


def main() -> None:
    # load both compilers' backends first, so the compile times below are the programs' own
    hloscope.jit(lambda x: x + 1)(np.ones(2, np.float32))
    jax.jit(lambda x: x + 1)(np.ones(2, np.float32))
    rng = np.random.default_rng(0)
    p = block_params(rng)
    x, t = (rng.standard_normal((SEQ, DIM)).astype(np.float32) for _ in range(2))
    compare("transformer block grad",
            hloscope.jit(hloscope.value_and_grad(lambda p, x, t: block_loss(np, p, x, t))),
            jax.jit(jax.value_and_grad(lambda p, x, t: block_loss(jax.numpy, p, x, t))), p, x, t)
    mp = mlp_params(rng)
    mx, my = rng.standard_normal((32, 8)).astype(np.float32), rng.standard_normal((32, 4)).astype(np.float32)
    compare("MLP SGD step", hloscope.jit(sgd_step(np, hloscope.value_and_grad)),
            jax.jit(sgd_step(jax.numpy, jax.value_and_grad)), mp, mx, my)


if __name__ == "__main__":
    main()
