"""The Done-when loops: a 2-layer MLP trained by SGD, written with PyTorch idioms on lazy
tensors, and the same loop in float64 numpy with hand-written gradients (the reference)."""

from __future__ import annotations

import numpy as np

import hloscope.lazy as lz

LR = 0.1
STEPS = 20


def data(batch: int = 32, seed: int = 0):
    rng = np.random.default_rng(seed)
    params = {
        "w1": (rng.normal(size=(8, 16)) * 0.3).astype(np.float32),
        "b1": np.zeros(16, np.float32),
        "w2": (rng.normal(size=(16, 1)) * 0.3).astype(np.float32),
    }
    x = rng.normal(size=(batch, 8)).astype(np.float32)
    y = np.sin(x.sum(axis=1, keepdims=True)).astype(np.float32)
    return params, x, y


def lazy_loop(params, batches, print_loss: bool = False):
    """SGD with PyTorch idioms; `batches` yields (x, y) numpy arrays, one per step."""
    w1 = lz.tensor(params["w1"], requires_grad=True)
    b1 = lz.tensor(params["b1"], requires_grad=True)
    w2 = lz.tensor(params["w2"], requires_grad=True)
    for xb, yb in batches:
        x, y = lz.tensor(xb), lz.tensor(yb)
        h = np.tanh(x @ w1 + b1)
        loss = np.mean((h @ w2 - y) ** 2)
        loss.backward()
        with lz.no_grad():
            w1 -= LR * w1.grad
            b1 -= LR * b1.grad
            w2 -= LR * w2.grad
        w1.grad = b1.grad = w2.grad = None
        if print_loss:
            print(loss)  # PRINT-LINE: reads the loss before mark_step: an implicit sync
        lz.mark_step()
    return {"w1": w1.numpy(), "b1": b1.numpy(), "w2": w2.numpy()}


def numpy_loop(params, batches):
    """The same loop in float64 numpy with the gradients written out."""
    w1, b1, w2 = (params[k].astype(np.float64) for k in ("w1", "b1", "w2"))
    for xb, yb in batches:
        x, y = xb.astype(np.float64), yb.astype(np.float64)
        h = np.tanh(x @ w1 + b1)
        out = h @ w2
        d_out = 2 * (out - y) / out.size
        d_h = d_out @ w2.T * (1 - h ** 2)
        g_w2, g_w1, g_b1 = h.T @ d_out, x.T @ d_h, d_h.sum(axis=0)
        w1, b1, w2 = w1 - LR * g_w1, b1 - LR * g_b1, w2 - LR * g_w2
    return {"w1": w1, "b1": b1, "w2": w2}
