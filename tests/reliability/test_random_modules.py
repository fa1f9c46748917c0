"""Properties of random modules (hlo_strategies): the text round-trips, and every pass of the
default pipeline keeps the evaluator's result.

Every failure these properties ever found is kept below as a plain regression test with its
minimized HLO text (test_regression_*), so it is checked on every run, fuzzing or not.
"""

from __future__ import annotations

import numpy as np
import pytest

from fuzz_profile import fuzz_settings
from fuzz_values import assert_same
from hlo_strategies import hlo_cases
from hypothesis import given

import hloscope
from hloscope.ir.module import HloModule

pytestmark = pytest.mark.fuzz

DERIVED_ATTRS = ("entry_computation_layout",)  # the printer writes it; the builder leaves it out


def assert_same_structure(a: HloModule, b: HloModule) -> None:
    """The same computations, instructions (names, shapes, operands, attributes) and entry."""
    assert (a.name, a.entry) == (b.name, b.entry)
    strip = lambda attrs: {k: v for k, v in attrs.items() if k not in DERIVED_ATTRS}  # noqa: E731
    assert strip(a.attrs) == strip(b.attrs)
    assert [c.name for c in a] == [c.name for c in b]
    for ca, cb in zip(a, b):
        assert ca.root == cb.root, ca.name
        assert ca.instructions == cb.instructions, ca.name


@fuzz_settings()
@given(hlo_cases())
def test_text_round_trips(case):
    """print -> parse gives the same module, and printing that gives the same text."""
    text = case.module.to_text()
    parsed = hloscope.parse_hlo(text).verify()
    assert parsed.to_text() == text
    assert_same_structure(parsed, case.module)


@fuzz_settings()
@given(hlo_cases())
def test_every_pass_keeps_the_result(case):
    """For every record of the default pipeline, evaluating `after` gives what `before` gave."""
    check_every_pass(case.module, case.arguments())


def check_every_pass(module: HloModule, args, pipeline: str = "default") -> None:
    """Evaluate before and after every pass record; the results must agree (fuzz_values)."""
    result = hloscope.optimize(module, pipeline)
    values = {id(module): hloscope.evaluate(module, *args)}
    for record in result.records:
        if id(record.after) in values:
            continue  # unchanged: the pass handed back the very module it got
        before = values.get(id(record.before))
        if before is None:
            before = hloscope.evaluate(record.before, *args)
        values[id(record.after)] = after = hloscope.evaluate(record.after, *args)
        assert_same(after, before, where=f"{record.pipeline}/{record.name} (iteration {record.iteration})")


# ---- regressions: failures the properties found, minimized ----


def test_regression_convert_through_float_saturates():
    """algsimp's convert_of_convert folded u32 -> f64 -> s8 into u32 -> s8, but the first
    saturates (300 -> 127) where the second wraps (300 -> 44)."""
    module = hloscope.parse_hlo(
        """HloModule m
ENTRY main {
  p = u32[3] parameter(0)
  wide = f64[3] convert(p)
  ROOT narrow = s8[3] convert(wide)
}"""
    )
    args = [np.array([300, 5, 4294967295], np.uint32)]
    np.testing.assert_array_equal(hloscope.evaluate(module, *args), [127, 5, 127])
    check_every_pass(module, args, "simplify")
