"""x[...] with numpy's semantics: basic slices (negative steps too), integers, None, Ellipsis,
traced scalar indices (dynamic-slice), integer arrays (gather) and known boolean masks."""

from __future__ import annotations

import numpy as np
import pytest

from hloscope import jit
from hloscope.frontend import fori_loop

X = np.arange(4 * 5 * 6, dtype=np.float32).reshape(4, 5, 6)

BASIC = [
    np.s_[1], np.s_[-1], np.s_[1:3], np.s_[::-1], np.s_[::-2, 1:4], np.s_[3:0:-2], np.s_[:, -2],
    np.s_[..., 2], np.s_[1, ..., ::3], np.s_[None, 1], np.s_[:, None, 2:, None], np.s_[-1, -1, -1],
    np.s_[5:], np.s_[:0], np.s_[2:-1:2, ::-1, 4:1:-1],
]
ADVANCED = [
    np.s_[np.array([0, 3, -1])],
    np.s_[:, np.array([4, 0])],
    np.s_[np.array([0, 2]), np.array([1, 3])],
    np.s_[np.array([[0], [2]]), np.array([1, 3])],
    np.s_[np.array([1, 2]), :, np.array([0, 5])],
    np.s_[1, np.array([0, 4]), 1:3],
    np.s_[1:3, np.array([0, 4])],
    np.s_[..., np.array([5, 5, 0])],
    np.s_[[0, 1, 1]],
    np.s_[np.array([True, False, True, True])],
    np.s_[:, np.array([False, True, False, True, False])],
]


@pytest.mark.parametrize("index", BASIC, ids=str)
def test_basic_indexing(check, index):
    check(lambda x: x[index], X)


@pytest.mark.parametrize("index", ADVANCED, ids=str)
def test_integer_array_and_known_mask_indexing(check, index):
    jf = check(lambda x: x[index], X)
    assert "gather" in {i.opcode for i in jf.lower(X).entry_computation}


def test_traced_index_arrays_wrap_negative_indices(check):
    check(lambda x, i: x[i, 1], X, np.array([0, -1, 2], np.int32))
    check(lambda x, i, j: x[:, i, j], X, np.array([0, -1]), np.array([[5], [-6]]))


def test_traced_scalar_index_is_a_dynamic_slice(check):
    jf = check(lambda x, i: x[i, 2:4], X, np.int32(-2))
    assert "dynamic-slice" in {i.opcode for i in jf.lower(X, np.int32(0)).entry_computation}
    check(lambda x, i, j: x[i, :, j], X, np.int64(3), np.int64(1))


def test_loop_counter_indexing(check):
    def f(x):
        return fori_loop(0, x.shape[0], lambda i, acc: acc + x[i] * i, np.zeros((5, 6), np.float32))

    check(f, X)


def test_static_index_errors_like_numpy():
    with pytest.raises(IndexError, match="out of bounds"):
        jit(lambda x: x[4])(X)
    with pytest.raises(IndexError, match="too many indices"):
        jit(lambda x: x[0, 0, 0, 0])(X)
