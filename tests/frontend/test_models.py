"""Whole models written in plain numpy, traced by hloscope.jit, run, and compared with numpy."""

from __future__ import annotations

import math

import numpy as np
import pytest

import hloscope.numpy as hnp


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def log_softmax(x):
    shifted = x - np.max(x, axis=-1, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=-1, keepdims=True))


def layernorm(x, g, b, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * g + b


def rms_norm(x, g, eps=1e-6):
    return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps) * g


def gelu_tanh(x):
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)))


def gelu_erf(x):
    return 0.5 * x * (1 + hnp.erf(x / math.sqrt(2)))


def mlp(x, params):
    h = np.maximum(x @ params["w1"] + params["b1"], 0)
    return gelu_tanh(h) @ params["w2"] + params["b2"]


def attention(x, wq, wk, wv):
    q, k, v = x @ wq, x @ wk, x @ wv
    scores = q @ k.T / np.sqrt(np.float32(q.shape[-1]))
    mask = np.tril(np.ones((x.shape[0], x.shape[0]), dtype=bool))
    scores = np.where(mask, scores, np.float32(-1e9))
    return softmax(scores) @ v


def mse_loss(pred, target):
    return np.mean((pred - target) ** 2)


def residual_block(x, w1, w2, g, b):
    h = layernorm(x, g, b)
    return x + np.maximum(h @ w1, 0) @ w2


def integer_code(a, b):
    keep = (a > b) & (a % 3 != 0)
    return np.where(keep, a // 3 + b, (b - 2 * a) ^ 85), np.abs(a - b).sum(axis=0)


def boolean_code(x, y):
    p, q = x > 0, y < 0.5
    return np.logical_xor(p, q), np.any(p & ~q, axis=1), np.all(p | q), (p != q).sum()


def f32(rng, *shape):
    return rng.standard_normal(shape).astype(np.float32)


def test_softmax(check, rng):
    check(softmax, f32(rng, 16, 32))


def test_log_softmax(check, rng):
    check(log_softmax, f32(rng, 16, 32))


def test_layernorm(check, rng):
    check(layernorm, f32(rng, 8, 64), f32(rng, 64), f32(rng, 64))


def test_rms_norm(check, rng):
    check(rms_norm, f32(rng, 8, 64), f32(rng, 64))


@pytest.mark.parametrize("gelu", [gelu_tanh, gelu_erf])
def test_gelu(check, rng, gelu):
    check(gelu, f32(rng, 8, 64), rtol=1e-5, atol=1e-6)


def test_mlp_with_a_dict_of_parameters(check, rng):
    params = {"w1": f32(rng, 32, 64) * 0.2, "b1": f32(rng, 64), "w2": f32(rng, 64, 16) * 0.2, "b2": f32(rng, 16)}
    check(mlp, f32(rng, 8, 32), params, rtol=1e-4, atol=1e-5)


def test_single_head_attention(check, rng):
    x, wq, wk, wv = f32(rng, 12, 16), f32(rng, 16, 8), f32(rng, 16, 8), f32(rng, 16, 8)
    check(attention, x, wq, wk, wv, rtol=1e-4, atol=1e-5)


def test_mse_loss(check, rng):
    check(mse_loss, f32(rng, 32, 16), f32(rng, 32, 16))


def test_residual_block(check, rng):
    args = f32(rng, 8, 32), f32(rng, 32, 64) * 0.2, f32(rng, 64, 32) * 0.2, f32(rng, 32), f32(rng, 32)
    check(residual_block, *args, rtol=1e-4, atol=1e-5)


def test_integer_code(check, rng):
    a = rng.integers(-50, 50, (16, 16)).astype(np.int32)
    b = rng.integers(-50, 50, (16, 16)).astype(np.int32)
    check(integer_code, a, b)


def test_boolean_code(check, rng):
    check(boolean_code, f32(rng, 8, 8), f32(rng, 8, 8))


def test_float64_stays_float64(check, rng):
    jf = check(lambda x: np.exp(-x * x) + 0.5 * x, rng.standard_normal(64))
    assert "f64[64]" in jf.lower(rng.standard_normal(64)).to_text()
