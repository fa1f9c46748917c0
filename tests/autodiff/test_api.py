"""grad / value_and_grad / vjp / jvp as JAX has them: argnums tuples, has_aux, pytrees,
integer and boolean inputs, stop_gradient, composition with jit and with themselves, and the
errors (a while loop in reverse mode, an op with no rule)."""

from __future__ import annotations

import inspect

import numpy as np
import pytest
from autodiff_cases import finite_differences

import hloscope
from hloscope.frontend import fori_loop, ops, while_loop
from hloscope.frontend.autodiff import NotDifferentiableError, float0
from hloscope.frontend.trace import operation

X = np.linspace(-1.0, 1.0, 12).reshape(3, 4)
W = np.cos(np.arange(8.0)).reshape(4, 2)


def loss(w, x):
    return np.mean(np.tanh(x @ w) ** 2)


def test_argnums_tuple_gives_a_tuple_in_that_order():
    gw, gx = hloscope.grad(loss, argnums=(0, 1))(W, X)
    (gx2,) = hloscope.grad(loss, argnums=(1,))(W, X)
    np.testing.assert_allclose(gw, finite_differences(loss, (W, X), 0), atol=1e-8)
    np.testing.assert_allclose(gx, finite_differences(loss, (W, X), 1), atol=1e-8)
    np.testing.assert_allclose(gx2, gx)


def test_value_and_grad_with_has_aux():
    def f(w, x):
        y = x @ w
        return np.sum(y ** 2), {"mean": np.mean(y), "y": y}

    (value, aux), g = hloscope.value_and_grad(f, has_aux=True)(W, X)  # JAX's layout
    assert value == pytest.approx(np.sum((X @ W) ** 2))
    np.testing.assert_allclose(aux["y"], X @ W)
    np.testing.assert_allclose(g, 2 * X.T @ (X @ W), rtol=1e-12)
    g2, aux2 = hloscope.grad(f, has_aux=True)(W, X)
    np.testing.assert_allclose(g2, g)
    assert aux2["mean"] == pytest.approx(np.mean(X @ W))


@pytest.mark.jax
def test_has_aux_layouts_match_jax():
    jax = pytest.importorskip("jax")

    def make(xp):
        return lambda w, n: (xp.sum(xp.sin(w) * w), {"n": n * 2})

    w, n = W.astype(np.float32), np.arange(2, dtype=np.int32)
    for transform in ("grad", "value_and_grad"):
        got = getattr(hloscope, transform)(make(np), argnums=(0, 1), has_aux=True, allow_int=True)(w, n)
        want = getattr(jax, transform)(make(jax.numpy), argnums=(0, 1), has_aux=True, allow_int=True)(w, n)
        got_leaves, got_tree = jax.tree_util.tree_flatten(got)
        want_leaves, want_tree = jax.tree_util.tree_flatten(want)
        assert got_tree == want_tree, transform
        for g, x in zip(got_leaves, want_leaves):
            assert np.asarray(g).dtype == np.asarray(x).dtype and np.shape(g) == np.shape(x)
            if np.asarray(x).dtype != float0:
                np.testing.assert_allclose(g, x, rtol=1e-6)


def test_has_aux_needs_a_pair():
    with pytest.raises(TypeError, match="must return a pair"):
        hloscope.grad(lambda x: np.sum(x), has_aux=True)(X)


def test_grad_of_a_pytree_argument():
    def f(params, x):
        return np.sum(np.tanh(x @ params["w"] + params["b"][0]))

    params = {"w": W, "b": (np.ones(2),)}
    g = hloscope.grad(f)(params, X)
    assert set(g) == {"w", "b"} and g["b"][0].shape == (2,)
    flat = lambda w, b: f({"w": w, "b": (b,)}, X)  # noqa: E731
    np.testing.assert_allclose(g["w"], finite_differences(flat, (W, np.ones(2)), 0), atol=1e-8)
    np.testing.assert_allclose(g["b"][0], finite_differences(flat, (W, np.ones(2)), 1), atol=1e-8)


def test_grad_needs_a_scalar_output():
    with pytest.raises(TypeError, match="one scalar float output"):
        hloscope.grad(lambda x: x * 2)(X)


def test_integer_and_boolean_inputs_need_allow_int_and_get_float0():
    def f(x, n, mask):
        return np.sum(np.where(mask, x * n, 0.0))

    n, mask = np.arange(4), X > 0
    with pytest.raises(TypeError, match="allow_int"):
        hloscope.grad(f, argnums=1)(X, n, mask)
    with pytest.raises(TypeError, match="allow_int"):
        hloscope.grad(f, argnums=(0, 2))(X, n, mask)
    gx, gn, gm = hloscope.grad(f, argnums=(0, 1, 2), allow_int=True)(X, n, mask)
    np.testing.assert_allclose(gx, np.where(mask, n, 0.0))
    assert gn.dtype == float0 and gn.shape == n.shape
    assert gm.dtype == float0 and gm.shape == mask.shape


def test_jvp_takes_float0_tangents_for_integer_primals():
    value, tangent = hloscope.jvp(lambda x, n: np.sum(x * n), (X, np.arange(4)), (np.ones_like(X), np.zeros(4, float0)))
    assert tangent == pytest.approx(np.sum(np.broadcast_to(np.arange(4.0), X.shape)))


def test_prod_gradient_is_exact_at_zeros():
    """The product of the other elements: no 0/0 where an element is zero (as JAX)."""
    g = hloscope.grad(lambda x: np.prod(x))
    np.testing.assert_array_equal(g(np.array([0.0, 2.0, 3.0])), [6.0, 0.0, 0.0])
    np.testing.assert_array_equal(g(np.array([0.0, 0.0, 3.0])), [0.0, 0.0, 0.0])


def test_vjp_of_integer_primals_gives_float0():
    out, pull = hloscope.vjp(lambda x, n: x * n, X, np.arange(4))
    ct_x, ct_n = pull(np.ones_like(X))
    np.testing.assert_allclose(ct_x, np.broadcast_to(np.arange(4.0), X.shape))
    assert ct_n.dtype == float0 and ct_n.shape == (4,)


def test_stop_gradient_makes_a_constant():
    g = hloscope.grad(lambda x: np.sum(x * hloscope.stop_gradient(x) + hloscope.stop_gradient(x ** 2)))(X)
    np.testing.assert_allclose(g, X)
    assert hloscope.stop_gradient(X) is X  # outside a trace: the value itself


def test_jit_of_grad_and_grad_of_jit_agree():
    a = hloscope.jit(hloscope.grad(loss))(W, X)
    b = hloscope.grad(hloscope.jit(loss))(W, X)
    np.testing.assert_allclose(a, finite_differences(loss, (W, X), 0), atol=1e-8)
    np.testing.assert_allclose(b, a, rtol=1e-12)


def test_a_closed_over_value_is_a_constant():
    def f(w):
        return np.sum(np.sin(hloscope.grad(lambda v: np.sum(v * w))(w)))  # d/dv (v*w) = w

    np.testing.assert_allclose(hloscope.grad(f)(W), np.cos(W), rtol=1e-12)


@pytest.mark.jax
def test_vjp_with_pytree_outputs_matches_jax():
    jax = pytest.importorskip("jax")
    jnp = jax.numpy

    def make(xp):
        def f(w, x):
            y = x @ w
            return {"act": xp.tanh(y), "stats": (xp.sum(y ** 2), xp.max(y, axis=0))}
        return f

    w, x = W.astype(np.float32), X.astype(np.float32)
    ct = {"act": np.sin(np.arange(6.0, dtype=np.float32)).reshape(3, 2),
          "stats": (np.float32(0.5), np.array([1.0, -2.0], np.float32))}
    out, pull = hloscope.vjp(make(np), w, x)
    want_out, want_pull = jax.vjp(make(jnp), w, x)
    np.testing.assert_allclose(out["act"], want_out["act"], rtol=1e-6)
    for got, want in zip(pull(ct), want_pull(ct)):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_the_cotangent_must_match_the_output_structure():
    _, pull = hloscope.vjp(lambda x: (x, x * 2), X)
    with pytest.raises(TypeError, match="structure"):
        pull(np.ones_like(X))


HVP_CASES = {
    "mlp": lambda xp: lambda x: xp.sum(xp.tanh(x @ W) ** 2),
    "softmax": lambda xp: lambda x: xp.sum(xp.exp(x) / xp.sum(xp.exp(x), axis=1, keepdims=True) * X),
    "gather_then_scatter": lambda xp: lambda x: xp.sum(xp.sin(x[xp.array([0, 2, 2])]) ** 2),
    "cummax_select_and_scatter": lambda xp: lambda x: xp.sum(_cummax(xp, x) ** 3),
    "fori_loop": lambda xp: lambda x: xp.sum(_fori(xp)(0, 3, lambda i, v: xp.sin(v) * 1.3, x)),
    "prod": lambda xp: lambda x: xp.prod(x[0] + 2.0),
}


def _cummax(xp, x):
    if xp is np:
        return np.maximum.accumulate(x, axis=1)
    import jax

    return jax.lax.cummax(x, axis=1)


def _fori(xp):
    if xp is np:
        return fori_loop
    import jax

    return jax.lax.fori_loop


@pytest.mark.jax
@pytest.mark.parametrize("name", list(HVP_CASES))
def test_hessian_vector_products_match_jax(name):
    """grad of grad: d/dx <grad f(x), v> = H v."""
    jax = pytest.importorskip("jax")
    jnp = jax.numpy
    x = (X * 0.9 + 0.05).astype(np.float32)
    v = np.cos(np.arange(12.0)).reshape(3, 4).astype(np.float32)
    f, jf = HVP_CASES[name](np), HVP_CASES[name](jnp)
    got = hloscope.grad(lambda x: np.sum(hloscope.grad(f)(x) * v))(x)
    want = jax.grad(lambda x: jnp.sum(jax.grad(jf)(x) * v))(x)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def test_hessian_vector_product_matches_finite_differences_of_the_gradient():
    f = HVP_CASES["mlp"](np)
    v = np.cos(np.arange(12.0)).reshape(3, 4)
    hv = hloscope.grad(lambda x: np.sum(hloscope.grad(f)(x) * v))(X)
    grad = hloscope.jit(hloscope.grad(f))
    eps = 1e-5
    np.testing.assert_allclose(hv, (grad(X + eps * v) - grad(X - eps * v)) / (2 * eps), rtol=1e-6, atol=1e-8)


def test_while_loop_reverse_mode_is_refused_at_the_users_line():
    def f(x):
        return np.sum(while_loop(lambda v: np.sum(v) < 40.0, lambda v: v * 2.0, x))

    line = inspect.getsourcelines(f)[1] + 1
    with pytest.raises(NotDifferentiableError, match="not differentiable: while_loop") as e:
        hloscope.grad(f)(X + 2)
    assert f"test_api.py:{line}" in str(e.value) and "fori_loop" in str(e.value)
    _, tangent = hloscope.jvp(f, (X + 2,), (np.ones_like(X),))  # forward mode works
    assert tangent == pytest.approx(np.sum(np.ones_like(X)) * 2)


def test_an_op_without_a_rule_is_refused_by_name_at_the_users_line():
    """A custom-call (an op the numpy rules never emit): emitted here as a lowering rule would."""
    def f(x):
        y = np.sin(x)
        with operation("my_kernel", [y]): z = ops.emit("custom-call", (y,), y.aval.hlo_shape(), custom_call_target="k")  # noqa: E701,E501
        return np.sum(z)

    line = inspect.getsourcelines(f)[1] + 2
    with pytest.raises(NotDifferentiableError, match=r"not differentiable: my_kernel \(HLO custom-call\)") as e:
        hloscope.grad(f)(X)
    assert f"test_api.py:{line}" in str(e.value) and " in \n" not in str(e.value)


def test_a_convert_between_float_types_passes_the_cotangent_back_converted():
    g = hloscope.grad(lambda x: np.sum(x.astype(np.float64) ** 2))(X.astype(np.float32))
    assert g.dtype == np.float32
    np.testing.assert_allclose(g, 2 * X.astype(np.float32), rtol=1e-6)


def test_jax_conventions_at_kinks():
    """abs'(0) = 0, sqrt'(0) = inf, ties of maximum and of a max reduction split evenly, as
    jax.grad gives them."""
    zero = np.zeros(3)
    np.testing.assert_array_equal(hloscope.grad(lambda x: np.sum(np.abs(x)))(zero), [0, 0, 0])
    assert np.all(np.isposinf(hloscope.grad(lambda x: np.sum(np.sqrt(x)))(zero)))
    np.testing.assert_array_equal(hloscope.grad(lambda x: np.sum(np.maximum(x, 0.0)))(zero), [0.5] * 3)
    np.testing.assert_array_equal(hloscope.grad(lambda x: np.max(x))(np.ones(4)), [0.25] * 4)
