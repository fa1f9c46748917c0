"""Notebook 12's exercise checks (hloscope.teaching.training_step): a right answer passes, and
each likely mistake fails with the hint that names it."""

from __future__ import annotations

import numpy as np
import pytest
from autodiff_view_steps import mlp_arguments, mlp_loss, mlp_step

import hloscope
from hloscope.memory.saved_activations import saved_activations, saved_bytes
from hloscope.memory.training_parts import classify, part_counts
from hloscope.teaching import CheckFailed
from hloscope.teaching.training_step import (check_mixed_fusions, check_part_counts, check_saved_bytes,
                                             check_w2_gradient)


def test_part_counts(capsys):
    module = hloscope.jit(mlp_step).lower(*mlp_arguments())
    right = part_counts(module)
    check_part_counts(module, right)
    assert "forward / backward / other instructions" in capsys.readouterr().out
    naive = {"forward": right["forward"] + right["backward"], "backward": 0, "other": right["other"]}
    with pytest.raises(CheckFailed, match="test for `transpose\\(` first"):
        check_part_counts(module, naive)
    with pytest.raises(CheckFailed, match="add up to"):
        check_part_counts(module, {**right, "other": right["other"] + 1})


def test_mixed_fusions(mlp_report):
    parts = classify(mlp_report.module)
    mixed = {n for n, p in parts.items() if p.mixed}
    assert mixed  # the MLP's loss gradient fuses with the end of its forward pass
    check_mixed_fusions(mlp_report, sorted(mixed))
    with pytest.raises(CheckFailed, match="not fusions"):
        check_mixed_fusions(mlp_report, sorted(mixed | {"dot.1"}))
    mostly_backward = {n for n, p in parts.items() if p.counts and p.part == "backward"}
    assert mostly_backward != mixed
    with pytest.raises(CheckFailed, match="mostly backward"):
        check_mixed_fusions(mlp_report, mostly_backward)


def test_saved_bytes(mlp_report):
    found = saved_activations(mlp_report.module, mlp_report.memory_plan)
    check_saved_bytes(mlp_report, saved_bytes(found))
    with pytest.raises(CheckFailed, match="how many values"):
        check_saved_bytes(mlp_report, len(found))
    parameters = sum(b.size for b in mlp_report.memory_plan.buffers if b.kind == "parameter")
    with pytest.raises(CheckFailed, match="not activations"):
        check_saved_bytes(mlp_report, saved_bytes(found) + parameters)


def test_w2_gradient_against_hloscope_grad():
    (w1, b1, w2, b2), x, y = mlp_arguments()
    h = np.tanh(x @ w1 + b1)
    out = h @ w2 + b2
    by_hand = h.T @ (2 * (out - y) / out.size)
    traced = hloscope.jit(hloscope.grad(mlp_loss))((w1, b1, w2, b2), x, y)[2]
    np.testing.assert_allclose(by_hand, traced, rtol=1e-4, atol=1e-6)  # the check's answer is the grad's
    check_w2_gradient(by_hand, h, out, y)
    with pytest.raises(CheckFailed, match="parameter's shape"):
        check_w2_gradient(by_hand.T, h, out, y)
    with pytest.raises(CheckFailed, match="factor 0.5"):
        check_w2_gradient(by_hand / 2, h, out, y)
