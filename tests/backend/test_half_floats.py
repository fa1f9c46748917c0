"""f16 on a CPU without F16C: its conversions are the runtime functions of half_floats.py
(before them such a program jumped to address 0 and ended the process). Checked against
numpy's conversions over every f16 value and the f32 values around each rounding boundary."""

from __future__ import annotations

import platform

import numpy as np
import pytest

from backend_helpers import compile_text, module

pytestmark = pytest.mark.skipif(platform.machine().lower() not in ("x86_64", "amd64"),
                                reason="only x86-64 without F16C calls these functions (ARM converts f16 itself)")
WITHOUT_F16C = {"cpu": "x86-64"}  # SSE2 only: every f16 conversion is a call


def _convert(values: np.ndarray, to: str) -> np.ndarray:
    frm = {np.float16: "f16", np.float32: "f32"}[values.dtype.type]
    text = module(f"p = {frm}[{values.size}] parameter(0)\nr = {to}[{values.size}] convert(p)")
    return compile_text(text, **WITHOUT_F16C)(values)


def test_every_half_extends_exactly():
    halves = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(np.float16)
    got, want = _convert(halves, "f32"), halves.astype(np.float32)
    nan = np.isnan(want)
    np.testing.assert_array_equal(got.view(np.uint32)[~nan], want.view(np.uint32)[~nan])
    assert np.isnan(got[nan]).all()
    # a NaN keeps its sign and payload: its half's bits come back when truncated again
    np.testing.assert_array_equal(got[nan].view(np.uint32) >> 13 & 0x3FF, halves[nan].view(np.uint16) & 0x3FF)
    np.testing.assert_array_equal(np.signbit(got[nan]), np.signbit(halves[nan]))


def _around_every_boundary() -> np.ndarray:
    """f32 values at, next to and halfway between neighbouring halves (ties both ways), from
    the subnormals to beyond the largest half, both signs, and the special values."""
    halves = np.arange(0, 0x7C01, dtype=np.uint16).view(np.float16).astype(np.float64)
    mids = (halves[:-1] + halves[1:]) / 2
    points = np.concatenate([halves, mids, [65504.0, 65519.99, 65520.0, 65536.0, 1e30, 2.0 ** -25, 2.0 ** -26]])
    f32 = points.astype(np.float32)
    near = np.concatenate([f32, np.nextafter(f32, np.float32(np.inf)), np.nextafter(f32, np.float32(0))])
    return np.concatenate([near, -near, np.float32([np.inf, -np.inf])]).astype(np.float32)


def test_floats_round_to_the_nearest_half_ties_to_even():
    values = _around_every_boundary()
    got = _convert(values, "f16")
    with np.errstate(over="ignore"):  # beyond the largest half: infinity, as intended
        want = values.astype(np.float16)
    np.testing.assert_array_equal(got.view(np.uint16), want.view(np.uint16))


def test_nans_stay_nans_quieted_with_their_sign():
    payloads = np.uint32([0x7FC00000, 0x7F800001, 0x7FA00000, 0x7FFFFFFF, 0x7F802000])
    values = np.concatenate([payloads, payloads | 0x80000000]).view(np.float32)
    bits = _convert(values, "f16").view(np.uint16)
    assert ((bits & 0x7E00) == 0x7E00).all()  # an all-ones exponent and the quiet bit
    np.testing.assert_array_equal(bits >> 15, values.view(np.uint32) >> 31)
    np.testing.assert_array_equal(bits & 0x1FF, values.view(np.uint32) >> 13 & 0x1FF)


def test_f16_arithmetic_without_f16c_matches_with_it():
    rng = np.random.default_rng(5)
    x, y = (rng.standard_normal(4096).astype(np.float16) for _ in range(2))
    text = module("a = f16[4096] parameter(0)\nb = f16[4096] parameter(1)\nm = f16[4096] multiply(a, b)\n"
                  "r = f16[4096] add(m, a)")
    plain = compile_text(text, **WITHOUT_F16C)(x, y)
    np.testing.assert_array_equal(plain.view(np.uint16), compile_text(text)(x, y).view(np.uint16))
