"""Elementwise semantics where XLA's rule differs from numpy's default or from naive math.

Each expected value is derived by hand from XLA's documented semantics (operation_semantics
and the HloEvaluator rules), not computed with the code under test.
"""

import math

import ml_dtypes
import numpy as np
import pytest

from hloscope.evaluator import evaluate
from hloscope.ir.dtypes import element_type
from hloscope.ir.parser import parse_hlo

NAN, INF = float("nan"), float("inf")
I32_MIN, I32_MAX = -(2**31), 2**31 - 1


def arr(dtype, values):
    return np.array(values, element_type(dtype).numpy)


def unary(op, dtype, values, out=None, attrs=""):
    n = len(values)
    text = (f"HloModule m\nENTRY e {{\n a = {dtype}[{n}] parameter(0)\n"
            f" ROOT r = {out or dtype}[{n}] {op}(a){attrs}\n}}\n")
    return evaluate(parse_hlo(text), arr(dtype, values))


def binary(op, dtype, a, b, out=None, attrs=""):
    n = len(a)
    text = (f"HloModule m\nENTRY e {{\n a = {dtype}[{n}] parameter(0)\n b = {dtype}[{n}] parameter(1)\n"
            f" ROOT r = {out or dtype}[{n}] {op}(a, b){attrs}\n}}\n")
    return evaluate(parse_hlo(text), arr(dtype, a), arr(dtype, b))


def same(got, want):
    """Exact equality including dtype, NaN positions and the sign of zeros (a NaN's sign is
    not compared: XLA does not specify it)."""
    want = np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)
    if want.dtype.kind == "f" or want.dtype == ml_dtypes.bfloat16:
        real = ~np.isnan(want.astype(np.float64))
        np.testing.assert_array_equal(np.signbit(got.astype(np.float64))[real], np.signbit(want.astype(np.float64))[real])


# ---- integer division and remainder ----

def test_integer_divide_truncates_toward_zero():
    same(binary("divide", "s32", [7, -7, 7, -7, 1, -1], [2, 2, -2, -2, 3, 3]), arr("s32", [3, -3, -3, 3, 0, 0]))


def test_integer_divide_by_zero_and_overflow():
    same(binary("divide", "s32", [5, -5, 0, I32_MIN], [0, 0, 0, -1]), arr("s32", [-1, -1, -1, I32_MIN]))
    same(binary("divide", "u8", [5, 0, 200], [0, 0, 7]), arr("u8", [255, 255, 28]))
    same(binary("divide", "s8", [-128, -128], [-1, 0]), arr("s8", [-128, -1]))


def test_integer_remainder_has_the_sign_of_the_dividend():
    same(binary("remainder", "s32", [7, -7, 7, -7], [3, 3, -3, -3]), arr("s32", [1, -1, 1, -1]))
    same(binary("remainder", "s32", [5, -5, I32_MIN, I32_MIN], [0, 0, -1, 3]), arr("s32", [5, -5, 0, -2]))
    same(binary("remainder", "u16", [5, 7], [0, 4]), arr("u16", [5, 3]))


def test_float_remainder_is_fmod():
    same(binary("remainder", "f32", [5.5, -5.5, 5.5, 1.0, INF], [2, 2, -2, 0, 1]),
         arr("f32", [1.5, -1.5, 1.5, NAN, NAN]))
    same(binary("remainder", "f32", [-4.0], [2.0]), arr("f32", [-0.0]))


def test_float_divide_by_zero():
    same(binary("divide", "f32", [1, -1, 0], [0, 0, 0]), arr("f32", [INF, -INF, NAN]))


# ---- shifts ----

def test_shift_left_past_the_width_is_zero():
    same(binary("shift-left", "s32", [1, 1, 3, 1, 1], [4, 31, 31, 32, -1]), arr("s32", [16, I32_MIN, I32_MIN, 0, 0]))
    same(binary("shift-left", "u8", [0xFF, 1], [4, 8]), arr("u8", [0xF0, 0]))


def test_shift_right_logical_shifts_in_zeros():
    same(binary("shift-right-logical", "s32", [-8, -1, 8, -8], [1, 28, 2, 32]), arr("s32", [0x7FFFFFFC, 15, 2, 0]))


def test_shift_right_arithmetic_fills_with_the_sign():
    same(binary("shift-right-arithmetic", "s32", [-8, -8, 8, -1, 7], [1, 40, 40, 31, -1]), arr("s32", [-4, -1, 0, -1, 0]))
    same(binary("shift-right-arithmetic", "u8", [0x80, 0x80, 0x40], [1, 8, 9]), arr("u8", [0xC0, 0xFF, 0]))


# ---- comparisons ----

@pytest.mark.parametrize("direction, want", [
    ("EQ", [False, False, False, True, True]),
    ("NE", [True, True, True, False, False]),
    ("LT", [False, False, False, False, True]),
    ("LE", [False, False, False, True, True]),
    ("GT", [False, False, False, False, False]),
    ("GE", [False, False, False, True, True]),
])
def test_float_compare_with_nan_is_false_except_ne(direction, want):
    got = binary("compare", "f32", [NAN, 1, NAN, -0.0, 1], [1, NAN, NAN, 0.0, 1 if direction in "EQ NE LE GE" else 2],
                 out="pred", attrs=f", direction={direction}")
    same(got, np.array(want))


def test_totalorder_orders_nans_and_signed_zeros():
    order = [-NAN, -INF, -1.0, -0.0, 0.0, 1e-45, 1.0, INF, NAN]
    a, b = order[:-1], order[1:]
    same(binary("compare", "f32", a, b, out="pred", attrs=", direction=LT, type=TOTALORDER"), np.ones(8, bool))
    same(binary("compare", "f32", b, a, out="pred", attrs=", direction=GT, type=TOTALORDER"), np.ones(8, bool))
    same(binary("compare", "f32", [NAN, -0.0], [NAN, 0.0], out="pred", attrs=", direction=EQ, type=TOTALORDER"),
         np.array([True, False]))
    same(binary("compare", "bf16", [-0.0, -INF], [0.0, -NAN], out="pred", attrs=", direction=LT, type=TOTALORDER"),
         np.array([True, False]))


def test_compare_unsigned_type_on_signed_bits():
    same(binary("compare", "s32", [-1, 1], [1, 2], out="pred", attrs=", direction=GT, type=UNSIGNED"),
         np.array([True, False]))
    same(binary("compare", "u8", [255, 1], [1, 2], out="pred", attrs=", direction=LT"), np.array([False, True]))


# ---- max, min, clamp, select ----

def test_maximum_minimum_propagate_nan():
    same(binary("maximum", "f32", [NAN, 1, 2, -INF], [1, NAN, 3, -5]), arr("f32", [NAN, NAN, 3, -5]))
    same(binary("minimum", "f32", [NAN, 1, 2, INF], [1, NAN, 3, 5]), arr("f32", [NAN, NAN, 2, 5]))
    same(binary("maximum", "s32", [I32_MIN, 5], [-1, 4]), arr("s32", [-1, 5]))
    # Equal operands give the lhs (std::max / std::min), so the sign of a zero comes from the lhs.
    same(binary("maximum", "f32", [-0.0, 0.0], [0.0, -0.0]), arr("f32", [-0.0, 0.0]))
    same(binary("minimum", "f32", [-0.0, 0.0], [0.0, -0.0]), arr("f32", [-0.0, 0.0]))


def test_clamp_with_scalar_bounds_and_nan():
    text = ("HloModule m\nENTRY e {\n lo = f32[] constant(-1)\n hi = f32[] constant(2)\n"
            " a = f32[5] parameter(0)\n ROOT c = f32[5] clamp(lo, a, hi)\n}\n")
    same(evaluate(parse_hlo(text), arr("f32", [-5, 0.5, 7, NAN, -INF])), arr("f32", [-1, 0.5, 2, NAN, -1]))


def test_select():
    text = ("HloModule m\nENTRY e {\n p = pred[3] parameter(0)\n a = s32[3] parameter(1)\n"
            " b = s32[3] parameter(2)\n ROOT s = s32[3] select(p, a, b)\n}\n")
    got = evaluate(parse_hlo(text), np.array([True, False, True]), arr("s32", [1, 2, 3]), arr("s32", [4, 5, 6]))
    same(got, arr("s32", [1, 5, 3]))


# ---- power ----

def test_integer_power():
    same(binary("power", "s32", [2, 3, -2, 0, 7, 2], [10, 3, 3, 0, 0, 31]), arr("s32", [1024, 27, -8, 1, 1, I32_MIN]))
    same(binary("power", "s32", [2, 5, 1, 1, -1, -1, 0], [-1, -2, -5, -6, -3, -2, -1]), arr("s32", [0, 0, 1, 1, -1, 1, 0]))
    same(binary("power", "u8", [3, 2], [5, 8]), arr("u8", [243, 0]))


def test_float_power():
    same(binary("power", "f32", [2, 0, 4, -8, NAN], [-1, 0, 0.5, 1 / 3, 0]), arr("f32", [0.5, 1, 2, NAN, 1]))


# ---- conversions ----

def test_convert_float_to_int_truncates_saturates_and_zeroes_nan():
    got = unary("convert", "f32", [NAN, 1e10, -1e10, -3.7, 3.7, -0.5, 2147483520.0, 2.0**31, INF, -INF], out="s32")
    same(got, arr("s32", [0, I32_MAX, I32_MIN, -3, 3, 0, 2147483520, I32_MAX, I32_MAX, I32_MIN]))
    same(unary("convert", "f32", [NAN, -1, 300, 255.9, -0.9], out="u8"), arr("u8", [0, 0, 255, 255, 0]))
    same(unary("convert", "f64", [9.3e18, -9.3e18, 2.5], out="s64"), arr("s64", [2**63 - 1, -(2**63), 2]))


def test_convert_to_pred_is_nonzero():
    same(unary("convert", "f32", [0.0, -0.0, NAN, 0.5, -INF], out="pred"), np.array([False, False, True, True, True]))
    same(unary("convert", "s32", [0, -7], out="pred"), np.array([False, True]))


def test_convert_int_wraps_and_pred_is_zero_or_one():
    same(unary("convert", "s32", [300, -1, 128], out="s8"), arr("s8", [44, -1, -128]))
    same(unary("convert", "pred", [True, False], out="f32"), arr("f32", [1, 0]))


def test_convert_rounds_to_nearest_even_for_half_types():
    # bf16 has 7 stored mantissa bits: ulp(1) = 2**-7. Halfway cases go to the even mantissa.
    got = unary("convert", "f32", [1 + 2**-8, 1 + 3 * 2**-8, 1 + 2**-8 + 2**-20, 256 + 1], out="bf16")
    same(got, arr("bf16", [1.0, 1 + 2**-6, 1 + 2**-7, 256]))
    got = unary("convert", "f32", [1 + 2**-11, 1 + 3 * 2**-11, 65520.0], out="f16")
    same(got, arr("f16", [1.0, 1 + 2**-9, INF]))


def test_bitcast_convert_reinterprets_bits():
    same(unary("bitcast-convert", "f32", [1.0, -2.0, -0.0], out="s32"), arr("s32", [0x3F800000, -0x40000000, I32_MIN]))
    same(unary("bitcast-convert", "s32", [0x7FC00000], out="u32"), arr("u32", [0x7FC00000]))


def test_reduce_precision():
    got = unary("reduce-precision", "f32", [1 + 2**-8, 1 + 2**-11 + 2**-12, 1e30, 1e-30, NAN, -3.0],
                attrs=", exponent_bits=5, mantissa_bits=10")
    same(got, arr("f32", [1 + 2**-8, 1 + 2**-10, INF, 0.0, NAN, -3.0]))


# ---- unary float rules ----

def test_round_nearest_afz_rounds_half_away_from_zero():
    same(unary("round-nearest-afz", "f32", [0.5, 1.5, 2.5, -0.5, -2.5, 0.49999997, -0.3, 2.4]),
         arr("f32", [1, 2, 3, -1, -3, 0, -0.0, 2]))


def test_round_nearest_even():
    same(unary("round-nearest-even", "f32", [0.5, 1.5, 2.5, -0.5, -2.5, 2.6]), arr("f32", [0, 2, 2, -0.0, -2, 3]))


def test_sign():
    same(unary("sign", "f32", [NAN, -0.0, 0.0, -3, 5, -INF]), arr("f32", [NAN, -0.0, 0.0, -1, 1, -1]))
    same(unary("sign", "s32", [-5, 0, 7, I32_MIN]), arr("s32", [-1, 0, 1, -1]))


def test_logistic_is_one_over_one_plus_exp():
    # exp(100) overflows f32 to inf, and 1 / (1 + inf) is exactly 0: no NaN, no warning.
    same(unary("logistic", "f32", [0, 100, -100]), arr("f32", [0.5, 1.0, 0.0]))
    np.testing.assert_allclose(unary("logistic", "f32", [1.0]), [1 / (1 + math.exp(-1))], rtol=1e-7)


def test_erf_matches_math_erf():
    xs = [0.0, 0.5, -1.0, 3.0, -0.0]
    same(unary("erf", "f32", xs), arr("f32", [math.erf(x) for x in xs]))


def test_transcendental_ops_stay_in_f32():
    x = [0.25, 1.0, 2.0]
    for op, fn in [("exponential", np.exp), ("log", np.log), ("sqrt", np.sqrt), ("tanh", np.tanh),
                   ("sine", np.sin), ("cosine", np.cos), ("tan", np.tan), ("cbrt", np.cbrt),
                   ("exponential-minus-one", np.expm1), ("log-plus-one", np.log1p)]:
        same(unary(op, "f32", x), fn(arr("f32", x)))
    same(unary("rsqrt", "f32", [4.0, 0.0, -1.0]), arr("f32", [0.5, INF, NAN]))
    same(unary("is-finite", "f32", [NAN, INF, -INF, 1], out="pred"), np.array([False, False, False, True]))


def test_half_precision_rounds_once_per_op():
    # 256 + 1 = 257 is halfway between bf16 neighbours 256 and 258: ties to even gives 256.
    same(binary("add", "bf16", [256, 1], [1, 2**-8]), arr("bf16", [256, 1]))
    same(unary("exponential", "bf16", [1.0]), np.array([np.exp(np.float32(1))]).astype(ml_dtypes.bfloat16))


# ---- bit ops ----

def test_not_and_logic():
    same(unary("not", "s32", [0, -1, 5]), arr("s32", [-1, 0, -6]))
    same(unary("not", "pred", [True, False]), np.array([False, True]))
    same(binary("xor", "pred", [True, True, False], [True, False, False]), np.array([False, True, False]))
    same(binary("and", "u8", [0xF0, 0xFF], [0x3C, 0x0F]), arr("u8", [0x30, 0x0F]))
    same(binary("or", "s32", [1, -8], [2, 3]), arr("s32", [3, -5]))


def test_popcnt_counts_twos_complement_bits():
    same(unary("popcnt", "s32", [-1, 0, 7, I32_MIN]), arr("s32", [32, 0, 3, 1]))
    same(unary("popcnt", "u8", [255, 0x81]), arr("u8", [8, 2]))


def test_count_leading_zeros():
    same(unary("count-leading-zeros", "s32", [0, 1, 7, 2**30, -1]), arr("s32", [32, 31, 29, 1, 0]))
    same(unary("count-leading-zeros", "u64", [0, 1, 2**63]), arr("u64", [64, 63, 0]))
    same(unary("count-leading-zeros", "s8", [0, 1, -128]), arr("s8", [8, 7, 0]))


def test_integer_arithmetic_wraps():
    same(binary("add", "s32", [I32_MAX], [1]), arr("s32", [I32_MIN]))
    same(binary("multiply", "u8", [16], [17]), arr("u8", [16]))
    same(unary("negate", "s32", [I32_MIN, 3]), arr("s32", [I32_MIN, -3]))
    same(unary("abs", "s32", [I32_MIN, -3]), arr("s32", [I32_MIN, 3]))


def test_pred_arithmetic_is_logic():
    same(binary("add", "pred", [True, False, False], [True, True, False]), np.array([True, True, False]))
    same(binary("multiply", "pred", [True, True], [True, False]), np.array([True, False]))
