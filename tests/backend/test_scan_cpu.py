"""Cumulative reduce-windows on the CPU (backend/cpu/scan_kernel.py) against the evaluator.

A prefix window (every window starts at the first element) is a scan for any reducer, in the
window's own order; a suffix window (reverse=True) is regrouped only for reducers
backend/associative.py proves associative, and the others keep the elemental window loop.
"""

from __future__ import annotations

import numpy as np
import pytest

from backend_helpers import NUMPY, check_against_evaluator, module, reducer

pytestmark = pytest.mark.hosts  # results that depend on the vector width and FMA (tests/hosts.py)

# jax.lax.cumlogsumexp's reducer, as jax 0.10.2 prints it.
LOGADDEXP = """
logaddexp {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  sub = f32[] subtract(a, b)
  ne = pred[] compare(sub, sub), direction=NE
  add2 = f32[] add(a, b)
  max = f32[] maximum(a, b)
  abs = f32[] abs(sub)
  neg = f32[] negate(abs)
  exp = f32[] exponential(neg)
  log1p = f32[] log-plus-one(exp)
  add3 = f32[] add(max, log1p)
  ROOT r = f32[] select(ne, add2, add3)
}
"""
# acc/2 + x: not associative, so a reverse window must fold in the window's order.
HALVING = """
halving {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  h = f32[] constant(0.5)
  m = f32[] multiply(a, h)
  ROOT r = f32[] add(m, b)
}
"""
REDUCERS = {  # name: (computation text, init, numpy value scale)
    "add": (reducer("add", "add", "f32"), "0", 1.0),
    "multiply": (reducer("multiply", "multiply", "f32"), "1", 0.1),
    "maximum": (reducer("maximum", "maximum", "f32"), "-inf", 1.0),
    "minimum": (reducer("minimum", "minimum", "f32"), "inf", 1.0),
    "logaddexp": (LOGADDEXP, "-inf", 1.0),
    "halving": (HALVING, "0", 1.0),
}


def _data(dtype, *shape, scale=1.0):
    values = np.random.default_rng(7).standard_normal(shape) * scale
    if dtype == "f32" and scale != 1.0:  # products of numbers near 1 stay finite and nonzero
        values = 1.0 + values
    return values.astype(NUMPY[dtype])


def _window_text(name, rows, n, window, out=None, dtype="f32"):
    comp, init, _ = REDUCERS[name]
    out = out or n
    return module(f"""
        x = {dtype}[{rows},{n}] parameter(0)
        i = {dtype}[] constant({init})
        w = {dtype}[{rows},{out}] reduce-window(x, i), window={window}, to_apply={name}
    """, comp.replace("f32", dtype))


def _kinds(exe):
    return [k.kind for k in exe.report.kernels]


@pytest.mark.parametrize("name", sorted(REDUCERS))
def test_cumulative_every_reducer_is_a_scan(name):
    text = _window_text(name, 11, 300, "{size=1x300 pad=0_0x299_0}")  # one block of 8 rows, 3 alone
    exe = check_against_evaluator(text, [_data("f32", 11, 300, scale=REDUCERS[name][2])], rtol=1e-5, atol=1e-5)
    assert _kinds(exe) == ["scan"]
    assert "prefix scan along dimension 1" in exe.report.kernels[0].notes[0]


@pytest.mark.parametrize("name", sorted(REDUCERS))
def test_reverse_cumulative(name):
    """Suffix windows: a scan from the end for associative reducers, else the window loop."""
    text = _window_text(name, 10, 200, "{size=1x200 pad=0_0x0_199}")
    exe = check_against_evaluator(text, [_data("f32", 10, 200, scale=REDUCERS[name][2])], rtol=1e-5, atol=1e-5)
    assert _kinds(exe) == (["loop"] if name == "halving" else ["scan"])
    if name != "halving":
        assert f"as {name} is associative" in exe.report.kernels[0].notes[0]


@pytest.mark.parametrize("name", ["add", "halving", "logaddexp"])
def test_exclusive_cumulative(name):
    """One more output than inputs: out[0] is the init (exclusive), out[n] the whole row."""
    text = _window_text(name, 9, 50, "{size=1x50 pad=0_0x50_0}", out=51)
    exe = check_against_evaluator(text, [_data("f32", 9, 50)], rtol=1e-5, atol=1e-5)
    assert _kinds(exe) == ["scan"]


@pytest.mark.parametrize("name", ["add", "maximum", "halving"])
def test_exclusive_reverse(name):
    """pad 0_n: out[n] is the init; the halving reducer keeps the exact window loop."""
    text = _window_text(name, 9, 40, "{size=1x40 pad=0_0x0_40}", out=41)
    exe = check_against_evaluator(text, [_data("f32", 9, 40)], rtol=1e-5, atol=1e-5)
    assert _kinds(exe) == (["loop"] if name == "halving" else ["scan"])


def test_longer_window_and_short_outputs():
    """A window longer than the row and fewer outputs than inputs is still a prefix scan."""
    text = _window_text("add", 12, 30, "{size=1x45 pad=0_0x40_0}", out=26)
    exe = check_against_evaluator(text, [_data("f32", 12, 30)], rtol=1e-5, atol=1e-5)
    assert _kinds(exe) == ["scan"]


def test_sliding_window_is_not_a_scan():
    """size 3 pad 2_0 on 30 elements: a running sum of 3, not a cumulative one."""
    text = _window_text("add", 2, 30, "{size=1x3 pad=0_0x2_0}")
    exe = check_against_evaluator(text, [_data("f32", 2, 30)], rtol=1e-5, atol=1e-5)
    assert _kinds(exe) == ["loop"]


@pytest.mark.parametrize("axis", [0, 1, 2])
@pytest.mark.parametrize("reverse", [False, True])
def test_scan_along_any_dimension_of_a_3d_array(axis, reverse):
    dims = (6, 9, 10)
    size = "x".join(str(d) if a == axis else "1" for a, d in enumerate(dims))
    pad = "x".join((f"0_{d - 1}" if reverse else f"{d - 1}_0") if a == axis else "0_0" for a, d in enumerate(dims))
    text = module(f"""
        x = f32[6,9,10] parameter(0)
        i = f32[] constant(0)
        w = f32[6,9,10] reduce-window(x, i), window={{size={size} pad={pad}}}, to_apply=add
    """, reducer("add", "add", "f32"))
    exe = check_against_evaluator(text, [_data("f32", *dims)], rtol=1e-5, atol=1e-5)
    assert _kinds(exe) == ["scan"]


def test_two_dimensional_cumulative_window_keeps_the_window_loop():
    """Windows long in two dimensions (a 2-D prefix sum) are not a one-dimensional scan."""
    text = module("""
        x = f32[8,9] parameter(0)
        i = f32[] constant(0)
        w = f32[8,9] reduce-window(x, i), window={size=8x9 pad=7_0x8_0}, to_apply=add
    """, reducer("add", "add", "f32"))
    exe = check_against_evaluator(text, [_data("f32", 8, 9)], rtol=1e-5, atol=1e-5)
    assert _kinds(exe) == ["loop"]


@pytest.mark.parametrize("dtype", ["s32", "f16", "bf16"])
def test_cumsum_other_types(dtype):
    text = _window_text("add", 4, 64, "{size=1x64 pad=0_0x63_0}", dtype=dtype)
    x = _data("f32", 4, 64).astype(NUMPY[dtype]) if dtype != "s32" else np.arange(256, dtype=np.int32).reshape(4, 64)
    # The evaluator rounds to the 16-bit type after every step, the CPU carries the sum in f32
    # (as its elemental reduce does): over 64 steps bf16's 8-bit mantissa drifts by ~0.1.
    rtol, atol = {"s32": (0, 0), "f16": (2e-2, 2e-2), "bf16": (2e-2, 1e-1)}[dtype]
    exe = check_against_evaluator(text, [x], rtol=rtol, atol=atol)
    assert _kinds(exe) == ["scan"]


def test_variadic_cumulative_argmax():
    """A running argmax over (value, index) pairs: two inputs, two outputs, one scan."""
    from hlo_text import arg_reducer

    text = module("""
        x = f32[10,40] parameter(0)
        k = s32[10,40] iota(), iota_dimension=1
        v0 = f32[] constant(-inf)
        i0 = s32[] constant(0)
        w = (f32[10,40], s32[10,40]) reduce-window(x, k, v0, i0), window={size=1x40 pad=0_0x39_0}, to_apply=argmax
    """, arg_reducer("argmax", "GT"))
    exe = check_against_evaluator(text, [_data("f32", 10, 40)], rtol=0, atol=0)
    assert "scan" in _kinds(exe)


def test_big_scan_is_split_across_threads():
    """Rows split into partitions (each with its blocks of 8 rows and a remainder)."""
    text = _window_text("add", 203, 300, "{size=1x300 pad=0_0x299_0}")
    exe = check_against_evaluator(text, [_data("f32", 203, 300)], rtol=1e-5, atol=1e-5,
                                  parallel_min_elements=1000, threads=3)
    assert _kinds(exe) == ["scan"]
    assert (exe.report.kernels[0].extent, exe.report.kernels[0].partitions) == (203, 3)


@pytest.mark.parametrize("window,out", [("{size=1x40 pad=0_0x-3_39}", 37), ("{size=1x40 pad=0_0x39_-5}", 35)])
def test_negative_padding_keeps_the_window_loop(window, out):
    """Negative padding drops inputs from the windows: not handled as a scan (a suffix scan
    with a negative offset would write before the row)."""
    text = _window_text("add", 9, 40, window, out=out)
    exe = check_against_evaluator(text, [_data("f32", 9, 40)], rtol=1e-5, atol=1e-5)
    assert _kinds(exe) == ["loop"]
