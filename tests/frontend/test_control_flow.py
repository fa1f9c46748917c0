"""cond, switch, while_loop and fori_loop: traced to HLO conditional/while, run, and compared
with the same code run eagerly (outside a trace they are plain Python control flow)."""

from __future__ import annotations

import numpy as np

from hloscope import jit
from hloscope.frontend import cond, fori_loop, switch, while_loop

X = np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4)


def test_cond_picks_the_branch_at_run_time(check):
    def f(x, t):
        return cond(t > 0, lambda x: np.sin(x) * 2, lambda x: x - 1, x)

    jf = check(f, X, np.float32(1))
    np.testing.assert_allclose(jf(X, np.float32(-1)), X - 1)
    assert jf.cache_info().misses == 1


def test_cond_with_pytree_operands_results_and_captured_values(check):
    w = np.full((4,), 3, np.float32)

    def f(x, t, b):
        def yes(ops):
            a, (c,) = ops
            return {"s": a.sum() + b, "v": a[0] * w}

        def no(ops):
            a, (c,) = ops
            return {"s": c.max(), "v": a[1] - b}

        return cond(t, yes, no, (x, (x * 2,)))

    check(f, X, True, np.float32(0.5))
    check(f, X, np.bool_(False), np.float32(0.5))
    jf = jit(f)
    np.testing.assert_allclose(jf(X, np.bool_(False), np.float32(0.5))["v"], X[1] - 0.5)


def test_cond_with_a_python_number_in_one_branch_takes_the_arrays_dtype():
    def f(x, t):
        return cond(t > 0, lambda x: x.sum(), lambda x: 0.0, x)

    out = jit(f)(X, np.float32(-1))
    assert out.dtype == np.float32 and out == 0


def test_switch_on_an_integer_index_clamps_like_jax():
    branches = [lambda x: x + 1, lambda x: x * 10, lambda x: -x]
    f = jit(lambda i, x: switch(i, branches, x))
    for i, want in [(0, X + 1), (1, X * 10), (2, -X), (7, -X), (-3, X + 1)]:
        np.testing.assert_allclose(f(np.int32(i), X), want)


def test_fori_loop_matches_a_python_loop(check):
    def f(x, w):
        def body(i, v):
            return np.tanh(v @ w) + x[i % 3].sum() * 0.01

        return fori_loop(0, 5, body, x)

    check(f, X, np.eye(4, dtype=np.float32) * 0.5, rtol=1e-5)


def test_fori_loop_accumulating_into_a_python_float_stays_float32(check):
    def f(x):
        return fori_loop(0, x.shape[0], lambda i, acc: acc + x[i].sum(), 0.0)

    jf = check(f, X)
    assert jf(X).dtype == np.float32


def test_fori_loop_with_traced_bounds(check):
    def f(x, n):
        return fori_loop(0, n, lambda i, v: v * 2, x)

    jf = check(f, X, np.int64(3))
    np.testing.assert_allclose(jf(X, np.int64(0)), X)
    assert jf.cache_info().misses == 1


def test_while_loop_with_a_pytree_carry(check):
    def f(x):
        def cond_fun(carry):
            i, v = carry
            return (i < 10) & (v.max() < 100)

        def body_fun(carry):
            i, v = carry
            return i + 1, v * 1.5 + 1

        return while_loop(cond_fun, body_fun, (0, x))

    check(f, X)


def test_nested_loops_and_cond_capture_through_levels(check):
    def f(x, scale):
        def outer(i, acc):
            inner = fori_loop(0, 3, lambda j, v: v + scale * j, acc)
            return cond(i % 2 == 0, lambda a: a * 0.5, lambda a: a - scale, inner)

        return fori_loop(0, 4, outer, x)

    check(f, X, np.float32(0.25))


def test_control_flow_runs_eagerly_outside_a_trace():
    assert cond(True, lambda a: a + 1, lambda a: a - 1, 1) == 2
    assert fori_loop(0, 4, lambda i, s: s + i, 0) == 6
    assert while_loop(lambda c: c < 10, lambda c: c * 2, 1) == 16
    assert switch(5, [lambda: "a", lambda: "b"]) == "b"


def test_trace_listing_shows_nested_programs():
    def f(x, t):
        return cond(t > 0, lambda x: np.sin(x), lambda x: fori_loop(0, 2, lambda i, v: v * 2, x), x)

    text = str(jit(f).trace(X, np.float32(1)))
    assert "cond[branches=2]" in text and "branch 0:" in text and "branch 1:" in text
    assert "fori_loop" in text and "body:" in text and "cond:" in text
    assert "sin" in text
