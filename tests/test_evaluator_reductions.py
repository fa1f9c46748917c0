"""reduce, reduce-window and select-and-scatter: hand-worked examples of XLA's semantics."""

import ml_dtypes
import numpy as np

from evaluator_helpers import check, run


ADD = "add {\n x = f32[] parameter(0)\n y = f32[] parameter(1)\n ROOT s = f32[] add(x, y)\n}\n"
MAX = "max {\n x = f32[] parameter(0)\n y = f32[] parameter(1)\n ROOT s = f32[] maximum(x, y)\n}\n"
# Not a plain add: the evaluator must really call it (acc * 2 + x, order-dependent).
WEIRD = ("weird {\n x = f32[] parameter(0)\n y = f32[] parameter(1)\n two = f32[] constant(2)\n"
         " d = f32[] multiply(x, two)\n ROOT s = f32[] add(d, y)\n}\n")
GE = "ge {\n a = f32[] parameter(0)\n b = f32[] parameter(1)\n ROOT c = pred[] compare(a, b), direction=GE\n}\n"


M23 = np.arange(6, dtype=np.float32).reshape(2, 3)  # [[0 1 2] [3 4 5]]


def test_reduce_applies_init_once_per_output():
    body = " a = f32[2,3] parameter(0)\n z = f32[] constant(10)\n ROOT r = f32[2] reduce(a, z), dimensions={1}, to_apply=add"
    check(run(body, M23, extra=ADD), np.array([13, 22], np.float32))
    body = " a = f32[2,3] parameter(0)\n z = f32[] constant(10)\n ROOT r = f32[] reduce(a, z), dimensions={0,1}, to_apply=add"
    check(run(body, M23, extra=ADD), np.float32(25))


def test_reduce_with_a_general_reducer_folds_in_order():
    body = " a = f32[2,3] parameter(0)\n z = f32[] constant(1)\n ROOT r = f32[2] reduce(a, z), dimensions={1}, to_apply=weird"
    # row 0: ((1*2+0)*2+1)*2+2 = 12; row 1: ((1*2+3)*2+4)*2+5 = 33
    check(run(body, M23, extra=WEIRD), np.array([12, 33], np.float32))


def test_reduce_over_an_empty_dimension_is_the_init():
    body = " a = f32[2,0] parameter(0)\n z = f32[] constant(-7)\n ROOT r = f32[2] reduce(a, z), dimensions={1}, to_apply=max"
    check(run(body, np.zeros((2, 0), np.float32), extra=MAX), np.array([-7, -7], np.float32))


def test_reduce_max_propagates_nan():
    body = " a = f32[2,2] parameter(0)\n z = f32[] constant(-inf)\n ROOT r = f32[2] reduce(a, z), dimensions={1}, to_apply=max"
    got = run(body, np.array([[1, np.nan], [3, 2]], np.float32), extra=MAX)
    check(got, np.array([np.nan, 3], np.float32))


def test_variadic_reduce_returns_a_tuple_argmax():
    argmax = ("argmax {\n v0 = f32[] parameter(0)\n i0 = s32[] parameter(1)\n v1 = f32[] parameter(2)\n"
              " i1 = s32[] parameter(3)\n gt = pred[] compare(v1, v0), direction=GT\n"
              " v = f32[] select(gt, v1, v0)\n i = s32[] select(gt, i1, i0)\n ROOT t = (f32[], s32[]) tuple(v, i)\n}\n")
    body = (" a = f32[2,4] parameter(0)\n io = s32[2,4] iota(), iota_dimension=1\n m = f32[] constant(-inf)\n"
            " z = s32[] constant(-1)\n ROOT r = (f32[2], s32[2]) reduce(a, io, m, z), dimensions={1}, to_apply=argmax")
    x = np.array([[3, 9, 9, 1], [-1, -5, -0.5, -2]], np.float32)
    values, indices = run(body, x, extra=argmax)
    check(values, np.array([9, -0.5], np.float32))
    check(indices, np.array([1, 2], np.int32))  # the first maximum wins ties


def test_reduce_bf16_sum_rounds_every_step():
    # Sequential bf16 adds: 256 + 1 rounds back to 256 each time, so 256 ones after 256 stay 256.
    add16 = "add16 {\n x = bf16[] parameter(0)\n y = bf16[] parameter(1)\n ROOT s = bf16[] add(x, y)\n}\n"
    body = " a = bf16[300] parameter(0)\n z = bf16[] constant(0)\n ROOT r = bf16[] reduce(a, z), dimensions={0}, to_apply=add16"
    got = run(body, np.ones(300, ml_dtypes.bfloat16), extra=add16)
    check(got, np.array(256, ml_dtypes.bfloat16))


def test_reduce_window_cumulative_sum():
    body = " a = f32[6] parameter(0)\n z = f32[] constant(0)\n ROOT r = f32[6] reduce-window(a, z), window={size=6 pad=5_0}, to_apply=add"
    check(run(body, np.arange(6, dtype=np.float32), extra=ADD), np.array([0, 1, 3, 6, 10, 15], np.float32))


def test_reduce_window_padding_is_skipped_and_init_applied_once():
    body = " a = f32[5] parameter(0)\n z = f32[] constant(100)\n ROOT r = f32[3] reduce-window(a, z), window={size=2 stride=2 pad=1_0}, to_apply=add"
    # windows over [pad, 0], [1, 2], [3, 4]
    check(run(body, np.arange(5, dtype=np.float32), extra=ADD), np.array([100, 103, 107], np.float32))


def test_reduce_window_dilations():
    x = np.array([1, 2, 4, 8, 16], np.float32)
    body = " a = f32[5] parameter(0)\n z = f32[] constant(0)\n ROOT r = f32[3] reduce-window(a, z), window={size=2 rhs_dilate=2}, to_apply=add"
    check(run(body, x, extra=ADD), np.array([5, 10, 20], np.float32))  # x[i] + x[i+2]
    body = " a = f32[3] parameter(0)\n z = f32[] constant(0)\n ROOT r = f32[4] reduce-window(a, z), window={size=2 lhs_dilate=2}, to_apply=add"
    # base-dilated input: 1 _ 2 _ 4 (holes are skipped)
    check(run(body, x[:3], extra=ADD), np.array([1, 2, 2, 4], np.float32))


def test_reduce_window_2d_max_pool_with_general_reducer():
    x = np.arange(16, dtype=np.float32).reshape(4, 4)
    body = (" a = f32[4,4] parameter(0)\n z = f32[] constant(0)\n"
            " ROOT r = f32[2,2] reduce-window(a, z), window={size=2x2 stride=2x2}, to_apply=max")
    check(run(body, x, extra=MAX), np.array([[5, 7], [13, 15]], np.float32))
    body = (" a = f32[4,4] parameter(0)\n z = f32[] constant(0)\n"
            " ROOT r = f32[2,2] reduce-window(a, z), window={size=1x2 stride=2x2}, to_apply=weird")
    # each window folds (0*2 + a)*2 + b over a row pair: 2a + b
    check(run(body, x, extra=WEIRD), np.array([[1, 7], [25, 31]], np.float32))


def test_select_and_scatter_max_pool_gradient():
    x = np.array([[1, 5, 2, 2], [3, 4, 8, 0]], np.float32)
    src = np.array([[10, 20]], np.float32)
    body = (" a = f32[2,4] parameter(0)\n s = f32[1,2] parameter(1)\n z = f32[] constant(0)\n"
            " ROOT r = f32[2,4] select-and-scatter(a, s, z), window={size=2x2 stride=2x2}, select=ge, scatter=add")
    check(run(body, x, src, extra=GE + ADD), np.array([[0, 10, 0, 0], [0, 0, 20, 0]], np.float32))


def test_select_and_scatter_overlapping_windows_accumulate_and_ties_keep_the_first():
    x = np.array([1, 7, 7, 2], np.float32)
    src = np.array([1, 10, 100], np.float32)
    body = (" a = f32[4] parameter(0)\n s = f32[3] parameter(1)\n z = f32[] constant(0)\n"
            " ROOT r = f32[4] select-and-scatter(a, s, z), window={size=2}, select=ge, scatter=add")
    # windows [1,7] -> index 1; [7,7] -> index 1 (GE keeps the first); [7,2] -> index 2
    check(run(body, x, src, extra=GE + ADD), np.array([0, 11, 100, 0], np.float32))
