"""f8 and f4 converts on the CPU backend (backend/cpu/small_floats_as_bytes.py): to and from
f32 bit for bit as ml_dtypes (the evaluator) converts: every value of the type, every tie
between neighbours, overflow, NaN of either sign, signed zeros; other sources go through
f32; data moves as bytes; jax's fp8 program gives its recorded output."""

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

import hloscope as hs
from hloscope.backend.cpu.small_floats_as_bytes import SMALL
from hloscope.ir.dtypes import element_type

pytestmark = pytest.mark.hosts  # results that depend on the vector width and FMA (tests/hosts.py)

DUMPS = Path(__file__).parent / "dumps"
SPECIAL = [0.0, -0.0, np.nan, -np.nan, np.inf, -np.inf, 448, 449, 465, 57344, 61440, 1e6, -1e6, 1e-9, 1e-40, 3, 2.5, 7]


def _inputs(t: str) -> np.ndarray:
    values = np.arange(1 << element_type(t).bits, dtype=np.uint8).view(element_type(t).numpy).astype(np.float32)
    finite = np.sort(values[np.isfinite(values)].astype(np.float64))
    ties = ((finite[:-1] + finite[1:]) / 2).astype(np.float32)
    noise = np.random.default_rng(1).normal(size=100).astype(np.float32) * 10
    return np.concatenate([values, ties, -ties, noise, np.array(SPECIAL, np.float32)]).astype(np.float32)


@pytest.mark.parametrize("t", sorted(SMALL))
def test_converts_are_bit_exact_as_ml_dtypes(t):
    x = _inputs(t)
    n = len(x)
    m = hs.parse_hlo(f"HloModule m\nENTRY e {{\n  a = f32[{n}] parameter(0)\n  c = {t}[{n}] convert(a)\n"
                     f"  b = f32[{n}] convert(c)\n  ROOT r = ({t}[{n}], f32[{n}]) tuple(c, b)\n}}\n")
    want, got = hs.evaluate(m, x), hs.compile(m)(x)
    assert got[0].dtype == want[0].dtype
    np.testing.assert_array_equal(np.asarray(got[0]).view(np.uint8), np.asarray(want[0]).view(np.uint8))
    np.testing.assert_array_equal(got[1], want[1])


def test_other_types_and_moving_data():
    m = hs.parse_hlo("HloModule m\nENTRY e {\n  a = f64[6] parameter(0)\n  c = f8e5m2[6] convert(a)\n"
                     "  r = f8e5m2[6] reverse(c), dimensions={0}\n  s = f8e5m2[2,3] reshape(r)\n"
                     "  k = f8e5m2[2,3] constant({{1, 2, 3}, {-1, 0.5, 448}})\n"
                     "  j = f8e5m2[2,6] concatenate(s, k), dimensions={1}\n  ROOT b = bf16[2,6] convert(j)\n}\n")
    x = np.array([1.0, -2.5, 3e4, 1e-3, 0.0, 7.0])
    want, got = hs.evaluate(m, x), hs.compile(m)(x)
    assert got.dtype == ml_dtypes.bfloat16
    np.testing.assert_array_equal(got.astype(np.float32), want.astype(np.float32))


@pytest.mark.parametrize("stage", ["lowered", "compiled"])
def test_jax_fp8_program_gives_jax_recorded_output(stage):
    m = hs.parse_hlo((DUMPS / f"jax_f8.{stage}.hlo").read_text())
    got = hs.compile(m)(np.ones(4, np.float32))
    np.testing.assert_array_equal(np.asarray(got).astype(np.float64), np.load(DUMPS / "jax_outputs.npz")["f8"])
