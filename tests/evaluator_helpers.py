"""Shared by the evaluator tests: run a one-computation module, compare exactly."""

import numpy as np

from hloscope.evaluator import evaluate
from hloscope.ir.parser import parse_hlo


def run(body, *args, extra=""):
    """Evaluate `body` as the ENTRY of a module (with computations `extra` before it)."""
    return evaluate(parse_hlo(f"HloModule m\n{extra}\nENTRY e {{\n{body}\n}}\n"), *args)


def check(got, want):
    """Same dtype, same shape, same values (NaNs included)."""
    want = np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)
