"""The course's running example: one small transformer block (pre-norm, one attention head,
a GELU MLP), written once in numpy. Chapters trace it, fuse it, plan its memory, lower it,
map it to a GPU and, in the autodiff chapter, train it; each next to its focused examples.

    x, params = block_inputs()          # x: f32[16, 32]; params: a tuple of 10 arrays
    y = transformer_block(x, params)    # plain numpy, or through hloscope.jit / explore
    loss = block_loss(params, x, target)
"""

from __future__ import annotations

from typing import Any

import numpy as np

SEQUENCE, WIDTH, HIDDEN = 16, 32, 64


def layer_norm(x: Any, gain: Any, bias: Any, xp: Any = np) -> Any:
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / xp.sqrt(var + 1e-5) * gain + bias


def attention(x: Any, wq: Any, wk: Any, wv: Any, xp: Any = np) -> Any:
    """One head of self-attention (no mask): softmax(q kᵀ / √d) v."""
    q, k, v = x @ wq, x @ wk, x @ wv
    scores = q @ k.T * float(1 / np.sqrt(WIDTH))
    e = xp.exp(scores - scores.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)) @ v


def gelu(x: Any, xp: Any = np) -> Any:
    return 0.5 * x * (1 + xp.tanh(0.7978845608 * (x + 0.044715 * x**3)))


def transformer_block(x: Any, params: tuple, xp: Any = np) -> Any:
    """x + attention(norm(x)), then + mlp(norm(...)): the block GPT-2 stacks. `xp` is the
    array namespace: numpy (for hloscope) or jax.numpy (for JAX, chapters 10 and 15)."""
    g1, b1, wq, wk, wv, g2, b2, w1, w2, bias2 = params
    x = x + attention(layer_norm(x, g1, b1, xp), wq, wk, wv, xp)
    return x + gelu(layer_norm(x, g2, b2, xp) @ w1, xp) @ w2 + bias2


def block_loss(params: tuple, x: Any, target: Any, xp: Any = np) -> Any:
    """Mean squared error of the block's output: what chapter 12 differentiates."""
    return ((transformer_block(x, params, xp) - target) ** 2).mean()


def block_inputs(seed: int = 0) -> tuple[np.ndarray, tuple[np.ndarray, ...]]:
    """x (SEQUENCE x WIDTH) and the block's parameters, float32, seeded."""
    rng = np.random.default_rng(seed)

    def matrix(rows: int, cols: int) -> np.ndarray:
        return (rng.standard_normal((rows, cols)) / np.sqrt(rows)).astype(np.float32)

    ones, zeros = np.ones(WIDTH, np.float32), np.zeros(WIDTH, np.float32)
    params = (ones, zeros, matrix(WIDTH, WIDTH), matrix(WIDTH, WIDTH), matrix(WIDTH, WIDTH),
              ones.copy(), zeros.copy(), matrix(WIDTH, HIDDEN), matrix(HIDDEN, WIDTH), zeros.copy())
    return rng.standard_normal((SEQUENCE, WIDTH)).astype(np.float32), params
