"""The transcendental approximations (backend/mathlib/approx.py) against numpy, in ulps.

The bounds are the ones documented in backend/mathlib/approx.py (measured by
benchmarks/math_accuracy.py on many more inputs, as every CPU of tests/hosts.py), over wide
ranges of inputs including denormals, huge values, +-0, +-inf and NaN (math_cases.py).
"""

import numpy as np
import pytest

from backend_helpers import compile_text, module
from math_cases import NP, UNARY, case_rng, run_unary, ulp_error, unary_errors, unary_inputs, wide

pytestmark = pytest.mark.hosts  # results that depend on the vector width and FMA (tests/hosts.py)

@pytest.mark.parametrize("dtype", ["f32", "f64"])
@pytest.mark.parametrize("op", sorted(UNARY))
def test_unary_accuracy(op, dtype):
    x = unary_inputs(op, dtype)
    err, got, ref = unary_errors(op, dtype, x)
    worst = int(np.argmax(err))
    assert err.max() <= UNARY[op][2][dtype == "f64"], f"x={x[worst]!r}: got {got[worst]!r}, want {ref[worst]!r}"


def test_special_values():
    x = np.array([np.inf, -np.inf, np.nan, 0.0, -0.0], np.float32)
    expect = {
        "exponential": [np.inf, 0, np.nan, 1, 1], "log": [np.inf, np.nan, np.nan, -np.inf, -np.inf],
        "tanh": [1, -1, np.nan, 0, -0.0], "logistic": [1, 0, np.nan, 0.5, 0.5],
        "sine": [np.nan, np.nan, np.nan, 0, -0.0], "erf": [1, -1, np.nan, 0, -0.0],
        "exponential-minus-one": [np.inf, -1, np.nan, 0, -0.0], "log-plus-one": [np.inf, np.nan, np.nan, 0, -0.0],
    }
    for op, want in expect.items():
        got = run_unary(op, x, "f32")
        np.testing.assert_array_equal(got, np.array(want, np.float32), err_msg=op)
        assert np.signbit(got[4]) == np.signbit(np.float32(want[4])), op


@pytest.mark.parametrize("dtype", ["f32", "f64"])
def test_power(dtype):
    n, rng = 100000, case_rng("power", dtype)
    x = np.abs(wide(rng, n, -30, 30))
    y = rng.uniform(-50, 50, n)
    x[:1000] *= -1
    y[:500] = np.round(y[:500])
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 2.0, -2.0, 0.5, 3.0])
    sx, sy = np.meshgrid(special, special)
    with np.errstate(all="ignore"):
        x = np.concatenate([x, sx.ravel()]).astype(NP[dtype])
        y = np.concatenate([y, sy.ravel()]).astype(NP[dtype])
    text = module(f"p = {dtype}[{x.size}] parameter(0)\nq = {dtype}[{x.size}] parameter(1)\nr = {dtype}[{x.size}] power(p, q)")
    got = compile_text(text, pipeline="none")(x, y)
    with np.errstate(all="ignore"):
        ref = np.power(x.astype(np.float64), y.astype(np.float64))
    err = ulp_error(got, ref, dtype)
    if dtype == "f64":  # documented: about (2 + |y ln x|) ulp, log(x) has no extra precision
        with np.errstate(all="ignore"):
            bound = 2 + np.abs(y * np.log(np.abs(x)))
        bound[~np.isfinite(bound)] = 2
        assert (err <= 2 * bound).all()
    else:
        assert err.max() <= 1


@pytest.mark.parametrize("dtype", ["f32", "f64"])
def test_atan2(dtype):
    n, rng = 100000, case_rng("atan2", dtype)
    y, x = wide(rng, n, -30, 30), wide(rng, n, -30, 30)
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0])
    sy, sx = np.meshgrid(special, special)
    y = np.concatenate([y, sy.ravel()]).astype(NP[dtype])
    x = np.concatenate([x, sx.ravel()]).astype(NP[dtype])
    text = module(f"p = {dtype}[{x.size}] parameter(0)\nq = {dtype}[{x.size}] parameter(1)\nr = {dtype}[{x.size}] atan2(p, q)")
    got = compile_text(text, pipeline="none")(y, x)
    ref = np.arctan2(y.astype(np.float64), x.astype(np.float64))
    assert ulp_error(got, ref, dtype).max() <= 2
    assert ((np.signbit(got) == np.signbit(ref.astype(NP[dtype]))) | np.isnan(ref)).all()


def test_transcendental_loops_vectorize():
    """The point of the approximations: the optimized loop is vector code, no libm call."""
    text = module("p = f32[4096] parameter(0)\ne = f32[4096] exponential(p)\ns = f32[4096] sine(e)\nr = f32[4096] tanh(s)")
    ir = compile_text(text).report.optimized_llvm_ir
    assert "x float>" in ir
    for libm in ("@expf", "@sinf", "@tanhf"):
        assert libm not in ir
