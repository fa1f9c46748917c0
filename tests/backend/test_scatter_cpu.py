"""scatter on the CPU (backend/cpu/scatter_kernel.py): against numpy's ufunc.at and the
evaluator, with repeated targets, windows that do not fit, and every index layout."""

from pathlib import Path

import numpy as np
import pytest

from backend_helpers import NUMPY, check_against_evaluator, module, reducer

RNG = np.random.default_rng(5)

# jax.jit(lambda x, i, u: x.at[i].add(u)).lower(...).as_text(dialect="hlo"), as JAX prints it
JAX_SCATTER_ADD = (Path(__file__).resolve().parents[1] / "hlo_samples" / "jax_scatter_add.hlo").read_text()


def test_jax_scatter_add_matches_numpy_add_at():
    """x.at[i].add(u): repeated rows add up, a negative index counts from the end (JAX's
    select), an index past the end is dropped."""
    x = RNG.standard_normal((10, 3)).astype(np.float32)
    i = np.array([1, -2, 1, 12], np.int32)
    u = RNG.standard_normal((4, 3)).astype(np.float32)
    exe = check_against_evaluator(JAX_SCATTER_ADD, [x, i, u])
    want = x.copy()
    np.add.at(want, [1, 8, 1], u[:3])
    np.testing.assert_allclose(exe(x, i, u), want, rtol=1e-6)
    assert exe.report.kernels[-1].kind == "scatter"


ROWS = """
        x = {dtype}[8,5] parameter(0)
        i = {index}[6,1] parameter(1)
        u = {dtype}[6,5] parameter(2)
        s = {dtype}[8,5] scatter(x, i, u), update_window_dims={{1}}, inserted_window_dims={{0}}, scatter_dims_to_operand_dims={{0}}, index_vector_dim=1, to_apply=f
"""


@pytest.mark.parametrize("dtype,op,index", [("f32", "add", "s32"), ("s32", "multiply", "s64"), ("f64", "maximum", "u8"),
                                            ("s8", "minimum", "s16"), ("bf16", "add", "u32")])
def test_row_scatter_types(dtype, op, index):
    text = module(ROWS.format(dtype=dtype, index=index), reducer("f", op, dtype))
    np_index = NUMPY[index]
    rows = np.array([[3], [0], [3], [7], [200 if np_index(0).dtype.kind == "u" else -1], [3]]).astype(np_index)
    x = RNG.integers(-3, 4, (8, 5)).astype(NUMPY[dtype])
    u = RNG.integers(-3, 4, (6, 5)).astype(NUMPY[dtype])
    check_against_evaluator(text, [x, rows, u])


def test_replace_keeps_the_last_update_of_a_repeated_target():
    """to_apply = the update (XLA's scatter without a combiner): order decides, and the
    kernel keeps the evaluator's order, scatter position by scatter position."""
    text = module(ROWS.format(dtype="f32", index="s32"), "f {\n  a = f32[] parameter(0)\n  ROOT b = f32[] parameter(1)\n}\n")
    rows = np.array([[2], [5], [2], [2], [0], [5]], np.int32)
    u = np.arange(30, dtype=np.float32).reshape(6, 5)
    got = check_against_evaluator(text, [np.zeros((8, 5), np.float32), rows, u])(np.zeros((8, 5), np.float32), rows, u)
    np.testing.assert_array_equal(got[2], u[3])
    np.testing.assert_array_equal(got[5], u[5])


def test_two_dimensional_windows_that_do_not_fit_are_skipped_whole():
    """Windows of 2x3 at (row, column) starts; (5, 1) and (1, 5) would run off the 6x7
    operand and are dropped entirely, not clamped as gather would."""
    text = module("""
        x = f32[6,7] parameter(0)
        i = s32[5,2] parameter(1)
        u = f32[5,2,3] parameter(2)
        s = f32[6,7] scatter(x, i, u), update_window_dims={1,2}, inserted_window_dims={}, scatter_dims_to_operand_dims={0,1}, index_vector_dim=1, to_apply=add
    """, reducer("add", "add", "f32"))
    starts = np.array([[0, 0], [5, 1], [1, 5], [4, 4], [0, 0]], np.int32)
    u = RNG.standard_normal((5, 2, 3)).astype(np.float32)
    x = np.zeros((6, 7), np.float32)
    got = check_against_evaluator(text, [x, starts, u])(x, starts, u)
    assert got[5, 1:4].tolist() == [0, 0, 0] and got[1, 5:].tolist() == [0, 0]


def test_index_vector_dim_first_and_scalar_indices():
    """index_vector_dim=0 (indices are [2, n]), and index_vector_dim = rank (each index a
    scalar, the vector dimension implicit)."""
    first = module("""
        x = f32[4,6] parameter(0)
        i = s32[2,3] parameter(1)
        u = f32[3] parameter(2)
        s = f32[4,6] scatter(x, i, u), update_window_dims={}, inserted_window_dims={0,1}, scatter_dims_to_operand_dims={1,0}, index_vector_dim=0, to_apply=add
    """, reducer("add", "add", "f32"))
    idx = np.array([[5, 0, 5], [3, 1, 3]], np.int32)  # column, row pairs: (3,5), (1,0), (3,5)
    check_against_evaluator(first, [np.zeros((4, 6), np.float32), idx, np.array([1, 2, 4], np.float32)])
    scalar = module("""
        x = s32[9] parameter(0)
        i = s32[4] parameter(1)
        u = s32[4] parameter(2)
        s = s32[9] scatter(x, i, u), update_window_dims={}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add
    """, reducer("add", "add", "s32"))
    check_against_evaluator(scalar, [np.arange(9, dtype=np.int32), np.array([8, 8, 0, 9], np.int32),
                                     np.array([1, 10, 100, 1000], np.int32)])


def test_variadic_scatter_keeps_value_and_index_of_the_maximum():
    text = module("""
        x = f32[5] parameter(0)
        k = s32[5] parameter(1)
        i = s32[7,1] parameter(2)
        u = f32[7] parameter(3)
        v = s32[7] parameter(4)
        s = (f32[5], s32[5]) scatter(x, k, i, u, v), update_window_dims={}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=argmax
    """, """
argmax {
  a = f32[] parameter(0)
  ai = s32[] parameter(1)
  b = f32[] parameter(2)
  bi = s32[] parameter(3)
  gt = pred[] compare(b, a), direction=GT
  m = f32[] select(gt, b, a)
  mi = s32[] select(gt, bi, ai)
  ROOT t = (f32[], s32[]) tuple(m, mi)
}
""")
    x = np.full(5, -np.inf, np.float32)
    k = np.full(5, -1, np.int32)
    i = np.array([[0], [4], [0], [2], [4], [0], [2]], np.int32)
    u = RNG.standard_normal(7).astype(np.float32)
    check_against_evaluator(text, [x, k, i, u, np.arange(7, dtype=np.int32)])


def test_operand_with_column_major_layout():
    text = module("""
        x = f32[8,5]{0,1} parameter(0)
        i = s32[3,1] parameter(1)
        u = f32[3,5] parameter(2)
        s = f32[8,5]{0,1} scatter(x, i, u), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add
    """, reducer("add", "add", "f32"))
    check_against_evaluator(text, [RNG.standard_normal((8, 5)).astype(np.float32), np.array([[1], [6], [1]], np.int32),
                                   RNG.standard_normal((3, 5)).astype(np.float32)])

