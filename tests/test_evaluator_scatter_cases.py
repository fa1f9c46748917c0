"""The evaluator against JAX's own outputs for the scatter family as models emit it:
take_along_axis (gather with batching dims) and its gradient (scatter with batching dims),
scatter-max with repeated indices, and max-pool gradients (select-and-scatter, ties
included, overlapping windows included)."""

import sys
from pathlib import Path

import numpy as np
import pytest

import hloscope

sys.path.insert(0, str(Path(__file__).resolve().parent / "scatter_cases"))
from cases import NAMES, load  # noqa: E402


def test_every_case_is_recorded():
    assert {"take_along_axis", "lm_loss_grad", "batched_scatter_add", "scatter_max_repeats", "max_pool_step",
            "overlapping_pool_grad"} <= set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_evaluator_matches_jax(name):
    text, args, want = load(name)
    got = hloscope.evaluate(hloscope.parse_hlo(text), *args)
    got = list(got) if isinstance(got, tuple) else [got]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype
        np.testing.assert_allclose(g, w, rtol=2e-6, atol=1e-6)


@pytest.mark.parametrize("name", NAMES)
def test_printed_text_keeps_the_dimension_numbers(name):
    """Printing and parsing again keeps batching dims, windows and computations: the printed
    module gives JAX's outputs too."""
    text, args, want = load(name)
    printed = hloscope.parse_hlo(text).to_text()
    assert ("operand_batching_dims" in text) == ("operand_batching_dims" in printed)
    assert ("input_batching_dims" in text) == ("input_batching_dims" in printed)
    got = hloscope.evaluate(hloscope.parse_hlo(printed), *args)
    for g, w in zip(list(got) if isinstance(got, tuple) else [got], want):
        np.testing.assert_allclose(g, w, rtol=2e-6, atol=1e-6)
