"""Data movement, dot and the leaves: expected values worked out by hand from XLA's semantics."""

import numpy as np
import pytest

from hloscope.errors import ElidedValuesError, NotSupportedError

from evaluator_helpers import check, run


def f32(*values):
    return np.array(values, np.float32)


M23 = np.arange(6, dtype=np.float32).reshape(2, 3)  # [[0 1 2] [3 4 5]]


def test_iota_along_any_dimension():
    check(run(" ROOT r = s32[2,3] iota(), iota_dimension=0"), np.array([[0, 0, 0], [1, 1, 1]], np.int32))
    check(run(" ROOT r = f32[2,3] iota(), iota_dimension=1"), np.array([[0, 1, 2], [0, 1, 2]], np.float32))


def test_constant_and_tuple_constant():
    check(run(" ROOT c = s32[2,2] constant({ {1, 2}, {3, 4} })"), np.array([[1, 2], [3, 4]], np.int32))
    a, b = run(" ROOT c = (f32[], pred[2]) constant((1.5, {true, false}))")
    check(a, np.float32(1.5))
    check(b, np.array([True, False]))


def test_broadcast_maps_operand_dims_to_result_dims():
    got = run(" a = f32[2,3] parameter(0)\n ROOT r = f32[3,4,2] broadcast(a), dimensions={2,0}", M23)
    assert got.shape == (3, 4, 2)
    for k in range(4):
        check(got[:, k, :], M23.T)  # result[i, k, j] = a[j, i]
    check(run(" a = f32[] parameter(0)\n ROOT r = f32[2] broadcast(a), dimensions={}", np.float32(7)), f32(7, 7))


def test_reshape_transpose_reverse_concatenate():
    check(run(" a = f32[2,3] parameter(0)\n ROOT r = f32[3,2] reshape(a)", M23), f32(0, 1, 2, 3, 4, 5).reshape(3, 2))
    check(run(" a = f32[2,3] parameter(0)\n ROOT r = f32[3,2] transpose(a), dimensions={1,0}", M23),
          np.array([[0, 3], [1, 4], [2, 5]], np.float32))
    check(run(" a = f32[2,3] parameter(0)\n ROOT r = f32[2,3] reverse(a), dimensions={0,1}", M23),
          np.array([[5, 4, 3], [2, 1, 0]], np.float32))
    check(run(" a = f32[2,3] parameter(0)\n ROOT r = f32[2,6] concatenate(a, a), dimensions={1}", M23),
          np.array([[0, 1, 2, 0, 1, 2], [3, 4, 5, 3, 4, 5]], np.float32))


def test_slice_with_strides():
    x = np.arange(10, dtype=np.float32)
    check(run(" a = f32[10] parameter(0)\n ROOT r = f32[3] slice(a), slice={[1:8:3]}", x), f32(1, 4, 7))
    check(run(" a = f32[2,3] parameter(0)\n ROOT r = f32[1,2] slice(a), slice={[1:2], [0:3:2]}", M23),
          np.array([[3, 5]], np.float32))


def test_pad_with_interior_and_negative_padding():
    x = f32(1, 2, 3, 4)
    check(run(" a = f32[4] parameter(0)\n z = f32[] constant(0)\n ROOT r = f32[9] pad(a, z), padding=1_1_1", x),
          f32(0, 1, 0, 2, 0, 3, 0, 4, 0))
    # Interior first (1 0 2 0 3 0 4), then one element cropped from each end.
    check(run(" a = f32[4] parameter(0)\n z = f32[] constant(0)\n ROOT r = f32[5] pad(a, z), padding=-1_-1_1", x),
          f32(0, 2, 0, 3, 0))
    check(run(" a = f32[4] parameter(0)\n z = f32[] constant(9)\n ROOT r = f32[5] pad(a, z), padding=-2_3", x),
          f32(3, 4, 9, 9, 9))
    check(run(" a = f32[2,3] parameter(0)\n z = f32[] constant(-1)\n ROOT r = f32[3,4] pad(a, z), padding=0_1x1_0", M23),
          np.array([[-1, 0, 1, 2], [-1, 3, 4, 5], [-1, -1, -1, -1]], np.float32))


def test_dynamic_slice_clamps_the_start():
    x = f32(0, 1, 2, 3, 4)
    body = " a = f32[5] parameter(0)\n i = s32[] parameter(1)\n ROOT r = f32[2] dynamic-slice(a, i), dynamic_slice_sizes={2}"
    check(run(body, x, np.int32(1)), f32(1, 2))
    check(run(body, x, np.int32(4)), f32(3, 4))
    check(run(body, x, np.int32(-3)), f32(0, 1))


def test_dynamic_update_slice_clamps_and_copies():
    x = f32(0, 1, 2, 3, 4)
    body = (" a = f32[5] parameter(0)\n u = f32[2] constant({8, 9})\n i = s32[] parameter(1)\n"
            " ROOT r = f32[5] dynamic-update-slice(a, u, i)")
    check(run(body, x, np.int32(10)), f32(0, 1, 2, 8, 9))
    check(run(body, x, np.int32(-1)), f32(8, 9, 2, 3, 4))
    check(x, f32(0, 1, 2, 3, 4))


def test_bitcast_reads_memory_in_the_layouts():
    # Same layouts: a reshape.
    check(run(" a = f32[2,3]{1,0} parameter(0)\n ROOT r = f32[3,2]{1,0} bitcast(a)", M23), M23.reshape(3, 2))
    # A column-major f32[2,3] holds 0 3 1 4 2 5 in memory; read row-major as f32[3,2] it is the transpose.
    check(run(" a = f32[2,3]{0,1} parameter(0)\n ROOT r = f32[3,2]{1,0} bitcast(a)", M23), M23.T)
    # Row-major memory 0 1 2 3 4 5 read as a column-major f32[3,2]: element (i, j) is at j*3 + i.
    check(run(" a = f32[2,3]{1,0} parameter(0)\n ROOT r = f32[3,2]{0,1} bitcast(a)", M23), M23.T)


def test_copy_keeps_logical_values_across_layouts():
    check(run(" a = f32[2,3]{1,0} parameter(0)\n ROOT r = f32[2,3]{0,1} copy(a)", M23), M23)


def test_bitcast_convert_to_narrower_type_adds_a_dimension():
    got = run(" a = f32[2] parameter(0)\n ROOT r = u8[2,4] bitcast-convert(a)", f32(1.0, -2.0))
    check(got, np.array([[0, 0, 0x80, 0x3F], [0, 0, 0, 0xC0]], np.uint8))  # little-endian bytes
    back = run(" a = u8[2,4] parameter(0)\n ROOT r = f32[2] bitcast-convert(a)", got)
    check(back, f32(1.0, -2.0))


def test_bitcast_convert_of_a_scalar_is_a_scalar():
    """JAX 0.12 writes `s32[] bitcast-convert(f32[] constant(nan))` (the NaN check of a sort
    key); it was evaluated to an int32[1] and refused as the wrong shape."""
    got = run(" c = f32[] constant(nan)\n ROOT r = s32[] bitcast-convert(c)")
    assert got.shape == () and got.dtype == np.int32 and int(got) == 0x7FC00000
    pair = run(" c = f32[] constant(-2)\n ROOT r = u16[2] bitcast-convert(c)")
    check(pair, np.array([0, 0xC000], np.uint16))


def test_dot_matrix_vector_and_batch_dims_first():
    a = np.array([[1, 2], [3, 4]], np.float32)
    check(run(" a = f32[2,2] parameter(0)\n b = f32[2] parameter(1)\n"
              " ROOT d = f32[2] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}", a, f32(1, 10)),
          f32(21, 43))
    # lhs [k=2, b=2, m=1], rhs [n=2, b=2, k=2]: result [b, m, n] with batch dims first.
    lhs = np.array([[[1], [2]], [[3], [4]]], np.float32)          # lhs[k, b, 0]
    rhs = np.array([[[1, 0], [0, 1]], [[1, 1], [2, 2]]], np.float32)  # rhs[n, b, k]
    got = run(" a = f32[2,2,1] parameter(0)\n b = f32[2,2,2] parameter(1)\n"
              " ROOT d = f32[2,1,2] dot(a, b), lhs_batch_dims={1}, lhs_contracting_dims={0},"
              " rhs_batch_dims={1}, rhs_contracting_dims={2}", lhs, rhs)
    # batch 0: lhs k-vector (1, 3); n=0: rhs (1, 0) -> 1, n=1: rhs (1, 1) -> 4.
    # batch 1: lhs k-vector (2, 4); n=0: rhs (0, 1) -> 4, n=1: rhs (2, 2) -> 12.
    check(got, np.array([[[1, 4]], [[4, 12]]], np.float32))


def test_dot_outer_product_and_mixed_types():
    got = run(" a = s8[2] parameter(0)\n b = s8[3] parameter(1)\n ROOT d = s32[2,3] dot(a, b)",
              np.array([100, -2], np.int8), np.array([100, 1, 3], np.int8))
    check(got, np.array([[10000, 100, 300], [-200, -2, -6]], np.int32))


def test_dot_bf16_inputs_accumulate_in_f32():
    import ml_dtypes

    ones = np.ones(512, ml_dtypes.bfloat16)
    got = run(" a = bf16[512] parameter(0)\n b = bf16[512] parameter(1)\n"
              " ROOT d = f32[] dot(a, b), lhs_contracting_dims={0}, rhs_contracting_dims={0}", ones, ones)
    check(got, np.float32(512))  # a bf16 accumulator would stop at 256


def test_elided_constant_says_what_cannot_be_known():
    with pytest.raises(ElidedValuesError, match=r"constant c \(f32\[4\]\{0\}\) has no values"):
        run(" ROOT c = f32[4] constant({...})")
