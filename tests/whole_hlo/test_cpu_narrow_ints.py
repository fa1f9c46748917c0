"""Sub-byte integers on the CPU backend (backend/cpu/narrow_ints_as_bytes.py): converts from
floats (saturating, NaN -> 0) and integers (wrapping), arithmetic that wraps, compare,
constants and moving data give the evaluator's values; jax's int4 program gives its
recorded output; an op it does not lower is refused by name."""

from pathlib import Path

import numpy as np
import pytest

import hloscope as hs
from hloscope.errors import NotSupportedError

DUMPS = Path(__file__).parent / "dumps"
FLOATS = np.array([100.7, -100, np.nan, 6.6, -3.2, 0.5, 7.9, -8.9], np.float32)
INTS = np.array([100, -100, 9, -9, 3, 0, 7, -8], np.int32)


def _module(t: str) -> str:
    one = -1 if t == "s1" else 1
    return f"""HloModule m
ENTRY e {{
  a = f32[8] parameter(0)
  b = s32[8] parameter(1)
  x = {t}[8] convert(a)
  y = {t}[8] convert(b)
  s = {t}[8] add(x, y)
  m = {t}[8] multiply(s, y)
  c = pred[8] compare(x, y), direction=LT
  mx = {t}[8] maximum(m, x)
  k = {t}[8] constant({{{one}, 0, {one}, 0, {one}, 0, {one}, {one}}})
  n = {t}[8] xor(mx, k)
  r = {t}[8] reverse(n), dimensions={{0}}
  back = f32[8] convert(r)
  wide = s32[8] convert(s)
  ROOT out = ({t}[8], f32[8], pred[8], s32[8]) tuple(r, back, c, wide)
}}
"""


@pytest.mark.parametrize("t", ["s4", "u4", "s2", "u2", "s1", "u1"])
def test_compiled_narrow_ints_give_the_evaluators_values(t):
    m = hs.parse_hlo(_module(t))
    want = hs.evaluate(m, FLOATS, INTS)
    got = hs.compile(m)(FLOATS, INTS)
    for w, g in zip(want, got, strict=True):
        assert np.asarray(g).dtype == np.asarray(w).dtype
        np.testing.assert_array_equal(np.asarray(g).astype(np.float64), np.asarray(w).astype(np.float64))


@pytest.mark.parametrize("stage", ["lowered", "compiled"])
def test_jax_int4_program_gives_jax_recorded_output(stage):
    m = hs.parse_hlo((DUMPS / f"jax_int4.{stage}.hlo").read_text())
    got = hs.compile(m)(np.ones(4, np.float32))
    np.testing.assert_array_equal(np.asarray(got), np.load(DUMPS / "jax_outputs.npz")["int4"])


def test_an_op_it_does_not_lower_is_refused_by_name():
    text = "HloModule m\nENTRY e {\n  a = s4[4] parameter(0)\n  ROOT r = s4[4] divide(a, a)\n}\n"
    with pytest.raises(NotSupportedError, match=r"not supported on cpu: divide on s4 \(instruction r"):
        hs.compile(text)
