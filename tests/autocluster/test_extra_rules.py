"""The rules of frontend/rules/extras.py against numpy: values, shapes and dtypes, with NaN
and infinities where numpy gives them meaning (logaddexp of two infinities, fmax ignoring a
NaN, nanmax of an all-NaN row)."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import hloscope
from hloscope.errors import UnsupportedError

X = np.array([[1.0, -2.0, 3.0], [0.5, np.nan, np.inf], [-np.inf, 0.0, 2.0]], dtype=np.float32)
Y = np.array([[1.0, np.inf, -3.0], [0.5, 2.0, np.inf], [-np.inf, np.nan, -np.inf]], dtype=np.float32)
FINITE = np.array([[1.5, -2.0, 3.0], [0.5, -4.0, 0.0], [2.0, 1.0, -1.0]], dtype=np.float32)
INTS = np.array([[1, -2, 3], [4, 0, 6]], dtype=np.int32)
ALL_NAN_ROW = np.array([[np.nan, np.nan], [1.0, np.nan]], dtype=np.float64)


def same_as_numpy(f, *args):
    got = hloscope.jit(f)(*args)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numpy warns on all-NaN slices; the values are what count
        want = f(*args)
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape and got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_allclose(got, want, rtol=1e-5, equal_nan=True)


@pytest.mark.parametrize("f", [np.logaddexp, np.logaddexp2, np.fmax, np.fmin, np.heaviside],
                         ids=lambda f: f.__name__)
def test_binary_with_nan_and_inf(f):
    same_as_numpy(f, X, Y)


def test_logaddexp_of_equal_infinities_stays_infinite():
    inf = np.array([np.inf, -np.inf, np.inf], dtype=np.float64)
    same_as_numpy(np.logaddexp, inf, np.array([np.inf, -np.inf, -np.inf]))


@pytest.mark.parametrize("f", [np.deg2rad, np.rad2deg, np.nan_to_num, np.nansum], ids=lambda f: f.__name__)
def test_unary(f):
    same_as_numpy(f, X)


def test_nan_to_num_with_replacements_and_integers():
    same_as_numpy(lambda a: np.nan_to_num(a, nan=-1.0, posinf=9.0, neginf=-9.0), X)
    same_as_numpy(np.nan_to_num, INTS)


@pytest.mark.parametrize("axis", [None, 0, 1])
def test_nan_reductions(axis):
    same_as_numpy(lambda a: np.nanmax(a, axis=axis), ALL_NAN_ROW)
    same_as_numpy(lambda a: np.nanmin(a, axis=axis), ALL_NAN_ROW)
    same_as_numpy(lambda a: np.ptp(a, axis=axis), INTS)


@pytest.mark.parametrize("order", [None, 1, -1, 2, np.inf, -np.inf, 0, 3, 0.5])
def test_vector_norms(order):
    same_as_numpy(lambda a: np.linalg.norm(a, ord=order, axis=1), FINITE)
    same_as_numpy(lambda a: np.linalg.norm(a, ord=order, axis=-2, keepdims=True), FINITE)


@pytest.mark.parametrize("order", [None, "fro", 1, -1, np.inf, -np.inf])
def test_matrix_norms(order):
    same_as_numpy(lambda a: np.linalg.norm(a, ord=order), FINITE)
    same_as_numpy(lambda a: np.linalg.norm(a, ord=order, axis=(1, 0), keepdims=True), FINITE)


def test_norm_of_integers_is_float64_and_nan_propagates():
    same_as_numpy(np.linalg.norm, INTS)
    keep: dict[str, Any] = {"keepdims": True}
    same_as_numpy(lambda a: np.linalg.norm(a, **keep), INTS)
    same_as_numpy(lambda a: np.linalg.norm(a, axis=1), X)


def test_norm_that_needs_an_svd_is_refused_by_name():
    with pytest.raises(UnsupportedError, match="norm with ord='nuc'"):
        hloscope.jit(lambda a: np.linalg.norm(a, ord="nuc")).lower(FINITE)
