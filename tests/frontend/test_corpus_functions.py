"""The functions behind the JAX-generated corpus (tests/corpus/*.hlo), written as plain numpy,
traced by hloscope and run on the corpus inputs: the results must match JAX/XLA's stored
outputs to the corpus tolerances. This checks the tracer against XLA itself, not only against
numpy."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import hloscope.numpy as hnp
from hloscope import jit
from hloscope.frontend import cond, fori_loop

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
F32 = np.float32


def layernorm(x, g, b):
    mean = x.mean(axis=1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-5) * g + b


def gelu_mlp(x, w1, b1, w2, b2):
    h = x @ w1 + b1
    return h * ((np.tanh((h + h**3 * 0.044715) * np.float32(0.7978845608)) + 1) * 0.5) @ w2 + b2


FUNCTIONS = {
    "unary_chain": lambda x: np.tanh(x) * np.exp(-x) + np.log(x) * hnp.sigmoid(x) + 1 / np.sqrt(x) - x**1.5,
    "axpy_broadcast": lambda x, y, b: (2.5 * x + b) / np.sqrt(y * y + 1) - np.abs(x) * 0.5,
    "leaky_relu_clamp": lambda x: np.clip(np.where(x > 0, x, x * 0.01), -0.5, 2.0),
    "iota_ramp": lambda x: x * (hnp.arange(256, dtype=F32) / 256) + hnp.arange(16, dtype=F32)[:, None],
    "row_reductions": lambda x: x.sum(1) - x.max(1) + x.min(1) + x.mean(),
    "bmm_scale": lambda a, b: a @ b * 0.25,
    "transpose_reshape": lambda x: np.transpose(x, (2, 0, 1)).reshape(32, 128) * 2 - 1,
    "slice_pad_concat_flip": lambda x: np.concatenate(
        [x[:, 32:][:, ::-1], np.pad(x[:, :32], ((0, 0), (2, 2)), constant_values=-1)], axis=1),
    "softmax": lambda x: np.exp(x - x.max(1, keepdims=True)) / np.exp(x - x.max(1, keepdims=True)).sum(1, keepdims=True),
    "layernorm": layernorm,
    "gelu_mlp": gelu_mlp,
    "mse_loss": lambda p, t: np.mean((p - t) ** 2),
    "int_select_arith": lambda a, b: np.where((a > b) & (a % 3 != 0), a // 3 + b, (b - 2 * a) ^ 85),
    "f64_poly_gauss": lambda x: ((x * 0.5 + 1.2) * x - 0.3) * x + np.exp(-x * x),
    "fori_damped": lambda x: fori_loop(0, 8, lambda i, v: v * 0.9 + np.sin(v) * 0.1 + x * 0.01, x),
    "cumsum_rows": lambda x: np.cumsum(x, axis=1),
    "gather_rows": lambda x, idx: x[idx] * 2,
    "cond_scalar_pred": lambda x, t: cond(t > 0, lambda x: np.sin(x) * 2, lambda x: x - 1, x),
    "argmax_rows": lambda x: np.argmax(x, axis=1),
}
CASES = json.loads((CORPUS / "manifest.json").read_text())["cases"]


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_traced_function_matches_xla_on_the_corpus_inputs(name):
    data = np.load(CORPUS / f"{name}.npz")
    args = [data[f"arg{i}"] for i in range(sum(k.startswith("arg") for k in data))]
    got = jit(FUNCTIONS[name])(*args)
    want = data["out0"]
    tol = CASES[name]
    assert got.shape == want.shape
    if want.dtype.kind in "iu":  # JAX computes indices in int32, numpy (and we) in int64
        np.testing.assert_array_equal(got, want)
    else:
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=tol["rtol"] or 1e-7, atol=tol["atol"])
