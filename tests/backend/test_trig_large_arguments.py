"""sin, cos and tan of huge arguments (the Payne-Hanek reduction in backend/mathlib/payne_hanek.py)
against numpy in float64, in ulps of the result's type; and its table of 2/pi's bits."""

import numpy as np
import pytest

from backend_helpers import compile_text, module
from hloscope.backend.mathlib.payne_hanek import two_over_pi, window

pytestmark = pytest.mark.hosts  # results that depend on the vector width and FMA (tests/hosts.py)

rng = np.random.default_rng(11)
NP = {"f32": np.float32, "f64": np.float64}
REF = {"sine": np.sin, "cosine": np.cos, "tan": np.tan}
BOUND = {"sine": 2.5, "cosine": 2.5, "tan": 4}  # ulps, as for small arguments (test_math_accuracy)
TOP = {"f32": 38.5, "f64": 308.2}  # log10 of the largest finite value (about)


def large_arguments(dtype):
    """Random magnitudes from just past Cody-Waite's range to the largest float, both signs,
    plus floats next to multiples of pi/2 (where the reduction cancels most)."""
    lo = 4 if dtype == "f32" else 5.5
    x = 10.0 ** rng.uniform(lo, TOP[dtype], 40000) * rng.choice([-1.0, 1.0], 40000)
    k = np.round(10.0 ** rng.uniform(lo, 15, 4000))
    near = np.concatenate([k * (np.pi / 2), -k * (np.pi / 2)]).astype(NP[dtype])
    near = np.concatenate([near, np.nextafter(near, np.inf), np.nextafter(near, -np.inf)])
    biggest = np.finfo(NP[dtype]).max
    return np.concatenate([x.astype(NP[dtype]), near, [biggest, -biggest, np.finfo(NP[dtype]).max / 3]]).astype(NP[dtype])


def ulps(got, ref, dtype):
    t = NP[dtype]
    spacing = np.maximum(np.spacing(np.abs(ref.astype(t))).astype(np.float64), float(np.finfo(t).smallest_subnormal))
    return np.abs(got.astype(np.float64) - ref) / spacing


def run(op, x, dtype):
    return compile_text(module(f"p = {dtype}[{x.size}] parameter(0)\nr = {dtype}[{x.size}] {op}(p)"), pipeline="none")(x)


@pytest.mark.parametrize("dtype", ["f32", "f64"])
@pytest.mark.parametrize("op", sorted(REF))
def test_huge_arguments_are_accurate(op, dtype):
    x = large_arguments(dtype)
    ref = REF[op](x.astype(np.float64))
    got = run(op, x, dtype)
    err = ulps(got, ref, dtype)
    worst = int(np.argmax(err))
    assert err.max() <= BOUND[op], f"x={x[worst]!r}: got {got[worst]!r}, want {ref[worst]!r} ({err[worst]:.1f} ulp)"
    if op != "tan":
        assert (np.abs(got) <= 1).all()


@pytest.mark.parametrize("dtype", ["f32", "f64"])
def test_the_reported_inputs(dtype):
    """The bug report's inputs: XLA and numpy are accurate there, hloscope gave 13.3 and -inf."""
    x = np.array([1e3, 1e5, 1e7, 1e9, 1e12, 1e15, 8.9e18, 1e30, 3e38], NP[dtype])
    for op in ("sine", "cosine"):
        got = run(op, x, dtype)
        np.testing.assert_allclose(got, REF[op](x.astype(np.float64)), rtol=0, atol=4 * np.finfo(NP[dtype]).eps)


@pytest.mark.parametrize("dtype", ["f32", "f64"])
def test_non_finite_and_the_cody_waite_boundary(dtype):
    limit = 16384.0 if dtype == "f32" else 524288.0
    x = np.array([np.inf, -np.inf, np.nan, limit, np.nextafter(limit, np.inf), -np.nextafter(limit, np.inf)], NP[dtype])
    for op in ("sine", "cosine", "tan"):
        got = run(op, x, dtype)
        assert np.isnan(got[:3]).all(), op
        with np.errstate(all="ignore"):
            assert ulps(got[3:], REF[op](x[3:].astype(np.float64)), dtype).max() <= BOUND[op], op


def test_jit_and_evaluator_agree_on_huge_arguments():
    """Through hloscope.jit, and the reference evaluator (numpy's sin) unchanged."""
    import hloscope

    x = np.array([1e9, -1e12, 8.9e18, 3e38], np.float32)
    want = np.sin(x.astype(np.float64)) + np.cos(x.astype(np.float64))
    np.testing.assert_allclose(hloscope.jit(lambda v: np.sin(v) + np.cos(v))(x), want, atol=1e-6)
    text = module("p = f32[4] parameter(0)\ns = f32[4] sine(p)\nc = f32[4] cosine(p)\nr = f32[4] add(s, c)")
    np.testing.assert_allclose(hloscope.evaluate(hloscope.parse_hlo(text), x), want, atol=1e-6)


@pytest.mark.parametrize("dtype", ["f32", "f64"])
def test_a_few_huge_among_small_arguments(dtype):
    """The CPU loop runs Cody-Waite only and recomputes with the exact reduction when it saw a
    huge argument (backend/huge_trig_loop.py): both kinds of element must come out right."""
    x = rng.uniform(-100, 100, 10000)
    x[[17, 4000, 9999]] = [1e9, -3e20, 1e30]
    x = x.astype(NP[dtype])
    for op in ("sine", "cosine"):
        got = run(op, x, dtype)
        assert ulps(got, REF[op](x.astype(np.float64)), dtype).max() <= BOUND[op], op


def test_in_place_loop_decides_before_storing():
    """sine(k) written over k's own buffer (the plan reuses k's arena slot): the loop must not
    recompute from overwritten inputs, so it checks each block before computing it."""
    n = 5000
    x = (10.0 ** rng.uniform(0, 18, n)).astype(np.float32)
    x[:2500] = rng.uniform(-10, 10, 2500)  # whole blocks without huge arguments
    text = module(f"p = f32[{n}] parameter(0)\nk = f32[{n}] multiply(p, p)\ns = f32[{n}] sine(k)\nr = f32[{n}] negate(s)")
    exe = compile_text(text, pipeline="none")
    assert "chk.body" in exe.report.optimized_llvm_ir, "the sine kernel is no longer in place: test moot"
    k = x * x
    finite = np.isfinite(k)
    got = exe(x)
    assert ulps(got[finite], -np.sin(k[finite].astype(np.float64)), "f32").max() <= BOUND["sine"]
    assert np.isnan(got[~finite]).all()


# 2/pi's first 144 bits in 24-bit words, as published in fdlibm's __kernel_rem_pio2 table.
FDLIBM_TWO_OVER_PI = [0xA2F983, 0x6E4E44, 0x1529FC, 0x2757D1, 0xF534DD, 0xC0DB62]


def test_two_over_pi_bits():
    assert two_over_pi(144) == int("".join(f"{w:06x}" for w in FDLIBM_TWO_OVER_PI), 16)
    assert two_over_pi() >> (1300 - 144) == two_over_pi(144)  # the long string starts the same
    assert window(1, 144) == two_over_pi(144)  # bits 1..144: the top of the string
    assert window(-10, 11) == 0 and window(-10, 12) == 1  # nothing above the binary point; bit 1 is 1
    assert window(25, 24) == FDLIBM_TWO_OVER_PI[1]
