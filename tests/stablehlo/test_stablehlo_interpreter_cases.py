"""hloscope's StableHLO reader and legalization measured with someone else's ruler: the StableHLO
project's own interpreter tests (openxla/stablehlo, stablehlo/tests/interpret; the vendored
files and their commit are in interpret/README.md).

Every test function of every vendored file is one case: its `check.*` lines are turned into
results, the program is read with `hloscope.stablehlo.read`, run with `hloscope.evaluate`, and
compared as the check dialect compares (interpret_cases.py says how, tolerances included).

The cases that do not pass are listed below, each with the exact failure it must show, and
marked `xfail(strict=True)`: a case that starts passing fails the run until its entry is
removed, and one that fails differently (another error, another message) fails too. Three
tables, by what is wrong:

- KNOWN_GAPS: hloscope says clearly that it does not support something (the reader, the
  legalization or the evaluator), with an HloscopeError naming it.
- CRASHES: hloscope fails with something other than its own error (a numpy ValueError).
- WRONG_ANSWERS: hloscope runs the case and gives another answer than the StableHLO
  interpreter. Not hidden: each reason starts with "wrong answer:".

test_pass_count_does_not_regress runs every case once more and holds the number that pass
to at least what was measured when the tables were written.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import NamedTuple

import pytest

from hloscope.errors import HloParseError, HloscopeError, NotSupportedError
from hloscope.stablehlo import LegalizationError


def _load_harness():
    name = "stablehlo_interpret_cases"  # tests/ has no packages: loaded by path, under a name of its own
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, Path(__file__).resolve().parent / "interpret_cases.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


harness = _load_harness()
CASES = harness.all_cases()

# What was measured (2 of them: counts) when the tables below were written.
MEASURED_CASES = 452
MEASURED_PASSING = 442


class Expected(NamedTuple):
    raises: type[BaseException]  # the error the case must fail with
    fragment: str  # a piece of its message that must be there
    reason: str  # what is wrong, for the report and the xfail mark


# ---- hloscope says clearly that it does not support something ----
KNOWN_GAPS: dict[str, Expected] = {
    # Reader: the 6-bit floats have no element type in HLO as hloscope knows it.
    "constant:constant_op_test_f6_e2m3fn": Expected(
        HloParseError, "the element type f6E2M3FN has no HLO equivalent", "element type f6E2M3FN"),
    "constant:constant_op_test_f6_e3m2fn": Expected(
        HloParseError, "the element type f6E3M2FN has no HLO equivalent", "element type f6E3M2FN"),
    # Legalization: StableHLO's i1 is one bit wide in a bitcast (tensor<64xi1> <-> tensor<i64>),
    # HLO's pred a byte; the legalization refuses rather than reinterpret the wrong bytes.
    **{f"bitcast_convert:{name}": Expected(
        LegalizationError, "bitcast_convert to or from i1 is not supported",
        "legalization: bitcast_convert with i1 (1 bit in StableHLO, a byte in HLO)")
       for name in ("bitcast_convert_op_test_i1_to_i64", "bitcast_convert_op_test_f64_to_i1")},
    # Evaluator: complex operands of operations XLA's HLO defines on reals only (hloscope's
    # verifier says so too, on the compile path). StableHLO defines them on complex numbers
    # (maximum/minimum: lexicographic order).
    **{case: Expected(NotSupportedError, f"not supported: {op} on {ty}", f"evaluator: {op} on {ty}")
       for case, op, ty in (("atan2:atan2_op_test_c128", "atan2", "c128"),
                            ("cbrt:cbrt_op_test_c128", "cbrt", "c128"),
                            ("maximum:max_op_test_c64", "maximum", "c64"),
                            ("maximum:max_op_test_c128", "maximum", "c128"),
                            ("minimum:min_op_test_c64", "minimum", "c64"),
                            ("minimum:min_op_test_c128", "minimum", "c128"))},
}

# ---- hloscope fails, but not with an error of its own (none now; the first measurement had
# three: a splat constant with a 0-sized dimension, and two bitcasts of i1) ----
CRASHES: dict[str, Expected] = {}

# ---- hloscope gives another answer than the StableHLO interpreter (none now; the first
# measurement had fourteen: f8/f4 and complex constants written as bit patterns were read as
# the integers' values, and convert from complex to i1 did not take the real part first) ----
WRONG_ANSWERS: dict[str, Expected] = {}

EXPECTED_FAILURES: dict[str, Expected] = {**KNOWN_GAPS, **CRASHES, **WRONG_ANSWERS}
assert len(EXPECTED_FAILURES) == len(KNOWN_GAPS) + len(CRASHES) + len(WRONG_ANSWERS), "a case in two tables"


class FailsDifferently(Exception):
    """A listed case failed, but not as its entry says: the table needs a look."""


def _param(case):
    expected = EXPECTED_FAILURES.get(case.id)
    marks = [pytest.mark.xfail(strict=True, raises=expected.raises, reason=expected.reason)] if expected else []
    return pytest.param(case, id=case.id, marks=marks)


@pytest.mark.parametrize("case", [_param(c) for c in CASES])
def test_interpreter_case(case):
    expected = EXPECTED_FAILURES.get(case.id)
    try:
        harness.run_case(case)
    except Exception as e:
        if expected is not None and (not isinstance(e, expected.raises) or expected.fragment not in str(e)):
            raise FailsDifferently(f"{case.id} is listed as failing with {expected.raises.__name__} "
                                   f"({expected.fragment!r}), but failed with {type(e).__name__}: {e}") from e
        raise


def test_every_listed_case_exists():
    ids = {c.id for c in CASES}
    assert len(ids) == len(CASES), "two cases with one id"
    assert set(EXPECTED_FAILURES) <= ids, sorted(set(EXPECTED_FAILURES) - ids)


def test_every_case_is_a_program():
    """The harness turned every vendored test function into a program (none left out)."""
    assert [c.id for c in CASES if c.harness_error] == []
    assert len(CASES) == MEASURED_CASES, "the vendored files changed: measure again and update the counts"


def test_unsupported_cases_say_so_with_hloscope_errors():
    assert all(issubclass(e.raises, HloscopeError) for e in KNOWN_GAPS.values())
    assert all(e.reason.startswith("wrong answer:") for e in WRONG_ANSWERS.values())


def test_pass_count_does_not_regress():
    """Every case run once more, whatever the tables say: at least as many pass as were measured."""
    passing = [c.id for c in CASES if harness.outcome(c)[0] == "pass"]
    assert len(passing) >= MEASURED_PASSING, (
        f"{len(passing)} of {len(CASES)} StableHLO interpreter cases pass, {MEASURED_PASSING} did")
    assert len(CASES) - len(EXPECTED_FAILURES) == MEASURED_PASSING, (
        "the tables and MEASURED_PASSING disagree: when an entry is removed (its case passes now), raise the count")


def test_the_harness_compares_as_the_check_dialect():
    """The ruler itself (CheckOps.cpp, Element.cpp): eq is the element type's ==, almost_eq an
    absolute tolerance (1e-4 unless given) with NaN matching NaN, close a ULP distance."""
    import numpy as np

    def check(kind, **kw):
        return harness.Check(kind, "", "%x", "tensor<f32>", **kw)

    f32 = np.float32
    eq, almost, close = check("expect_eq_const"), check("expect_almost_eq_const"), check("expect_close", max_ulp=1)
    assert harness.compare(eq, np.array([-0.0, 1.5], f32), np.array([0.0, 1.5], f32)) is None
    assert harness.compare(eq, np.array([np.nan], f32), np.array([np.nan], f32)) is not None
    assert harness.compare(eq, np.array([1, 2], np.int32), np.array([1, 3], np.int32)) is not None
    assert harness.compare(eq, np.array([1], np.int32), np.array([1], np.int64)) is not None  # element type
    assert harness.compare(almost, np.array([1.00009, np.nan, np.inf], f32),
                           np.array([1.0, np.nan, np.inf], f32)) is None
    assert harness.compare(almost, np.array([1.0002], f32), np.array([1.0], f32)) is not None
    assert harness.compare(almost, np.array([np.inf], f32), np.array([-np.inf], f32)) is not None
    assert harness.compare(check("expect_almost_eq", tolerance=0.1), np.array([5.0]), np.array([5.09])) is None
    one_ulp = np.nextafter(f32(1), f32(2))
    assert harness.compare(close, np.array([one_ulp], f32), np.array([1.0], f32)) is None
    assert harness.compare(close, np.array([np.nextafter(one_ulp, f32(2))], f32), np.array([1.0], f32)) is not None
    assert harness.compare(close, np.array([-0.0], f32), np.array([0.0], f32)) is None  # 0 + 0 ULPs apart
