"""gather and scatter with full dimension numbers, on hand-worked examples."""

import numpy as np

from evaluator_helpers import check, run


ADD = "add {\n x = f32[] parameter(0)\n y = f32[] parameter(1)\n ROOT s = f32[] add(x, y)\n}\n"
SET = "set {\n x = f32[] parameter(0)\n ROOT y = f32[] parameter(1)\n}\n"
# acc * 2 + update: the order in which repeated targets combine shows in the result.
TWICE = ("twice {\n x = f32[] parameter(0)\n y = f32[] parameter(1)\n two = f32[] constant(2)\n"
         " d = f32[] multiply(x, two)\n ROOT s = f32[] add(d, y)\n}\n")


X = np.arange(9, dtype=np.float32).reshape(3, 3)  # [[0 1 2] [3 4 5] [6 7 8]]


def test_gather_rows_with_clamped_starts():
    body = (" a = f32[3,3] parameter(0)\n i = s32[3] parameter(1)\n"
            " ROOT g = f32[3,3] gather(a, i), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0},"
            " index_vector_dim=1, slice_sizes={1,3}")
    got = run(body, X, np.array([2, 0, 7], np.int32))
    check(got, X[[2, 0, 2]])  # 7 is clamped to the last valid start, 2


def test_gather_2d_windows_clamp_to_fit():
    body = (" a = f32[3,3] parameter(0)\n i = s32[2,2] parameter(1)\n"
            " ROOT g = f32[2,2,2] gather(a, i), offset_dims={1,2}, collapsed_slice_dims={}, start_index_map={0,1},"
            " index_vector_dim=1, slice_sizes={2,2}")
    got = run(body, X, np.array([[0, 1], [2, 2]], np.int32))
    check(got, np.array([[[1, 2], [4, 5]], [[4, 5], [7, 8]]], np.float32))  # (2,2) clamps to (1,1)


def test_gather_index_vector_dim_first_and_offset_dim_first():
    body = (" a = f32[3,3] parameter(0)\n i = s32[2,2] parameter(1)\n"
            " ROOT g = f32[1,2] gather(a, i), offset_dims={0}, collapsed_slice_dims={1}, start_index_map={1,0},"
            " index_vector_dim=0, slice_sizes={1,1}")
    # index vectors are columns: (2,0) and (1,2); start_index_map puts them at (dim1, dim0).
    got = run(body, X, np.array([[2, 1], [0, 2]], np.int32))
    check(got, np.array([[X[0, 2], X[2, 1]]], np.float32))


def test_gather_with_batching_dims():
    body = (" a = f32[3,3] parameter(0)\n i = s32[3,1] parameter(1)\n"
            " ROOT g = f32[3] gather(a, i), offset_dims={}, collapsed_slice_dims={1}, start_index_map={1},"
            " operand_batching_dims={0}, start_indices_batching_dims={0}, index_vector_dim=1, slice_sizes={1,1}")
    got = run(body, X, np.array([[2], [0], [1]], np.int32))
    check(got, np.array([2, 3, 7], np.float32))  # X[b, idx[b]]


SCATTER_ROWS = (" a = f32[3,2] parameter(0)\n i = s32[{n}] parameter(1)\n u = f32[{n},2] parameter(2)\n"
                " ROOT s = f32[3,2] scatter(a, i, u), update_window_dims={{1}}, inserted_window_dims={{0}},"
                " scatter_dims_to_operand_dims={{0}}, index_vector_dim=1, to_apply={comp}")


def test_scatter_add_combines_repeated_indices():
    u = np.array([[1, 2], [10, 20], [100, 200]], np.float32)
    got = run(SCATTER_ROWS.format(n=3, comp="add"), np.ones((3, 2), np.float32), np.array([0, 2, 0], np.int32), u,
              extra=ADD)
    check(got, np.array([[102, 203], [1, 1], [11, 21]], np.float32))


def test_scatter_skips_out_of_bounds_indices():
    u = np.array([[1, 2], [10, 20], [100, 200]], np.float32)
    got = run(SCATTER_ROWS.format(n=3, comp="add"), np.zeros((3, 2), np.float32), np.array([3, -1, 1], np.int32), u,
              extra=ADD)
    check(got, np.array([[0, 0], [100, 200], [0, 0]], np.float32))


def test_scatter_applies_repeated_updates_in_order():
    u = np.array([[1, 1], [5, 5], [3, 3]], np.float32)
    got = run(SCATTER_ROWS.format(n=3, comp="twice"), np.ones((3, 2), np.float32), np.array([1, 1, 1], np.int32), u,
              extra=TWICE)
    # ((1*2 + 1)*2 + 5)*2 + 3 = 25
    check(got, np.array([[1, 1], [25, 25], [1, 1]], np.float32))
    got = run(SCATTER_ROWS.format(n=3, comp="set"), np.zeros((3, 2), np.float32), np.array([2, 2, 0], np.int32), u,
              extra=SET)
    check(got, np.array([[3, 3], [0, 0], [5, 5]], np.float32))  # the last update to a row wins


def test_scatter_skips_a_window_that_does_not_fit():
    body = (" a = f32[5] parameter(0)\n i = s32[2,1] parameter(1)\n u = f32[2,2] parameter(2)\n"
            " ROOT s = f32[5] scatter(a, i, u), update_window_dims={1}, inserted_window_dims={},"
            " scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add")
    u = np.array([[1, 2], [10, 20]], np.float32)
    got = run(body, np.zeros(5, np.float32), np.array([[4], [3]], np.int32), u, extra=ADD)
    check(got, np.array([0, 0, 0, 10, 20], np.float32))  # the window at 4 would end past the array


def test_scatter_with_batching_dims():
    body = (" a = f32[2,3] parameter(0)\n i = s32[2] parameter(1)\n u = f32[2] parameter(2)\n"
            " ROOT s = f32[2,3] scatter(a, i, u), update_window_dims={}, inserted_window_dims={1},"
            " scatter_dims_to_operand_dims={1}, input_batching_dims={0}, scatter_indices_batching_dims={0},"
            " index_vector_dim=1, to_apply=add")
    got = run(body, np.zeros((2, 3), np.float32), np.array([2, 0], np.int32), np.array([5, 7], np.float32), extra=ADD)
    check(got, np.array([[0, 0, 5], [7, 0, 0]], np.float32))


def test_variadic_scatter_updates_both_operands():
    comp = ("pair {\n a0 = f32[] parameter(0)\n b0 = s32[] parameter(1)\n a1 = f32[] parameter(2)\n"
            " b1 = s32[] parameter(3)\n s = f32[] add(a0, a1)\n m = s32[] maximum(b0, b1)\n"
            " ROOT t = (f32[], s32[]) tuple(s, m)\n}\n")
    body = (" a = f32[3] parameter(0)\n b = s32[3] parameter(1)\n i = s32[2] parameter(2)\n"
            " ua = f32[2] parameter(3)\n ub = s32[2] parameter(4)\n"
            " ROOT s = (f32[3], s32[3]) scatter(a, b, i, ua, ub), update_window_dims={}, inserted_window_dims={0},"
            " scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=pair")
    fa, ib = run(body, np.zeros(3, np.float32), np.array([5, 5, 5], np.int32), np.array([1, 1], np.int32),
                 np.array([2, 3], np.float32), np.array([9, 4], np.int32), extra=comp)
    check(fa, np.array([0, 5, 0], np.float32))
    check(ib, np.array([5, 9, 5], np.int32))
