"""Notebook 12's exercise checks (hloscope.teaching.training_step): `...` is not answered yet,
a right answer gets ✓, and each likely mistake gets a ✗ line that names it without giving the
answer."""

from __future__ import annotations

import re

import numpy as np
from autodiff_view_steps import mlp_arguments, mlp_loss, mlp_step

import hloscope
from hloscope.memory.saved_activations import saved_activations, saved_bytes
from hloscope.memory.training_parts import classify, part_counts
from hloscope.teaching.training_step import (check_mixed_fusions, check_part_counts, check_saved_bytes,
                                             check_w2_gradient)


def verdict(capsys, check, *args) -> str:
    """The one line `check(*args)` prints."""
    check(*args)
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def wrong(capsys, match: str, secrets: list[str], check, *args) -> None:
    line = verdict(capsys, check, *args)
    assert line.startswith("\u2717 ") and re.search(match, line), line
    for secret in secrets:
        assert not re.search(rf"\b{re.escape(secret)}\b", line), (secret, line)


def test_part_counts(capsys):
    module = hloscope.jit(mlp_step).lower(*mlp_arguments())
    right = part_counts(module)
    assert verdict(capsys, check_part_counts, module, ...).endswith("not answered yet")
    assert verdict(capsys, check_part_counts, module, right) == "\u2713 forward / backward / other instructions"
    secrets = [str(right["forward"]), str(right["backward"])]
    naive = {"forward": right["forward"] + right["backward"], "backward": 0, "other": right["other"]}
    wrong(capsys, r"test for `transpose\(` first", secrets, check_part_counts, module, naive)
    wrong(capsys, "add up to", secrets, check_part_counts, module, {**right, "other": right["other"] + 1})
    swapped = {**right, "forward": right["backward"], "backward": right["forward"]}
    wrong(capsys, "the forward and backward counts are not right", secrets, check_part_counts, module, swapped)


def test_mixed_fusions(mlp_report, capsys):
    parts = classify(mlp_report.module)
    mixed = {n for n, p in parts.items() if p.mixed}
    assert mixed  # the MLP's loss gradient fuses with the end of its forward pass
    assert verdict(capsys, check_mixed_fusions, mlp_report, ...).endswith("not answered yet")
    assert verdict(capsys, check_mixed_fusions, mlp_report, sorted(mixed)).startswith("\u2713")
    wrong(capsys, "not fusions", [], check_mixed_fusions, mlp_report, sorted(mixed | {"dot.1"}))
    mostly_backward = {n for n, p in parts.items() if p.counts and p.part == "backward"}
    assert mostly_backward != mixed
    wrong(capsys, "mostly backward", sorted(mixed - mostly_backward), check_mixed_fusions, mlp_report, mostly_backward)
    wrong(capsys, "some are missing", sorted(mixed), check_mixed_fusions, mlp_report, [])


def test_saved_bytes(mlp_report, capsys):
    found = saved_activations(mlp_report.module, mlp_report.memory_plan)
    right = saved_bytes(found)
    assert verdict(capsys, check_saved_bytes, mlp_report, ...).endswith("not answered yet")
    assert verdict(capsys, check_saved_bytes, mlp_report, right).startswith("\u2713")
    secrets = [str(right), f"{right:,}"]
    wrong(capsys, "how many values", secrets, check_saved_bytes, mlp_report, len(found))
    parameters = sum(b.size for b in mlp_report.memory_plan.buffers if b.kind == "parameter")
    wrong(capsys, "not activations", secrets, check_saved_bytes, mlp_report, right + parameters)


def test_w2_gradient_against_hloscope_grad(capsys):
    (w1, b1, w2, b2), x, y = mlp_arguments()
    h = np.tanh(x @ w1 + b1)
    out = h @ w2 + b2
    by_hand = h.T @ (2 * (out - y) / out.size)
    traced = hloscope.jit(hloscope.grad(mlp_loss))((w1, b1, w2, b2), x, y)[2]
    np.testing.assert_allclose(by_hand, traced, rtol=1e-4, atol=1e-6)  # the check's answer is the grad's
    assert verdict(capsys, check_w2_gradient, ..., h, out, y).endswith("not answered yet")
    assert verdict(capsys, check_w2_gradient, by_hand, h, out, y).startswith("\u2713")
    secrets = ["h.T @", str(out.size)]
    wrong(capsys, "parameter's shape", secrets, check_w2_gradient, by_hand.T, h, out, y)
    wrong(capsys, "factor 0.5", secrets, check_w2_gradient, by_hand / 2, h, out, y)
    wrong(capsys, "values are not right", secrets, check_w2_gradient, by_hand + 1.0, h, out, y)
