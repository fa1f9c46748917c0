"""A two-layer MLP's SGD step and a transformer block's loss gradient: traced, compiled
natively (backend="cpu") and run on the reference evaluator, against jax.grad of the same
code (and, without jax, against float64 finite differences on a few parameters)."""

from __future__ import annotations

import numpy as np
import pytest
from autodiff_cases import finite_differences
from autodiff_models import DIM, SEQ, block_loss, block_params, mlp_loss, mlp_params, sgd_step

import hloscope

RNG = np.random.default_rng(0)
MLP = mlp_params(RNG)
MLP_X = RNG.standard_normal((32, 8)).astype(np.float32)
MLP_Y = RNG.standard_normal((32, 4)).astype(np.float32)
BLOCK = block_params(RNG)
BLOCK_X = RNG.standard_normal((SEQ, DIM)).astype(np.float32)
BLOCK_T = RNG.standard_normal((SEQ, DIM)).astype(np.float32)
BACKENDS = ["cpu", "evaluator"]


def _block_grad(backend):
    return hloscope.jit(hloscope.value_and_grad(lambda p, x, t: block_loss(np, p, x, t)), backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_mlp_training_step_lowers_the_loss_and_matches_jax(backend):
    jax = pytest.importorskip("jax")
    step = hloscope.jit(sgd_step(np, hloscope.value_and_grad), backend=backend)
    params, losses = MLP, []
    for _ in range(5):
        params, loss = step(params, MLP_X, MLP_Y)
        losses.append(float(loss))
    assert losses == sorted(losses, reverse=True), losses  # gradient descent descends
    want_params, want_losses = MLP, []
    jax_step = jax.jit(sgd_step(jax.numpy, jax.value_and_grad))
    for _ in range(5):
        want_params, loss = jax_step(want_params, MLP_X, MLP_Y)
        want_losses.append(float(loss))
    np.testing.assert_allclose(losses, want_losses, rtol=1e-5)
    for k in MLP:
        np.testing.assert_allclose(params[k], want_params[k], rtol=1e-4, atol=1e-6, err_msg=k)


def test_mlp_gradient_matches_finite_differences_in_float64():
    p64 = {k: v.astype(np.float64) for k, v in MLP.items()}
    x, y = MLP_X.astype(np.float64), MLP_Y.astype(np.float64)
    g = hloscope.grad(lambda p: mlp_loss(np, p, x, y))(p64)
    for k in p64:
        def of_k(v, k=k):
            return mlp_loss(np, {**p64, k: v}, x, y)
        np.testing.assert_allclose(g[k], finite_differences(of_k, (p64[k],), 0), rtol=1e-5, atol=1e-8, err_msg=k)


@pytest.mark.parametrize("backend", BACKENDS)
def test_transformer_block_gradients_match_jax(backend):
    jax = pytest.importorskip("jax")
    loss, grads = _block_grad(backend)(BLOCK, BLOCK_X, BLOCK_T)
    want_loss, want = jax.value_and_grad(lambda p, x, t: block_loss(jax.numpy, p, x, t))(BLOCK, BLOCK_X, BLOCK_T)
    assert float(loss) == pytest.approx(float(want_loss), rel=1e-5)
    assert set(grads) == set(BLOCK)
    for k in BLOCK:
        assert grads[k].dtype == np.float32 and grads[k].shape == BLOCK[k].shape
        np.testing.assert_allclose(grads[k], want[k], rtol=1e-3, atol=2e-5, err_msg=k)


def test_transformer_block_gradients_match_finite_differences_in_float64():
    p64 = {k: v.astype(np.float64) for k, v in BLOCK.items()}
    x, t = BLOCK_X.astype(np.float64), BLOCK_T.astype(np.float64)
    g = hloscope.grad(lambda p: block_loss(np, p, x, t))(p64)
    for k in ["ln1_g", "wq", "wk", "b1", "ln2_b"]:  # the others are checked against jax
        def of_k(v, k=k):
            return block_loss(np, {**p64, k: v}, x, t)
        np.testing.assert_allclose(g[k], finite_differences(of_k, (p64[k],), 0), rtol=1e-5, atol=1e-8, err_msg=k)


def test_native_and_evaluator_agree_on_the_block_gradient():
    _, native = _block_grad("cpu")(BLOCK, BLOCK_X, BLOCK_T)
    _, reference = _block_grad("evaluator")(BLOCK, BLOCK_X, BLOCK_T)
    for k in BLOCK:
        np.testing.assert_allclose(native[k], reference[k], rtol=1e-4, atol=1e-6, err_msg=k)
