"""The transcendental approximations (backend/mathlib/approx.py) against numpy, in ulps.

The bounds are the ones documented in backend/mathlib/approx.py (measured here), over wide
ranges of inputs including denormals, huge values, +-0, +-inf and NaN.
"""

import numpy as np
import pytest
import scipy.special as sp

from backend_helpers import compile_text, module

rng = np.random.default_rng(5)
NP = {"f32": np.float32, "f64": np.float64}


def logistic_ref(x):
    e = np.exp(-np.abs(x))
    return np.where(x < 0, e / (1 + e), 1 / (1 + e))


# opcode: (reference in float64, input range, (f32 max ulp, f64 max ulp))
UNARY = {
    "exponential": (np.exp, (-800, 800), (1, 2)),
    "log": (np.log, "positive", (1, 1)),
    "log-plus-one": (np.log1p, "log1p", (2.5, 2)),
    "exponential-minus-one": (np.expm1, (-800, 800), (1.5, 2)),
    "logistic": (logistic_ref, (-800, 800), (2.5, 3)),
    "tanh": (np.tanh, (-30, 30), (5, 2)),
    "sine": (np.sin, (-25000, 25000), (2.5, 2.5)),
    "cosine": (np.cos, (-25000, 25000), (2.5, 2.5)),
    "tan": (np.tan, (-25000, 25000), (4, 3.5)),
    "erf": (sp.erf, (-8, 8), (1, 2.5)),
    "cbrt": (np.cbrt, "positive", (1, 3.5)),
}
SPECIALS = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 1e-40, 1e-310, 5e-324, 1.0, -1.0, 0.5,
            88.7, 89.0, -87.0, -103.0, -104.5, 709.7, 710.0, -745.0, 1e30, -1e30]


def wide(n, lo=-300, hi=300):
    return rng.uniform(-1, 1, n) * 10.0 ** rng.uniform(lo, hi, n)


def inputs(domain, dtype):
    if domain == "positive":
        x = np.abs(wide(100000))
    elif domain == "log1p":
        x = np.concatenate([wide(50000), rng.uniform(-1, 1, 50000)])
    else:
        x = rng.uniform(domain[0], domain[1], 100000)
        if domain[1] < 1000:
            x = np.concatenate([x, wide(20000)])
    with np.errstate(all="ignore"):  # huge values become inf in f32, on purpose
        return np.concatenate([x, SPECIALS]).astype(NP[dtype])


def ulp_error(got, ref, dtype):
    t = NP[dtype]
    with np.errstate(over="ignore"):  # an f64 reference beyond f32's range rounds to inf
        ref_t = ref.astype(t)
    same = (got == ref_t) | (np.isnan(got) & np.isnan(ref_t))
    spacing = np.maximum(np.spacing(np.abs(ref_t)).astype(np.float64), float(np.finfo(t).smallest_subnormal))
    with np.errstate(invalid="ignore"):
        err = np.abs(got.astype(np.float64) - ref) / spacing
    err[same] = 0
    err[np.isnan(err)] = np.inf
    return err


def run_unary(op, x, dtype):
    return compile_text(module(f"p = {dtype}[{x.size}] parameter(0)\nr = {dtype}[{x.size}] {op}(p)"), pipeline="none")(x)


@pytest.mark.parametrize("dtype", ["f32", "f64"])
@pytest.mark.parametrize("op", sorted(UNARY))
def test_unary_accuracy(op, dtype):
    ref_fn, domain, bounds = UNARY[op]
    x = inputs(domain, dtype)
    if op in ("sine", "cosine", "tan"):
        x = x[~(np.abs(x) > 25000)]  # the documented range (inf and NaN stay in)
    with np.errstate(all="ignore"):
        ref = np.asarray(ref_fn(x.astype(np.float64)), np.float64)
    got = run_unary(op, x, dtype)
    err = ulp_error(got, ref, dtype)
    worst = int(np.argmax(err))
    assert err.max() <= bounds[dtype == "f64"], f"x={x[worst]!r}: got {got[worst]!r}, want {ref[worst]!r}"


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
    n = 100000
    x = np.abs(wide(n, -30, 30))
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
    n = 100000
    y, x = wide(n, -30, 30), wide(n, -30, 30)
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
