"""Suggestions that lower the peak, each found on a module made for it and measured by
planning the changed module again; the changed module computes what the original does."""

from __future__ import annotations

import numpy as np
import pytest
from peak_modules import DONATE, REMATERIALIZE, REORDER, THREE_TEMPORARIES

import hloscope
from hloscope import parse_hlo
from hloscope.memory import plan_memory
from hloscope.memory.at_peak import memory_at_peak
from hloscope.passes.peak_suggestions import peak_of, suggest


def inputs(module):
    rng = np.random.default_rng(0)
    return [rng.uniform(0.5, 1.5, p.shape.dims).astype(np.float32) for p in module.entry_computation.parameters]


def only(kind: str, text: str):
    module = parse_hlo(text)
    found = [s for s in suggest(module) if s.kind == kind]
    assert len(found) == 1, found
    s = found[0]
    assert s.before_bytes == memory_at_peak(plan_memory(module)).total_bytes
    assert s.after_bytes == peak_of(s.module) < s.before_bytes  # measured, and lower
    args = inputs(module)
    np.testing.assert_allclose(np.asarray(hloscope.evaluate(s.module, *args), dtype=object).tolist(),
                               np.asarray(hloscope.evaluate(module, *args), dtype=object).tolist(), rtol=1e-6)
    s.module.verify()
    return s


def test_donate_an_input():
    s = only("donate", DONATE)
    assert (s.before_bytes, s.after_bytes) == (81920, 65536)  # nw leaves the arena for w's buffer
    assert "donate parameter w (number 0) to output {0} (nw" in s.what
    assert str(s.module.attrs["input_output_alias"]) == "{ {0}: (0, {}, may-alias) }"


def test_rematerialize_a_cheap_value():
    s = only("rematerialize", REMATERIALIZE)
    assert (s.before_bytes, s.after_bytes) == (65540, 49156)  # bc no longer waits through the peak
    assert s.what.startswith("rematerialize bc (broadcast, 16,384 bytes): made at position 2, read again at 7 by r")
    entry = s.module.entry_computation
    assert [i.name for i in entry.instructions][-3:] == ["z", "bc.remat", "r"]
    assert entry["r"].operands == ("z", "bc.remat") and entry["y"].operands == ("x", "bc")


def test_reorder():
    s = only("reorder", REORDER)
    assert (s.before_bytes, s.after_bytes) == (49220, 32900)  # a is reduced before b is made
    order = [i.name for i in s.module.entry_computation.instructions]
    assert order.index("ra") < order.index("b")


def test_only_the_best_reorder_and_biggest_saving_first():
    found = suggest(parse_hlo(DONATE))
    assert [s.kind for s in found].count("reorder") <= 1
    assert [s.after_bytes for s in found] == sorted(s.after_bytes for s in found)


SUM_OF_EXP = """HloModule sum, is_scheduled=true

add {
  l = f32[] parameter(0)
  r = f32[] parameter(1)
  ROOT s = f32[] add(l, r)
}

ENTRY main {
  p = f32[1024]{0} parameter(0)
  zero = f32[] constant(0)
  e = f32[1024]{0} exponential(p)
  ROOT s = f32[] reduce(e, zero), dimensions={0}, to_apply=add
}
"""


def test_when_none_helps_it_says_so():
    module = parse_hlo(SUM_OF_EXP)  # no output fits p, e is read where the peak is, one order only
    at = memory_at_peak(plan_memory(module), module)
    at.suggestions = suggest(module, at)
    assert at.suggestions == []
    assert "suggestions: none lowers the peak" in str(at)
    assert "No suggestion lowers the peak" in at._repr_html_()


@pytest.mark.parametrize("text", [DONATE, REMATERIALIZE, REORDER])
def test_suggestions_in_text_and_html(text):
    module = parse_hlo(text)
    at = memory_at_peak(plan_memory(module), module)
    at.suggestions = suggest(module, at)
    assert at.suggestions and "each measured by planning the changed module again" in str(at)
    page = at._repr_html_()
    assert "hs-peak-suggestions" in page and f"{at.suggestions[0].after_bytes:,}" in page


TWO_UPDATES = """HloModule two, is_scheduled=true

ENTRY main {
  w1 = f32[4096]{0} parameter(0)
  w2 = f32[4096]{0} parameter(1)
  g = f32[4096]{0} parameter(2)
  n1 = f32[4096]{0} subtract(w1, g)
  n2 = f32[4096]{0} subtract(w2, g)
  e = f32[4096]{0} exponential(g)
  f = f32[4096]{0} log(g)
  h = f32[4096]{0} add(e, f)
  ROOT t = (f32[4096]{0}, f32[4096]{0}, f32[4096]{0}) tuple(n1, n2, h)
}
"""


def test_donations_that_each_help_are_also_measured_together():
    found = [s for s in suggest(parse_hlo(TWO_UPDATES)) if s.kind == "donate"]
    assert [s.before_bytes - s.after_bytes for s in found] == [32768, 16384, 16384]
    assert found[0].what.startswith("donate all 2 of them: input_output_alias={ {0}: (0, {}, may-alias), {1}: (1, {}, may-alias) }")


def test_a_donation_compiled_again_still_lowers_the_peak_and_keeps_the_results():
    """Compiled (its passes run again, fusing e, f and h), the donating module still has a
    lower peak than the original compiled, and the native code called donating computes what
    the evaluator does."""
    s = only("donate", DONATE)
    exe = hloscope.compile(s.module, cache=False)
    plain = hloscope.compile(parse_hlo(DONATE), cache=False)
    before, after = (e.report.memory_at_peak(suggest=False).total_bytes for e in (plain, exe))
    assert after == before - 16384  # nw is written into w
    args = inputs(s.module)
    want = hloscope.evaluate(parse_hlo(DONATE), *args)
    for got, expected in zip(exe.call_donating(*[a.copy() for a in args]), want):
        np.testing.assert_allclose(got, expected, rtol=1e-6)
