"""The error model on small programs: cancellation, tiny and zero outputs, NaN and infinity
positions, integers, and the cases where the f64 yardstick is refused or not trusted."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import hloscope
from hloscope.compilation.checks import Check, check_against_evaluator, compare_outputs, flat_outputs
from hloscope.compilation.error_model import FIXED_TOLERANCE, evaluator_references

pytestmark = pytest.mark.hosts  # results that depend on the vector width and FMA (tests/hosts.py)

SUM = """HloModule sum
add { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT s = f32[] add(a, b) }
ENTRY e { x = f32[4096] parameter(0)  z = f32[] constant(0)  ROOT r = f32[] reduce(x, z), dimensions={0}, to_apply=add }
"""
SCALE = """HloModule scale
ENTRY e { x = f32[64] parameter(0)  c = f32[] constant(3)  b = f32[64] broadcast(c), dimensions={}
          ROOT m = f32[64] multiply(x, b) }
"""
FLOOR_TENTHS = """HloModule floor_tenths
ENTRY e { x = f32[1] parameter(0)  c = f32[] constant(10)  b = f32[1] broadcast(c), dimensions={}
          m = f32[1] multiply(x, b)  ROOT f = f32[1] floor(m) }
"""
BITS = """HloModule bits
ENTRY e { x = f32[8] parameter(0)  i = s32[8] bitcast-convert(x)  ROOT f = f32[8] convert(i) }
"""
INTS = """HloModule ints
ENTRY e { x = s32[8] parameter(0)  ROOT y = s32[8] add(x, x) }
"""


def judged(text: str, inputs: list, ours) -> Check:
    module = hloscope.parse_hlo(text)
    refs = evaluator_references(module, inputs, flat_outputs(hloscope.evaluate(module, *inputs)))
    return check_against_evaluator(refs, ours)


def cancelling(rng) -> np.ndarray:
    """Large terms that nearly cancel: the sum is ~1e3 times smaller than the terms."""
    x = rng.standard_normal(4096).astype(np.float32) * 1e3
    return (x - x.mean(dtype=np.float64)).astype(np.float32)


def test_a_sum_in_another_order_is_accepted_despite_cancellation():
    x = cancelling(np.random.default_rng(0))
    sequential = np.float32(0)
    for v in x:  # left to right, as a naive loop would; the evaluator sums in another order
        sequential = np.float32(sequential + v)
    check = judged(SUM, [x], np.array(sequential))
    assert check.ok, check.describe()
    # per element, the two orders are far apart relative to the tiny result
    exact = x.astype(np.float64).sum()
    assert abs(sequential - exact) > 1e-4 * abs(exact)


@pytest.mark.parametrize("terms", [100_000, 1_000_000])
@pytest.mark.parametrize("data", ["cancelling", "positive", "normal"])
def test_hloscope_compiled_long_sums_are_accepted(terms, data):
    """hloscope's own reduction loop against numpy's pairwise sum, where the evaluator's f32
    error can be lucky-small: the margin the multiple and the sqrt(terms) slack are for."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal(terms).astype(np.float32) * 1e3
    x = {"cancelling": (x - x.mean(dtype=np.float64)).astype(np.float32), "positive": np.abs(x), "normal": x}[data]
    text = SUM.replace("f32[4096]", f"f32[{terms}]")
    check = judged(text, [x], hloscope.compile(hloscope.parse_hlo(text), backend="cpu")(x))
    assert check.ok, check.describe()
    lane_lost = x.copy()
    lane_lost[::4] = 0  # a bug that drops one of four vector lanes' partial sums
    wrong = judged(text, [x], hloscope.compile(hloscope.parse_hlo(text), backend="cpu")(lane_lost))
    assert not wrong.ok, wrong.describe()


def test_a_sum_off_by_one_term_is_flagged_even_in_cancellation():
    x = cancelling(np.random.default_rng(0))
    check = judged(SUM, [x], np.array(x[1:].sum(dtype=np.float32)))
    assert not check.ok and "DIFFERS from the evaluator: output 0 is off by" in check.describe()
    assert "(hloscope " in check.describe()  # a scalar output still shows both values


def test_tiny_outputs_are_judged_by_their_own_scale():
    x = (np.random.default_rng(1).standard_normal(64) * 1e-30).astype(np.float32)
    right = (x * np.float32(3)).astype(np.float32)
    assert judged(SCALE, [x], right).ok
    wrong = right.copy()
    wrong[5] += 1e-31  # below any absolute tolerance, yet 10% of this output's scale
    check = judged(SCALE, [x], wrong)
    assert not check.ok and check.worst is not None and check.worst.where == (5,)


def test_zero_outputs_accept_zeros_of_either_sign_and_nothing_else():
    x = np.zeros(64, np.float32)
    assert judged(SCALE, [x], -np.zeros(64, np.float32)).ok
    wrong = np.zeros(64, np.float32)
    wrong[0] = 1e-30
    assert not judged(SCALE, [x], wrong).ok


def test_nan_and_infinity_must_sit_where_the_evaluator_has_them():
    x = np.ones(64, np.float32)
    x[3], x[4] = np.nan, np.inf
    right = x * np.float32(3)
    assert judged(SCALE, [x], right).ok
    for at, value in ((3, 1.0), (4, -np.inf), (7, np.nan)):
        wrong = right.copy()
        wrong[at] = value
        check = judged(SCALE, [x], wrong)
        assert not check.ok and check.worst is not None and check.worst.where == (at,), check.describe()
        assert "NaN or infinity" in check.describe()


def test_f32_overflow_is_judged_against_the_f32_evaluation():
    x = np.full(64, 2e38, np.float32)  # 6e38 overflows f32 but not f64
    check = judged(SCALE, [x], np.full(64, np.inf, np.float32))
    assert check.ok, check.describe()


def test_integers_must_be_equal():
    x = np.arange(8, dtype=np.int32)
    assert judged(INTS, [x], 2 * x).describe() == "matches the evaluator: equal"
    wrong = 2 * x
    wrong[6] += 1
    check = judged(INTS, [x], wrong)
    assert not check.ok and "1 of 8 elements differ at [6]" in check.describe()


def test_bit_level_programs_fall_back_to_a_fixed_tolerance_and_say_why():
    x = np.linspace(-1, 1, 8).astype(np.float32)
    module = hloscope.parse_hlo(BITS)
    right = hloscope.evaluate(module, x)
    check = judged(BITS, [x], right)
    assert check.ok and "bitcast-convert reads a float's bits" in check.describe()
    assert check.worst is not None and check.worst.allowed == FIXED_TOLERANCE["float32"] * check.worst.scale


def test_a_decision_that_f64_takes_differently_is_judged_against_f32():
    x = np.array([0.7], np.float32)  # f32: 0.7 * 10 rounds to 7.0; f64: 6.9999998..., floor 6
    check = judged(FLOOR_TENTHS, [x], np.array([7.0], np.float32))
    assert check.ok and "floor f may have decided differently" in check.describe(), check.describe()
    assert not judged(FLOOR_TENTHS, [x], np.array([6.0], np.float32)).ok


def test_a_failure_says_where_what_and_how_much_is_allowed():
    x = np.linspace(1, 2, 64).astype(np.float32)
    wrong = x * np.float32(3)
    wrong[9] *= np.float32(1.001)
    words = judged(SCALE, [x], wrong).describe()
    assert words.startswith("DIFFERS from the evaluator: output 0 is off by ") and "at [9]" in words
    assert "allowed" in words and "ulps" in words


def test_other_references_are_judged_by_the_same_yardstick():
    x = np.linspace(1, 2, 64).astype(np.float32)
    module = hloscope.parse_hlo(SCALE)
    refs = evaluator_references(module, [x], flat_outputs(hloscope.evaluate(module, x)))
    ours = x * np.float32(3)
    assert compare_outputs("numpy", x * np.float32(3), ours, refs).ok
    assert not compare_outputs("numpy", x * np.float32(3.001), ours, refs).ok
    assert "2 outputs vs hloscope's 1" in compare_outputs("numpy", (ours, ours), ours, refs).describe()


def test_low_precision_outputs_use_their_own_ulps():
    x = np.linspace(1, 2, 64).astype(ml_dtypes.bfloat16)
    text = SCALE.replace("f32", "bf16")
    right = hloscope.evaluate(hloscope.parse_hlo(text), x)
    assert judged(text, [x], right).ok
    wrong = right.copy()
    wrong[0] = wrong[0] * 2
    assert not judged(text, [x], wrong).ok
