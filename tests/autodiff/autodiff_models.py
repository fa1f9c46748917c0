"""Two training programs written numpy-style, for any `xp` (numpy under hloscope.jit, or
jax.numpy): a two-layer MLP's SGD step and a transformer block's loss (layer norm, causal
multi-head attention with softmax, GELU MLP, residuals)."""

from __future__ import annotations

import math

import numpy as np


def mlp_params(rng, d_in=8, hidden=16, d_out=4, dtype=np.float32):
    return {"w1": (rng.standard_normal((d_in, hidden)) / math.sqrt(d_in)).astype(dtype),
            "b1": np.zeros(hidden, dtype),
            "w2": (rng.standard_normal((hidden, d_out)) / math.sqrt(hidden)).astype(dtype),
            "b2": np.zeros(d_out, dtype)}


def mlp_loss(xp, params, x, y):
    h = xp.tanh(x @ params["w1"] + params["b1"])
    pred = h @ params["w2"] + params["b2"]
    return xp.mean((pred - y) ** 2)


def sgd_step(xp, value_and_grad, lr=0.1):
    """(params, x, y) -> (new params, loss): one step of gradient descent."""

    def step(params, x, y):
        loss, grads = value_and_grad(lambda p, x, y: mlp_loss(xp, p, x, y))(params, x, y)
        return {k: params[k] - lr * grads[k] for k in params}, loss

    return step


SEQ, DIM, HEADS, FF = 8, 16, 2, 32


def block_params(rng, dtype=np.float32):
    def dense(n_in, n_out):
        return (rng.standard_normal((n_in, n_out)) / math.sqrt(n_in)).astype(dtype)

    return {"ln1_g": (1 + 0.1 * rng.standard_normal(DIM)).astype(dtype), "ln1_b": (0.1 * rng.standard_normal(DIM)).astype(dtype),
            "wq": dense(DIM, DIM), "wk": dense(DIM, DIM), "wv": dense(DIM, DIM), "wo": dense(DIM, DIM),
            "ln2_g": (1 + 0.1 * rng.standard_normal(DIM)).astype(dtype), "ln2_b": (0.1 * rng.standard_normal(DIM)).astype(dtype),
            "w1": dense(DIM, FF), "b1": (0.1 * rng.standard_normal(FF)).astype(dtype),
            "w2": dense(FF, DIM), "b2": (0.1 * rng.standard_normal(DIM)).astype(dtype)}


def layer_norm(xp, x, g, b, eps=1e-5):
    mean = xp.mean(x, axis=-1, keepdims=True)
    var = xp.mean((x - mean) ** 2, axis=-1, keepdims=True)
    return (x - mean) / xp.sqrt(var + eps) * g + b


def gelu(xp, x):
    """GELU, tanh approximation (as GPT-2 and jax.nn.gelu's default)."""
    return 0.5 * x * (1 + xp.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))


def softmax(xp, s):
    e = xp.exp(s - xp.max(s, axis=-1, keepdims=True))
    return e / xp.sum(e, axis=-1, keepdims=True)


def attention(xp, p, x):
    def heads(t):  # (seq, dim) -> (heads, seq, dim / heads)
        return xp.transpose(xp.reshape(t, (SEQ, HEADS, DIM // HEADS)), (1, 0, 2))

    q, k, v = heads(x @ p["wq"]), heads(x @ p["wk"]), heads(x @ p["wv"])
    scores = q @ xp.swapaxes(k, -1, -2) / math.sqrt(DIM // HEADS)
    causal = np.tril(np.ones((SEQ, SEQ), bool))
    weights = softmax(xp, xp.where(causal, scores, -1e9))
    out = xp.reshape(xp.transpose(weights @ v, (1, 0, 2)), (SEQ, DIM))
    return out @ p["wo"]


def block(xp, p, x):
    x = x + attention(xp, p, layer_norm(xp, x, p["ln1_g"], p["ln1_b"]))
    h = gelu(xp, layer_norm(xp, x, p["ln2_g"], p["ln2_b"]) @ p["w1"] + p["b1"])
    return x + h @ p["w2"] + p["b2"]


def block_loss(xp, p, x, target):
    return xp.mean((block(xp, p, x) - target) ** 2)
