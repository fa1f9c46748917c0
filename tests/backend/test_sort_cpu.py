"""sort on the CPU (backend/cpu/sort_kernel.py): against numpy's stable argsort and the
evaluator, on JAX's own argsort HLO, with NaNs, ties, several operands and any dimension."""

from pathlib import Path

import numpy as np
import pytest

import hloscope
from backend_helpers import NUMPY, check_against_evaluator, module

RNG = np.random.default_rng(9)

# jax.jit(lambda x: jnp.argsort(x, axis=1)).lower(...).as_text(dialect="hlo"), as JAX prints it:
# NaNs made canonical and -0.0 made 0.0, then a TOTALORDER compare; the iota rides along.
JAX_ARGSORT = (Path(__file__).resolve().parents[1] / "hlo_samples" / "jax_argsort.hlo").read_text()
# The same as jax 0.12 prints it: `order=TOTAL` where 0.10 wrote `type=TOTALORDER`, and layouts.
JAX_012_ARGSORT = (Path(__file__).resolve().parents[1] / "hlo_samples" / "jax012_argsort.hlo").read_text()


def less(dtype: str, direction: str = "LT", kind: str = "") -> str:
    extra = f", type={kind}" if kind else ""
    return (f"less {{\n  a = {dtype}[] parameter(0)\n  b = {dtype}[] parameter(1)\n"
            f"  ROOT lt = pred[] compare(a, b), direction={direction}{extra}\n}}\n")


@pytest.mark.parametrize("text", [JAX_ARGSORT, JAX_012_ARGSORT], ids=["jax-0.10", "jax-0.12"])
def test_jax_argsort_is_numpy_stable_argsort_with_nans_last(text):
    x = RNG.integers(0, 6, (4, 50)).astype(np.float32)  # many ties: stability shows
    x[0, [3, 17]] = np.nan
    x[1, 5] = -0.0
    exe = check_against_evaluator(text, [x])
    np.testing.assert_array_equal(exe(x), np.argsort(x, axis=1, kind="stable"))
    assert "sort" in [k.kind for k in exe.report.kernels]


def test_order_total_reads_round_trips_and_orders_as_totalorder():
    """`order=TOTAL` (jax 0.12) is `type=TOTALORDER`: -0 before +0, NaN after +inf."""
    parsed = hloscope.parse_hlo(JAX_012_ARGSORT)
    assert "direction=LT, order=TOTAL" in parsed.to_text()
    assert hloscope.parse_hlo(parsed.to_text()).to_text() == parsed.to_text()
    x = np.float32([3, np.nan, 0.0, -0.0, -np.inf, 1])
    for order, want in (("TOTAL", [-np.inf, -0.0, 0.0, 1, 3, np.nan]), ("PARTIAL", None)):
        body = """
            x = f32[6] parameter(0)
            s = f32[6] sort(x), dimensions={0}, is_stable=true, to_apply=less
        """
        text = module(body, less("f32").replace("direction=LT", f"direction=LT, order={order}"))
        got = check_against_evaluator(text, [x])(x)
        if want is not None:
            np.testing.assert_array_equal(np.signbit(got), np.signbit(np.float32(want)))
            np.testing.assert_array_equal(got, np.float32(want))
    with pytest.raises(hloscope.HloParseError, match="order"):
        hloscope.parse_hlo(module("x = f32[2] parameter(0)\ny = f32[2] parameter(1)\n"
                                  "r = pred[2] compare(x, y), direction=LT, order=SOMETIMES"))


@pytest.mark.parametrize("dtype", ["f32", "f64", "s32", "u8", "s64", "bf16", "f16", "pred"])
def test_one_operand_ascending(dtype):
    text = module(f"""
        x = {dtype}[6,41] parameter(0)
        s = {dtype}[6,41] sort(x), dimensions={{1}}, is_stable=true, to_apply=less
    """, less(dtype))
    x = (RNG.random((6, 41)) < 0.5) if dtype == "pred" else RNG.integers(0, 100, (6, 41)).astype(NUMPY[dtype])
    got = check_against_evaluator(text, [x])(x)
    np.testing.assert_array_equal(got, np.sort(x, axis=1))


@pytest.mark.parametrize("n", [0, 1, 2, 3, 64, 65, 1000])
def test_lengths_around_powers_of_two(n):
    text = module(f"""
        x = f32[3,{n}] parameter(0)
        s = f32[3,{n}] sort(x), dimensions={{1}}, is_stable=true, to_apply=less
    """, less("f32", "GT"))
    x = RNG.standard_normal((3, n)).astype(np.float32)
    got = check_against_evaluator(text, [x])(x)
    np.testing.assert_array_equal(got, -np.sort(-x, axis=1))


def test_sort_along_a_major_dimension_of_a_3d_array():
    text = module("""
        x = s32[17,3,5] parameter(0)
        s = s32[17,3,5] sort(x), dimensions={0}, is_stable=true, to_apply=less
    """, less("s32"))
    x = RNG.integers(-50, 50, (17, 3, 5)).astype(np.int32)
    np.testing.assert_array_equal(check_against_evaluator(text, [x])(x), np.sort(x, axis=0))


def test_three_operands_sorted_by_the_second_descending():
    text = module("""
        a = f32[4,30] parameter(0)
        k = s32[4,30] parameter(1)
        c = u8[4,30] parameter(2)
        s = (f32[4,30], s32[4,30], u8[4,30]) sort(a, k, c), dimensions={1}, is_stable=true, to_apply=by_key
    """, """
by_key {
  a0 = f32[] parameter(0)
  a1 = f32[] parameter(1)
  k0 = s32[] parameter(2)
  k1 = s32[] parameter(3)
  c0 = u8[] parameter(4)
  c1 = u8[] parameter(5)
  ROOT gt = pred[] compare(k0, k1), direction=GT
}
""")
    a = RNG.standard_normal((4, 30)).astype(np.float32)
    k = RNG.integers(0, 5, (4, 30)).astype(np.int32)
    c = RNG.integers(0, 255, (4, 30)).astype(np.uint8)
    got = check_against_evaluator(text, [a, k, c])(a, k, c)
    order = np.argsort(-k, axis=1, kind="stable")
    for g, x in zip(got, (a, k, c)):
        np.testing.assert_array_equal(g, np.take_along_axis(x, order, axis=1))


def test_lexicographic_comparator_on_two_keys():
    """A comparator of several instructions: by the first key, ties broken by the second."""
    text = module("""
        p = s32[2,300] parameter(0)
        q = f32[2,300] parameter(1)
        s = (s32[2,300], f32[2,300]) sort(p, q), dimensions={1}, is_stable=true, to_apply=lex
    """, """
lex {
  p0 = s32[] parameter(0)
  p1 = s32[] parameter(1)
  q0 = f32[] parameter(2)
  q1 = f32[] parameter(3)
  lt = pred[] compare(p0, p1), direction=LT
  eq = pred[] compare(p0, p1), direction=EQ
  qlt = pred[] compare(q0, q1), direction=LT
  tie = pred[] and(eq, qlt)
  ROOT first = pred[] or(lt, tie)
}
""")
    p = RNG.integers(0, 4, (2, 300)).astype(np.int32)
    q = RNG.standard_normal((2, 300)).astype(np.float32)
    got_p, got_q = check_against_evaluator(text, [p, q])(p, q)
    order = np.lexsort((q, p), axis=1)
    np.testing.assert_array_equal(got_p, np.take_along_axis(p, order, axis=1))
    np.testing.assert_array_equal(got_q, np.take_along_axis(q, order, axis=1))


def test_many_rows_are_split_across_threads():
    text = module("""
        x = f32[2048,256] parameter(0)
        s = f32[2048,256] sort(x), dimensions={1}, is_stable=true, to_apply=less
    """, less("f32", kind="TOTALORDER"))
    x = RNG.standard_normal((2048, 256)).astype(np.float32)
    exe = check_against_evaluator(text, [x], threads=3)
    np.testing.assert_array_equal(exe(x), np.sort(x, axis=1))
    (kernel,) = exe.report.kernels
    assert kernel.partitions == 3  # rows are independent
