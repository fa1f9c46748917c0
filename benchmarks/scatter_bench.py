"""Scatter-family benchmark on the CPU: hloscope's kernels against XLA:CPU (through JAX).

    .venv/bin/python benchmarks/scatter_bench.py            # prints one row per workload
    .venv/bin/python benchmarks/scatter_bench.py --gpu      # also the GPU kernels each gets (no GPU needed)

Workloads, as models emit them: the LM loss gradient (take_along_axis: a gather and a scatter
with batching dims), a scatter-add with repeated rows (embedding gradient), and max-pool's
gradient (select-and-scatter). Each is lowered by JAX, compiled by hloscope for the CPU,
checked against JAX's result, and timed (median of short rounds). The ratio is hloscope's
time over XLA:CPU's: the CPU scatter kernels run on one thread, in order.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

import hloscope  # noqa: E402

RNG = np.random.default_rng(0)


def lm_loss_grad(logits, labels):
    def loss(logits):
        logp = jax.nn.log_softmax(logits, axis=-1)
        return -jnp.mean(jnp.take_along_axis(logp, labels[..., None], axis=-1))
    return jax.grad(loss)(logits)


def embedding_grad(table, ids, g):
    return table.at[ids].add(g)


def max_pool_grad(x, g):
    pool = lambda x: jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
    return jax.vjp(pool, x)[1](g)[0]


WORKLOADS = {
    "lm_loss_grad": (lm_loss_grad, lambda: [RNG.standard_normal((8, 128, 2048)).astype(np.float32),
                                            RNG.integers(0, 2048, (8, 128)).astype(np.int32)]),
    "embedding_grad": (embedding_grad, lambda: [np.zeros((8192, 256), np.float32),
                                                RNG.integers(0, 8192, 4096).astype(np.int32),
                                                RNG.standard_normal((4096, 256)).astype(np.float32)]),
    "max_pool_grad": (max_pool_grad, lambda: [RNG.standard_normal((16, 64, 64, 32)).astype(np.float32),
                                              RNG.standard_normal((16, 32, 32, 32)).astype(np.float32)]),
}


def median_time(fn, reps: int) -> float:
    fn()
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--gpu", action="store_true", help="list the GPU kernels of each workload (no GPU needed)")
    args = parser.parse_args()
    print(f"{'workload':16} {'hloscope ms':>12} {'XLA:CPU ms':>11} {'ratio':>6}  kernels")
    for name, (fn, make) in WORKLOADS.items():
        inputs = make()
        jitted = jax.jit(fn)
        text = jitted.lower(*inputs).as_text(dialect="hlo")
        exe = hloscope.compile(hloscope.parse_hlo(text))
        want = np.asarray(jitted(*inputs))
        np.testing.assert_allclose(exe(*inputs), want, rtol=1e-4, atol=1e-6)
        ours = median_time(lambda: exe(*inputs), args.reps)
        theirs = median_time(lambda: jax.block_until_ready(jitted(*inputs)), args.reps)
        kinds = sorted({k.kind for k in exe.report.kernels if "scatter" in k.kind or k.kind == "loop"})
        print(f"{name:16} {ours * 1e3:12.2f} {theirs * 1e3:11.2f} {ours / theirs:6.2f}  {', '.join(kinds)}")
        if args.gpu:
            gpu = hloscope.compile(hloscope.parse_hlo(text), backend="gpu", ptxas=False)
            print(f"{'':16} gpu: {', '.join(k.kind for k in gpu.report.kernels)}")


if __name__ == "__main__":
    main()
