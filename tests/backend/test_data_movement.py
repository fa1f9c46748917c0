"""Index-mapping ops (the elemental emitter's data movement) natively vs. the evaluator."""

import numpy as np
import pytest

from backend_helpers import check_against_evaluator, compile_text, module, reducer

rng = np.random.default_rng(3)


def x_f32(*dims):
    return rng.standard_normal(dims).astype(np.float32)


CASES = {
    "broadcast": ("p = f32[3,5] parameter(0)\nb = f32[4,3,2,5] broadcast(p), dimensions={1,3}", [(3, 5)]),
    "broadcast_scalar": ("p = f32[] parameter(0)\nb = f32[7,9] broadcast(p), dimensions={}", [()]),
    "reshape_split": ("p = f32[6,10] parameter(0)\nr = f32[3,4,5] reshape(p)", [(6, 10)]),
    "reshape_unit_dims": ("p = f32[8,1,4] parameter(0)\nr = f32[1,8,4,1] reshape(p)", [(8, 1, 4)]),
    "transpose3": ("p = f32[4,5,6] parameter(0)\nt = f32[6,4,5] transpose(p), dimensions={2,0,1}", [(4, 5, 6)]),
    "slice_strided": ("p = f32[20,30] parameter(0)\ns = f32[5,8] slice(p), slice={[2:17:3], [1:30:4]}", [(20, 30)]),
    "reverse": ("p = f32[6,7] parameter(0)\nr = f32[6,7] reverse(p), dimensions={0,1}", [(6, 7)]),
    "pad_interior_negative": (
        "p = f32[5,6] parameter(0)\nv = f32[] constant(-7)\nr = f32[11,7] pad(p, v), padding=2_0_1x-1_2_0",
        [(5, 6)]),
    "concatenate3": (
        "a = f32[4,2] parameter(0)\nb = f32[4,5] parameter(1)\nc = f32[4,1] parameter(2)\n"
        "r = f32[4,8] concatenate(a, b, c), dimensions={1}", [(4, 2), (4, 5), (4, 1)]),
    "iota_convert": ("i = s32[5,7] iota(), iota_dimension=1\nr = f32[5,7] convert(i)", []),
    "copy_layout": ("p = f32[5,7]{1,0} parameter(0)\nc = f32[5,7]{0,1} copy(p)\nr = f32[5,7]{1,0} copy(c)", [(5, 7)]),
    "bitcast_layout": ("p = f32[5,7]{1,0} parameter(0)\nb = f32[7,5]{0,1} bitcast(p)\nr = f32[7,5]{1,0} copy(b)", [(5, 7)]),
}


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("pipeline", ["none", "default"])
def test_data_movement(name, pipeline):
    body, shapes = CASES[name]
    args = [x_f32(*s) for s in shapes]
    check_against_evaluator(module(body), args, rtol=0, atol=0, pipeline=pipeline)


@pytest.mark.parametrize("start", [(0, 0), (3, 2), (10, 10), (-4, 1)])
def test_dynamic_slice_clamps(start):
    text = module("""
        p = f32[8,6] parameter(0)
        i = s32[] parameter(1)
        j = s32[] parameter(2)
        r = f32[3,4] dynamic-slice(p, i, j), dynamic_slice_sizes={3,4}
    """)
    args = [x_f32(8, 6), np.int32(start[0]), np.int32(start[1])]
    check_against_evaluator(text, args, rtol=0, atol=0)


@pytest.mark.parametrize("start", [(0, 0), (6, 1), (-1, 9)])
def test_dynamic_update_slice(start):
    text = module("""
        p = f32[8,6] parameter(0)
        u = f32[3,4] parameter(1)
        i = s64[] parameter(2)
        j = s64[] parameter(3)
        r = f32[8,6] dynamic-update-slice(p, u, i, j)
    """)
    args = [x_f32(8, 6), x_f32(3, 4), np.int64(start[0]), np.int64(start[1])]
    check_against_evaluator(text, args, rtol=0, atol=0)


def test_gather_rows():
    text = module("""
        p = f32[10,4] parameter(0)
        i = s32[6,1] parameter(1)
        r = f32[6,4] gather(p, i), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,4}
    """)
    idx = np.array([[0], [9], [3], [12], [-2], [5]], np.int32)
    check_against_evaluator(text, [x_f32(10, 4), idx], rtol=0, atol=0)


def test_reduce_window_sum_with_padding():
    text = module("""
        p = f32[6,9] parameter(0)
        z = f32[] constant(0)
        r = f32[6,5] reduce-window(p, z), window={size=1x3 stride=1x2 pad=0_0x1_1}, to_apply=add
    """, reducer("add", "add", "f32"))
    check_against_evaluator(text, [x_f32(6, 9)], rtol=1e-6, atol=1e-6)


def test_entry_parameter_and_result_layouts():
    """A column-major parameter and result: numpy arrays are converted at the boundary."""
    text = ("HloModule t, entry_computation_layout={(f32[3,4]{0,1})->f32[3,4]{0,1}}\n\n"
            "ENTRY main {\n  p = f32[3,4]{0,1} parameter(0)\n  c = f32[] constant(2)\n"
            "  b = f32[3,4]{0,1} broadcast(c), dimensions={}\n  ROOT r = f32[3,4]{0,1} multiply(p, b)\n}\n")
    x = x_f32(3, 4)
    np.testing.assert_array_equal(compile_text(text, pipeline="none")(x), x * 2)


def test_empty_arrays():
    text = module("p = f32[0,5] parameter(0)\nr = f32[0,5] exponential(p)")
    out = compile_text(text)(np.zeros((0, 5), np.float32))
    assert out.shape == (0, 5)
