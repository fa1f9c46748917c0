"""Pooling reduce-windows on the CPU against the evaluator: small windows are unrolled into
straight-line taps (backend/elemental_reduce.py), bigger ones keep the window loop."""

from __future__ import annotations

import numpy as np
import pytest

from backend_helpers import check_against_evaluator, module, reducer

pytestmark = pytest.mark.hosts  # results that depend on the vector width and FMA (tests/hosts.py)

POOLS = {  # name: (input dims, output dims, window)
    "max_3x3_s2_nhwc_same": ("2,17,15,24", "2,9,8,24", "size=1x3x3x1 stride=1x2x2x1 pad=0_0x1_1x1_1x0_0"),
    "max_3x3_s2_nchw_valid": ("2,5,17,15", "2,5,8,7", "size=1x1x3x3 stride=1x1x2x2"),
    "max_2x2_s2": ("3,16,16", "3,8,8", "size=1x2x2 stride=1x2x2"),
    "dilated_window": ("2,20,20", "2,7,7", "size=1x3x3 stride=1x2x2 rhs_dilate=1x3x3"),
    "dilated_base": ("2,7,7", "2,7,7", "size=1x3x3 stride=1x2x2 pad=0_0x1_1x1_1 lhs_dilate=1x2x2"),
    "big_window_loop": ("2,20,20", "2,3,3", "size=1x7x7 stride=1x6x6 pad=0_0x2_1x2_1"),
}


def _data(dims):
    shape = tuple(int(d) for d in dims.split(","))
    return np.random.default_rng(3).standard_normal(shape).astype(np.float32)


@pytest.mark.parametrize("name", sorted(POOLS))
@pytest.mark.parametrize("op,init", [("maximum", "-inf"), ("add", "0")])
def test_pooling(name, op, init):
    dims, out, window = POOLS[name]
    text = module(f"""
        x = f32[{dims}] parameter(0)
        i = f32[] constant({init})
        w = f32[{out}] reduce-window(x, i), window={{{window}}}, to_apply=red
    """, reducer("red", op, "f32"))
    exe = check_against_evaluator(text, [_data(dims)], rtol=1e-5, atol=1e-5)
    assert [k.kind for k in exe.report.kernels] == ["loop"]


def test_average_pool_fused_with_its_division():
    """avg pool as jax writes it: a reduce-window sum divided by 9 (one loop fusion or two)."""
    text = module("""
        x = f32[2,12,12,8] parameter(0)
        i = f32[] constant(0)
        s = f32[2,6,6,8] reduce-window(x, i), window={size=1x3x3x1 stride=1x2x2x1 pad=0_0x0_1x0_1x0_0}, to_apply=add
        n = f32[] constant(9)
        b = f32[2,6,6,8] broadcast(n), dimensions={}
        d = f32[2,6,6,8] divide(s, b)
    """, reducer("add", "add", "f32"))
    check_against_evaluator(text, [_data("2,12,12,8")], rtol=1e-5, atol=1e-5)
