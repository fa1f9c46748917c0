"""Every pass keeps the meaning: for every corpus case, the module after EVERY pass record
evaluates to the outputs XLA recorded, within the case's tolerance."""

from __future__ import annotations

import numpy as np
import pytest
from pass_helpers import corpus_case, corpus_cases

from hloscope.evaluator import evaluate
from hloscope.passes.bisect import flat_outputs
from hloscope.passes.dce import DeadCodeElimination
from hloscope.passes.fusion import InstructionFusion, MultiOutputFusion
from hloscope import optimize
from hloscope.passes.pipelines import pipelines

PIPELINES = ["simplify", "fused", "default"]


def _pipeline(name: str):
    """A registry name, or "fused": simplify plus fusion, without the scheduler."""
    if name != "fused":
        return name
    p = pipelines["simplify"]
    p.passes += [InstructionFusion(), MultiOutputFusion(), DeadCodeElimination()]
    return p


@pytest.mark.parametrize("pipeline", PIPELINES)
@pytest.mark.parametrize("name", sorted(corpus_cases()))
def test_every_pass_record_keeps_the_outputs(name, pipeline):
    module, args, outs, case = corpus_case(name)
    result = optimize(module, _pipeline(pipeline))
    seen: set[int] = set()
    for record in [None, *result.records]:
        snapshot = module if record is None else record.after
        if id(snapshot) in seen:
            continue  # an unchanged pass hands back the very same module
        seen.add(id(snapshot))
        got = flat_outputs(evaluate(snapshot, *args))
        where = (
            "the input"
            if record is None
            else f"{record.pipeline}/{record.name} (iteration {record.iteration})"
        )
        assert len(got) == len(outs), where
        for i, (g, want) in enumerate(zip(got, outs)):
            np.testing.assert_allclose(
                g, want, rtol=case["rtol"], atol=case["atol"], err_msg=f"{name}: output {i} after {where}"
            )
