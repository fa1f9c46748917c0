"""jvp against finite differences (float64) and jax.jvp (float32), including forward mode
through a while_loop whose trip count is not known."""

from __future__ import annotations

import numpy as np
import pytest
from autodiff_cases import BY_NAME, NUMPY, directional_difference, jax_namespace

import hloscope
from hloscope.frontend import while_loop

SUBSET = ["tan", "erf", "power", "maximum_minimum_ties", "where", "broadcasting", "prod", "logsumexp",
          "cumsum_cumprod", "cummax_cummin", "matmul", "einsum", "concatenate_stack", "pad", "tile_repeat",
          "basic_indexing", "advanced_indexing_gather", "sort", "cond", "fori_loop", "fori_loop_weights_and_index",
          "softmax_cross_entropy", "var_std", "prod_with_zeros", "cumprod_with_zeros", "cond_inside_fori_loop"]


def _tangents(args, dtype):
    rng = np.random.default_rng(1)
    return tuple(rng.standard_normal(np.shape(a)).astype(dtype) for a in args)


@pytest.mark.parametrize("name", SUBSET)
def test_jvp_matches_finite_differences(name):
    case = BY_NAME[name]
    f = case.make(NUMPY)
    args, tangents = case.args_as(np.float64), _tangents(case.args, np.float64)
    value, tangent = hloscope.jvp(f, args, tangents)
    np.testing.assert_allclose(value, f(*args), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(tangent, directional_difference(f, args, tangents), rtol=1e-5, atol=1e-6)


@pytest.mark.jax
@pytest.mark.parametrize("name", SUBSET[:8])
def test_jvp_matches_jax(name):
    jax = pytest.importorskip("jax")
    case = BY_NAME[name]
    args, tangents = case.args_as(np.float32), _tangents(case.args, np.float32)
    _, got = hloscope.jvp(case.make(NUMPY), args, tangents)
    _, want = jax.jvp(case.make(jax_namespace()), args, tangents)
    np.testing.assert_allclose(got, want, rtol=2e-4, atol=2e-5)


def _doubling(x):
    """A while loop whose trip count depends on the data (so only forward mode works)."""
    return np.sum(while_loop(lambda v: np.sum(v) < 40.0, lambda v: v * 1.5 + np.sin(v), x))


def test_jvp_through_a_while_loop():
    x = np.linspace(0.1, 1.0, 6)
    t = np.cos(np.arange(6.0))
    value, tangent = hloscope.jvp(_doubling, (x,), (t,))
    assert value == pytest.approx(_doubling(x))
    assert tangent == pytest.approx(directional_difference(_doubling, (x,), (t,)), rel=1e-6)


def test_jvp_of_a_vector_output_and_pytree_primals():
    def f(params, x):
        return np.tanh(x @ params["w"] + params["b"])

    rng = np.random.default_rng(2)
    params = {"w": rng.standard_normal((4, 3)), "b": rng.standard_normal(3)}
    x = rng.standard_normal((5, 4))
    t_params = {"w": rng.standard_normal((4, 3)), "b": rng.standard_normal(3)}
    t_x = np.zeros_like(x)
    value, tangent = hloscope.jvp(f, (params, x), (t_params, t_x))
    assert tangent.shape == (5, 3)
    eps = 1e-6
    up = {k: params[k] + eps * t_params[k] for k in params}
    down = {k: params[k] - eps * t_params[k] for k in params}
    np.testing.assert_allclose(tangent, (f(up, x) - f(down, x)) / (2 * eps), rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(value, f(params, x), rtol=1e-12)
