"""convolution in the evaluator against JAX (lax.conv_general_dilated on XLA:CPU).

The cases were recorded by tests/conv_cases/generate.py: XLA's own HLO text for each call,
its inputs and JAX's output, so this test runs without JAX.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from hloscope.evaluator import evaluate
from hloscope.ir.parser import parse_hlo

CASES = Path(__file__).parent / "conv_cases"
NAMES = sorted(p.stem for p in CASES.glob("*.hlo"))


def load_case(name: str):
    """(module, [lhs, rhs] in the parameters' types, JAX's output)."""
    module = parse_hlo((CASES / f"{name}.hlo").read_text())
    data = np.load(CASES / f"{name}.npz")
    params = [i for i in module.entry_computation.instructions if i.opcode == "parameter"]
    params.sort(key=lambda i: i.parameter_number)
    args = [data[k].astype(p.array_shape.numpy_dtype) for k, p in zip(("lhs", "rhs"), params)]
    return module, args, data["out"]


def tolerance(want: np.ndarray) -> dict:
    return {"rtol": 0, "atol": 0} if want.dtype.kind in "iu" else {"rtol": 2e-5, "atol": 2e-5}


def test_the_cases_are_recorded():
    assert len(NAMES) >= 17, NAMES


@pytest.mark.parametrize("name", NAMES)
def test_convolution_matches_jax(name):
    module, args, want = load_case(name)
    got = np.asarray(evaluate(module, *args))
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), **tolerance(want))
