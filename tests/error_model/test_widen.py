"""Evaluating a module in f64 (evaluator/widen.py): what is widened, and what is refused."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import hloscope
from hloscope.evaluator.widen import NotWidenable, evaluate_widened, widened_module

MIXED = """HloModule mixed
ENTRY e { x = f32[4] parameter(0)  h = bf16[4] convert(x)  w = f32[4] convert(h)
          n = s32[4] parameter(1)  c = f32[4] convert(n)  ROOT t = (f32[4], f32[4]) tuple(w, c) }
"""


def test_every_narrow_float_becomes_f64_and_integers_stay():
    text = widened_module(hloscope.parse_hlo(MIXED)).to_text()
    assert "f32[" not in text and "bf16[" not in text and "s32[4]" in text and "f64[4]" in text


def test_the_widened_program_skips_the_narrow_roundings():
    x = np.array([1 / 3, 1e-3, 2.5, -7.1], np.float32)
    n = np.arange(4, dtype=np.int32)
    narrow, as_float = hloscope.evaluate(hloscope.parse_hlo(MIXED), x, n)
    wide, wide_float = evaluate_widened(hloscope.parse_hlo(MIXED), x, n)
    assert wide.dtype == np.float64 and np.array_equal(wide, x.astype(np.float64))  # no bf16 rounding
    assert not np.array_equal(narrow, x) and np.array_equal(wide_float, as_float)


def test_bf16_parameters_are_widened_too():
    text = "HloModule m\nENTRY e { x = bf16[2] parameter(0)  ROOT y = bf16[2] add(x, x) }\n"
    x = np.array([1.5, 3], ml_dtypes.bfloat16)
    assert evaluate_widened(hloscope.parse_hlo(text), x).dtype == np.float64


@pytest.mark.parametrize("text, why", [
    ("HloModule m\nENTRY e { x = f32[2] parameter(0)  ROOT y = s32[2] bitcast-convert(x) }\n", "bits"),
    ("HloModule m\nENTRY e { x = s32[2] parameter(0)  ROOT y = s32[2] add(x, x) }\n", "no f16, bf16 or f32"),
])
def test_modules_whose_meaning_would_change_are_refused(text, why):
    with pytest.raises(NotWidenable, match=why):
        widened_module(hloscope.parse_hlo(text))
