"""Fixtures for the visualisation tests (helpers live in viz_helpers.py)."""

from __future__ import annotations

import pytest
from viz_helpers import StandInBuffer, StandInPlan, corpus_module


@pytest.fixture
def small_plan() -> StandInPlan:
    buffers = [
        StandInBuffer("p0", None, 64, 0, 3, "parameter"),
        StandInBuffer("a", 0, 128, 1, 2),
        StandInBuffer("b", 128, 64, 2, 3),
        StandInBuffer("out", 0, 64, 3, 3, "output"),
        StandInBuffer("c", None, 4, 1, 1, "constant"),
    ]
    return StandInPlan(buffers, peak_bytes=192, naive_bytes=256, schedule=["p0", "a", "b", "out"])


@pytest.fixture
def softmax_opt():
    return corpus_module("softmax.opt")
