"""Lazy-tensor benchmark: the per-step cost of a lazy training loop (record the step's
operations, cut and hash the graph, hit the graph cache, run) against the same step as one
hloscope.jit call, and against the step in plain float32 numpy, for a 2-layer MLP.

    .venv/bin/python benchmarks/lazy_bench.py

Prints the median time per step of each, the lazy loop's overhead over jit (recording and
hashing), and the ratios lazy/jit and lazy/numpy (> 1: the lazy loop is slower).
"""

from __future__ import annotations

import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import hloscope  # noqa: E402
import hloscope.lazy as lz  # noqa: E402

LR = np.float32(0.1)
SIZES = [(32, 8, 16), (256, 64, 128)]  # (batch, inputs, hidden)


def make(batch: int, n_in: int, hidden: int):
    rng = np.random.default_rng(0)
    params = {"w1": (rng.normal(size=(n_in, hidden)) * 0.1).astype(np.float32),
              "b1": np.zeros(hidden, np.float32),
              "w2": (rng.normal(size=(hidden, 1)) * 0.1).astype(np.float32)}
    x = rng.normal(size=(batch, n_in)).astype(np.float32)
    y = np.sin(x.sum(axis=1, keepdims=True)).astype(np.float32)
    return params, x, y


def lazy_steps(params, x, y, n: int) -> list[float]:
    w1, b1, w2 = (lz.tensor(params[k], requires_grad=True) for k in ("w1", "b1", "w2"))
    xt, yt = lz.tensor(x), lz.tensor(y)
    times = []
    for i in range(n):
        if i == 2:
            lz.reset_metrics()  # the metrics below are the steady state: no compile, shapes inferred
        start = time.perf_counter()
        loss = np.mean((np.tanh(xt @ w1 + b1) @ w2 - yt) ** 2)
        loss.backward()
        assert w1.grad is not None and b1.grad is not None and w2.grad is not None
        with lz.no_grad():
            w1 -= 0.1 * w1.grad
            b1 -= 0.1 * b1.grad
            w2 -= 0.1 * w2.grad
        w1.grad = b1.grad = w2.grad = None
        lz.mark_step()
        times.append(time.perf_counter() - start)
    return times


def loss_fn(p, x, y):
    return np.mean((np.tanh(x @ p["w1"] + p["b1"]) @ p["w2"] - y) ** 2)


@hloscope.jit
def jit_step(p, x, y):
    value, grads = hloscope.value_and_grad(loss_fn)(p, x, y)
    assert grads is not None
    return {k: p[k] - 0.1 * grads[k] for k in p}, value


def jit_steps(params, x, y, n: int) -> list[float]:
    p = dict(params)
    times = []
    for _ in range(n):
        start = time.perf_counter()
        p, _ = jit_step(p, x, y)
        times.append(time.perf_counter() - start)
    return times


def numpy_steps(params, x, y, n: int) -> list[float]:
    w1, b1, w2 = (params[k].copy() for k in ("w1", "b1", "w2"))
    times = []
    for _ in range(n):
        start = time.perf_counter()
        h = np.tanh(x @ w1 + b1)
        out = h @ w2
        d_out = np.float32(2) * (out - y) / np.float32(out.size)
        d_h = d_out @ w2.T * (1 - h * h)
        w2 -= LR * (h.T @ d_out)
        w1 -= LR * (x.T @ d_h)
        b1 -= LR * d_h.sum(axis=0)
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    steps = 200
    for batch, n_in, hidden in SIZES:
        params, x, y = make(batch, n_in, hidden)
        lz.reset_metrics()
        lazy = statistics.median(lazy_steps(params, x, y, steps)[2:])  # after the compile
        m = lz.metrics()
        cut = m["cut_time_s"] / m["executions"]
        recording = m["record_time_s"] / m["executions"]
        run = m["execute_time_s"] / m["executions"]
        jitted = statistics.median(jit_steps(params, x, y, steps)[2:])
        plain = statistics.median(numpy_steps(params, x, y, steps))
        print(f"MLP batch={batch} in={n_in} hidden={hidden}: per step  lazy {lazy * 1e6:8.1f} us "
              f"(record {recording * 1e6:6.1f} us, cut+hash {cut * 1e6:6.1f} us, run {run * 1e6:6.1f} us, compiles {m['compiles']}, hits {m['cache_hits']})"
              f"  jit {jitted * 1e6:8.1f} us  numpy f32 {plain * 1e6:8.1f} us")
        print(f"    lazy/jit {lazy / jitted:5.2f}   lazy/numpy {lazy / plain:5.2f}   "
              f"lazy overhead over jit {(lazy - jitted) * 1e6:7.1f} us per step")


if __name__ == "__main__":
    main()
