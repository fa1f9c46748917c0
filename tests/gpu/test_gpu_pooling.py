"""Pooling reduce-windows on the GPU (emulated): the elemental rule unrolls small windows
into straight-line taps for every target, padding and dilation still skipped."""

from __future__ import annotations

import pytest

from gpu_helpers import data, emulated_check, module, reducer


@pytest.mark.parametrize("window,out", [
    ("size=1x3x3x1 stride=1x2x2x1 pad=0_0x1_1x1_1x0_0", "1,5,4,3"),
    ("size=1x7x7x1 stride=1x3x3x1 pad=0_0x2_1x2_1x0_0", "1,2,2,3"),  # 49 taps: the window loop
])
def test_max_pool_emulated(window, out):
    text = module(f"""
        x = f32[1,9,7,3] parameter(0)
        i = f32[] constant(-inf)
        w = f32[{out}] reduce-window(x, i), window={{{window}}}, to_apply=mx
    """, reducer("mx", "maximum", "f32"))
    emulated_check(text, [data("f32", 1, 9, 7, 3)])
