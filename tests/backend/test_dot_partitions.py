"""A BLAS dot split across threads splits the wider side of C: its rows when C is tall, its
columns when C is wide (each partition's gemm then packs only its share of B). Every split,
with either operand stored transposed and with a batch, computes the product numpy does."""

from __future__ import annotations

import numpy as np
import pytest

import hloscope

pytestmark = pytest.mark.hosts  # results that depend on the vector width and FMA (tests/hosts.py)

SHAPES = [(3, 5, 70), (16, 32, 300), (300, 16, 20), (5, 7, 2), (64, 64, 65)]


def _product(a, b, lhs_t: bool, rhs_t: bool):
    return (np.swapaxes(a, -1, -2) if lhs_t else a) @ (np.swapaxes(b, -1, -2) if rhs_t else b)


@pytest.mark.parametrize("m,k,n", SHAPES)
@pytest.mark.parametrize("lhs_t,rhs_t", [(False, False), (True, False), (False, True), (True, True)])
@pytest.mark.parametrize("batch", [(), (3,)])
def test_every_split_of_a_blas_dot_computes_the_product(m, k, n, lhs_t, rhs_t, batch):
    rng = np.random.default_rng(m * 100 + n)
    a = rng.standard_normal((*batch, *((k, m) if lhs_t else (m, k)))).astype(np.float32)
    b = rng.standard_normal((*batch, *((n, k) if rhs_t else (k, n)))).astype(np.float32)
    f = hloscope.jit(lambda a, b: _product(a, b, lhs_t, rhs_t), parallel_min_elements=1)
    want = _product(a.astype(np.float64), b.astype(np.float64), lhs_t, rhs_t)
    np.testing.assert_allclose(f(a, b), want, rtol=1e-5, atol=1e-5 * np.abs(want).max())


@pytest.mark.parametrize("m,n,side", [(16, 300, "columns"), (300, 20, "rows")])
def test_the_wider_side_of_c_is_split(m, n, side):
    a, b = np.ones((m, 8), np.float32), np.ones((8, n), np.float32)
    kernels = hloscope.jit(lambda a, b: a @ b, threads=2, parallel_min_elements=1).compile(a, b).report.kernels
    dot = next(k for k in kernels if k.kind == "dot-blas")
    assert dot.partitions > 1 and dot.extent == max(m, n)
    assert f"{side} split across" in dot.notes[0]
