"""Every case's gradient (hloscope.grad, float32, compiled natively) against jax.grad of the
same code written with jax.numpy, in float32."""

from __future__ import annotations

import numpy as np
import pytest
from autodiff_cases import CASES, NUMPY, jax_namespace

import hloscope

jax = pytest.importorskip("jax")

pytestmark = [pytest.mark.jax, pytest.mark.large]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_grad_matches_jax(case):
    args = case.args_as(np.float32)
    got = hloscope.grad(case.make(NUMPY), argnums=case.argnums)(*args)
    want = jax.grad(case.make(jax_namespace()), argnums=case.argnums)(*args)
    for g, w, i in zip(got, want, case.argnums):
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype == np.float32 and g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=2e-4, atol=2e-5, err_msg=f"{case.name}: d/d argument {i}")
