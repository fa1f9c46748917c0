"""Fixtures: the MLP step's compilation record and GPT-2's step planned by hloscope."""

from __future__ import annotations

import pytest
from autodiff_view_steps import MODELS, mlp_arguments, mlp_step

import hloscope
from hloscope.ir.parser import parse_hlo
from hloscope.memory import plan_memory


@pytest.fixture(scope="module")
def mlp_report():
    """The compilation record of the MLP's training step (optimized module and its plan)."""
    return hloscope.jit(mlp_step).compile(*mlp_arguments()).report


@pytest.fixture(scope="module")
def gpt2_step():
    """GPT-2's training step after XLA's passes, planned by hloscope."""
    module = parse_hlo((MODELS / "gpt2_train_step.opt.hlo").read_text())
    return module, plan_memory(module)
