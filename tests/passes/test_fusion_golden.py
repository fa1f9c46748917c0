"""Golden before/after HLO for fusion, multi-output fusion and the memory scheduler.

Each tests/passes/golden/<pass>/<case>.before.hlo runs through that one pass; the printed
module must equal <case>.after.hlo exactly and the decision log <case>.log (the same layout
as test_golden.py uses for the simplification passes). The module after the pass must also
compute the same values as before. HLOSCOPE_UPDATE_GOLDEN=1 rewrites the files.
"""

from __future__ import annotations

import numpy as np
import pytest
from pass_helpers import GOLDEN, check_golden, run_pass

from hloscope.evaluator import evaluate
from hloscope.passes.bisect import flat_outputs
from hloscope.passes.fusion import InstructionFusion, MultiOutputFusion
from hloscope.passes.scheduler import MemoryScheduler

PASSES = {p.name: p for p in (InstructionFusion, MultiOutputFusion, MemoryScheduler)}
CASES = [case for name in PASSES for case in sorted((GOLDEN / name).glob("*.before.hlo"))]


def random_args(module, seed: int = 0) -> list[np.ndarray]:
    """Positive inputs (log, rsqrt stay finite) of the entry's parameter shapes."""
    rng = np.random.default_rng(seed)
    return [(rng.random(p.shape.dims) + 0.5).astype(p.shape.numpy_dtype) for p in module.entry_computation.parameters]


def test_every_pass_has_three_golden_cases():
    for name in PASSES:
        assert len(list((GOLDEN / name).glob("*.before.hlo"))) >= 3, name


@pytest.mark.parametrize("before", CASES, ids=lambda p: f"{p.parent.name}/{p.name.split('.')[0]}")
def test_golden(before):
    after, record = run_pass(PASSES[before.parent.name](), before.read_text())
    stem = before.name[: -len(".before.hlo")]
    check_golden(before.with_name(stem + ".after.hlo"), after.to_text())
    check_golden(before.with_name(stem + ".log"), "".join(f"{d}\n" for d in record.log))
    args = random_args(record.before)
    want, got = flat_outputs(evaluate(record.before, *args)), flat_outputs(evaluate(after, *args))
    for w, g in zip(want, got, strict=True):
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-6)
