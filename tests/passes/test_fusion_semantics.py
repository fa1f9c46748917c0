"""Fusion keeps the meaning: every corpus case (JAX's HLO and XLA's optimized HLO) evaluates
to the recorded outputs after fusion, multi-output fusion and scheduling, each step verified."""

from __future__ import annotations

import numpy as np
import pytest
from pass_helpers import CORPUS, corpus_case, corpus_cases

from hloscope import parse_hlo
from hloscope.evaluator import evaluate
from hloscope.memory import plan_memory
from hloscope.passes.bisect import flat_outputs
from hloscope.passes.fusion import InstructionFusion, MultiOutputFusion
from hloscope.passes.pipeline import Pipeline
from hloscope.passes.scheduler import MemoryScheduler


def fused_pipeline() -> Pipeline:
    return Pipeline("fuse-and-schedule", [InstructionFusion(), MultiOutputFusion(), MemoryScheduler()])


@pytest.mark.parametrize("variant", ["hlo", "opt_hlo"])
@pytest.mark.parametrize("name", sorted(corpus_cases()))
def test_fusion_keeps_the_outputs(name, variant):
    module, args, outs, case = corpus_case(name)
    if variant == "opt_hlo":
        module = parse_hlo((CORPUS / case["files"]["opt_hlo"]).read_text())
    records = []
    after = fused_pipeline().run(module, records)
    assert after.is_scheduled
    got = flat_outputs(evaluate(after, *args))
    assert len(got) == len(outs)
    for g, want in zip(got, outs):
        np.testing.assert_allclose(g, want, rtol=case["rtol"], atol=case["atol"])
    plan = plan_memory(after)
    assert plan.peak_bytes <= plan.naive_bytes


@pytest.mark.parametrize("name", ["softmax", "layernorm", "gelu_mlp", "unary_chain", "row_reductions"])
def test_fusion_reduces_kernels_and_memory(name):
    module, *_ = corpus_case(name)
    after = fused_pipeline().run(module)
    assert len(after.entry_computation) < len(module.entry_computation)
    assert any(i.opcode == "fusion" for i in after.entry_computation)
    assert plan_memory(after).naive_bytes < plan_memory(module).naive_bytes
