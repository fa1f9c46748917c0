"""Training steps to read per part: one hloscope traces (an MLP under value_and_grad and jit),
one JAX made (GPT-2's training step, as XLA optimized it: its metadata has JAX's scopes)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

import hloscope

MODELS = Path(__file__).resolve().parents[1] / "models"


def mlp_loss(params, x, y):
    w1, b1, w2, b2 = params
    h = np.tanh(x @ w1 + b1)
    return np.mean((h @ w2 + b2 - y) ** 2)


def mlp_step(params, x, y):
    loss, grads = hloscope.value_and_grad(mlp_loss)(params, x, y)
    return loss, tuple(p - 0.1 * g for p, g in zip(params, grads))


def mlp_arguments():
    rng = np.random.default_rng(0)
    params = (rng.normal(size=(8, 16)).astype(np.float32), np.zeros(16, np.float32),
              rng.normal(size=(16, 4)).astype(np.float32), np.zeros(4, np.float32))
    return params, rng.normal(size=(32, 8)).astype(np.float32), rng.normal(size=(32, 4)).astype(np.float32)
