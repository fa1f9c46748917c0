"""Notebook 16, "one program, many devices": a small MLP's training step on a 2x2 mesh of
simulated devices, and the exercise: predict the collectives a sharding needs."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

import hloscope

from .exercises import check_counts

MESH = {"data": 2, "model": 2}
COLLECTIVES = ("all-reduce", "all-gather")

SHARDINGS = {
    "data parallel": {"x": ("data", None), "y": ("data", None)},
    "model parallel": {"w1": (None, "model"), "w2": ("model", None)},
    "both": {"x": ("data", None), "y": ("data", None), "w1": (None, "model"), "w2": ("model", None)},
}


def loss(w1, w2, x, y):
    h = np.tanh(x @ w1)
    return ((h @ w2 - y) ** 2).mean()


def training_step(w1, w2, x, y):
    """One step of gradient descent: the new weights, and the loss before it."""
    g1, g2 = hloscope.grad(loss, argnums=(0, 1))(w1, w2, x, y)  # type: ignore[misc]  # traced arrays
    return w1 - 0.1 * g1, w2 - 0.1 * g2, loss(w1, w2, x, y)  # pyright: ignore[reportOperatorIssue]


def step_inputs(batch: int = 8, seed: int = 0) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(seed)
    return (rng.standard_normal((16, 32)).astype(np.float32), rng.standard_normal((32, 8)).astype(np.float32) / 4,
            rng.standard_normal((batch, 16)).astype(np.float32), rng.standard_normal((batch, 8)).astype(np.float32))


def partitioned(module, params: dict) -> tuple[Any, Any, Any]:
    """(the sharded module, each device's module, the partitioner's log) for a sharding."""
    sharded = hloscope.spmd.shard(module, MESH, params, output=())
    per_device, log = hloscope.spmd.partition(sharded)
    return sharded, per_device, log


def collective_counts(log) -> dict[str, int]:
    counts = Counter(e.action for e in log.entries if e.action in COLLECTIVES)
    return {name: counts.get(name, 0) for name in COLLECTIVES}


def check_collectives(log, answer: Any) -> None:
    """`answer`: {"all-reduce": n, "all-gather": m}, for the sharding whose partition log is `log`."""
    check_counts("collectives of a sharding", collective_counts(log), answer,
                 hint="a dot or reduce over a split dimension leaves partial sums (one all-reduce each); a result the "
                      "output wants whole but is split needs an all-gather")
