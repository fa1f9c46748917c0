"""Every case's gradient (hloscope.grad, float64, compiled natively) against central finite
differences of the same function run eagerly by numpy in float64."""

from __future__ import annotations

import numpy as np
import pytest
from autodiff_cases import CASES, NUMPY, finite_differences

import hloscope


def test_the_set_is_large_enough():
    assert len(CASES) >= 40


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_grad_matches_finite_differences(case):
    f = case.make(NUMPY)
    args = case.args_as(np.float64)
    grads = hloscope.grad(f, argnums=case.argnums)(*args)
    for g, i in zip(grads, case.argnums):
        g = np.asarray(g)
        assert g.dtype == np.float64 and g.shape == np.shape(args[i])
        np.testing.assert_allclose(g, finite_differences(f, args, i), rtol=1e-5, atol=1e-6,
                                   err_msg=f"{case.name}: d/d argument {i}")
