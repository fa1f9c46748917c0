"""The recorded scatter-family cases (tests/scatter_cases) compiled for the CPU: against the
evaluator and against JAX's outputs. Batched gathers and scatters (take_along_axis and its
gradient) and select-and-scatter (max-pool's gradient) all run as native code."""

import sys
from pathlib import Path

import numpy as np
import pytest

from backend_helpers import check_against_evaluator

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scatter_cases"))
from cases import NAMES, load  # noqa: E402


@pytest.mark.parametrize("name", NAMES)
def test_cpu_matches_evaluator_and_jax(name):
    text, args, want = load(name)
    exe = check_against_evaluator(text, args, rtol=2e-6, atol=1e-6)
    got = exe(*args)
    got = list(got) if isinstance(got, tuple) else [got]
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=2e-6, atol=1e-6)
