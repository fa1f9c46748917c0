"""backward(), .grad and no_grad, with PyTorch's semantics (docs/lazy.md, "Gradients")."""

from __future__ import annotations

import numpy as np
import pytest

import hloscope.lazy as lz

X = np.array([[1.0, 2.0], [3.0, -1.0], [0.5, 0.25]], np.float32)


def _loss(w):
    return np.sum(np.tanh(lz.tensor(X) @ w) ** 2)


def _grad_reference(w0):
    """d/dw sum(tanh(X w)^2) in float64."""
    t = np.tanh(X.astype(np.float64) @ w0)
    return X.T.astype(np.float64) @ (2 * t * (1 - t ** 2))


W0 = np.array([[0.3, -0.2], [0.1, 0.4]], np.float32)


def test_backward_fills_grad_with_the_derivative():
    w = lz.tensor(W0, requires_grad=True)
    _loss(w).backward()
    assert w.grad is not None and w.grad.shape == w.shape and w.grad.dtype == np.float32
    np.testing.assert_allclose(w.grad.numpy(), _grad_reference(W0), rtol=1e-5, atol=1e-6)


def test_grad_accumulates_across_backward_calls_like_torch():
    w = lz.tensor(W0, requires_grad=True)
    _loss(w).backward()
    _loss(w).backward()
    np.testing.assert_allclose(w.grad.numpy(), 2 * _grad_reference(W0), rtol=1e-5, atol=1e-6)
    lz.mark_step()
    _loss(w).backward()  # across steps too: the grad is device data now, and adds up
    np.testing.assert_allclose(w.grad.numpy(), 3 * _grad_reference(W0), rtol=1e-5, atol=1e-6)


def test_setting_grad_to_none_or_zero_starts_again():
    w = lz.tensor(W0, requires_grad=True)
    _loss(w).backward()
    w.grad = None
    _loss(w).backward()
    np.testing.assert_allclose(w.grad.numpy(), _grad_reference(W0), rtol=1e-5, atol=1e-6)
    w.grad.zero_()
    _loss(w).backward()
    np.testing.assert_allclose(w.grad.numpy(), _grad_reference(W0), rtol=1e-5, atol=1e-6)


def test_no_grad_results_do_not_require_grad_and_block_gradients():
    w = lz.tensor(W0, requires_grad=True)
    with lz.no_grad():
        frozen = w * 3.0
    assert not frozen.requires_grad and w.requires_grad
    loss = np.sum(frozen * w)  # d/dw = frozen (3 w), not 6 w: nothing flows through `frozen`
    loss.backward()
    np.testing.assert_allclose(w.grad.numpy(), 3 * W0, rtol=1e-6)


def test_detach_cuts_the_graph():
    w = lz.tensor(W0, requires_grad=True)
    loss = np.sum(w.detach() * w)
    loss.backward()
    np.testing.assert_allclose(w.grad.numpy(), W0, rtol=1e-6)


def test_only_leaves_that_require_grad_get_one():
    w = lz.tensor(W0, requires_grad=True)
    c = lz.tensor(W0)
    h = w * c
    np.sum(h).backward()
    assert c.grad is None and h.grad is None and not h.is_leaf and h.requires_grad
    np.testing.assert_allclose(w.grad.numpy(), W0, rtol=1e-6)


def test_in_place_update_of_a_leaf_needs_no_grad():
    w = lz.tensor(W0, requires_grad=True)
    with pytest.raises(RuntimeError, match="in-place operation.*no_grad"):
        w -= 1.0
    with lz.no_grad():
        w -= 1.0
    np.testing.assert_allclose(w.numpy(), W0 - 1.0)
    assert w.is_leaf and w.requires_grad


def test_backward_errors_say_what_is_wrong():
    with pytest.raises(RuntimeError, match="does not require grad"):
        np.sum(lz.tensor(W0)).backward()
    w = lz.tensor(W0, requires_grad=True)
    with pytest.raises(RuntimeError, match="non-scalar"):
        (w * 2.0).backward()
    with pytest.raises(TypeError, match="floating-point"):
        lz.tensor(np.arange(3), requires_grad=True)


def test_backward_with_a_gradient_for_a_non_scalar_output():
    w = lz.tensor(W0, requires_grad=True)
    seed = np.array([[1.0, 0.0], [2.0, -1.0]], np.float32)
    (w * w).backward(lz.tensor(seed))
    np.testing.assert_allclose(w.grad.numpy(), 2 * W0 * seed, rtol=1e-6)


def test_reading_the_loss_before_backward_keeps_its_history():
    """A sync makes the loss device data; backward() still differentiates how it was computed
    (the forward pass runs again in the second graph), as torch's autograd record outlives a sync."""
    w = lz.tensor(W0, requires_grad=True)
    loss = _loss(w)
    value = float(loss)  # an implicit sync: the forward graph alone
    loss.backward()
    np.testing.assert_allclose(w.grad.numpy(), _grad_reference(W0), rtol=1e-5, atol=1e-6)
    t = np.tanh(X.astype(np.float64) @ W0)
    assert value == pytest.approx(float(np.sum(t ** 2)), rel=1e-5)
    assert lz.metrics()["executions"] == 2 and lz.metrics()["implicit_syncs"] == 2


def test_backward_after_the_parameters_were_updated_in_place_is_an_error():
    w = lz.tensor(W0, requires_grad=True)
    loss = _loss(w)
    with lz.no_grad():
        w -= 0.5  # in the same step as the loss: its buffer is reused for the new value
    lz.mark_step()
    with pytest.raises(RuntimeError, match="updated in place"):
        loss.backward()
