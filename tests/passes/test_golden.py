"""Golden before/after HLO for every target-independent pass.

Each tests/passes/golden/<pass>/<case>.before.hlo is run through that one pass; the printed
result must equal <case>.after.hlo exactly, and the decision log must equal <case>.log.
"""

from __future__ import annotations

import pytest
from pass_helpers import GOLDEN, check_golden, run_pass

from hloscope.passes.algsimp import AlgebraicSimplifier
from hloscope.passes.batchnorm_expander import BatchNormExpander
from hloscope.passes.call_inliner import CallInliner
from hloscope.passes.constant_folding import ConstantFolding
from hloscope.passes.cse import CommonSubexpressionElimination
from hloscope.passes.dce import DeadCodeElimination
from hloscope.passes.layout_normalization import LayoutNormalization
from hloscope.passes.reshape_mover import ReshapeMover
from hloscope.passes.tuple_simplifier import TupleSimplifier

PASSES = {
    p.name: p
    for p in (
        AlgebraicSimplifier,
        BatchNormExpander,
        CallInliner,
        ConstantFolding,
        CommonSubexpressionElimination,
        DeadCodeElimination,
        LayoutNormalization,
        ReshapeMover,
        TupleSimplifier,
    )
}
CASES = sorted(p for name in PASSES for p in (GOLDEN / name).glob("*.before.hlo"))


def test_every_pass_has_golden_cases():
    for name in PASSES:
        assert len(list((GOLDEN / name).glob("*.before.hlo"))) >= 3, name


@pytest.mark.parametrize("before", CASES, ids=lambda p: f"{p.parent.name}/{p.name.split('.')[0]}")
def test_golden(before):
    pass_class = PASSES[before.parent.name]
    after, record = run_pass(pass_class(), before.read_text())
    stem = before.name[: -len(".before.hlo")]
    check_golden(before.with_name(stem + ".after.hlo"), after.to_text())
    check_golden(before.with_name(stem + ".log"), "".join(f"{d}\n" for d in record.log))
    assert record.changed == (after is not record.before)
