"""`optimize` (the record of a pipeline run) and `bisect` (which pass changed the result)."""

from __future__ import annotations

import numpy as np
import pytest
from pass_helpers import corpus_case

from hloscope import parse_hlo
from hloscope.errors import HloVerifierError
from hloscope.ir.attributes import Literal
from hloscope.passes.bisect import bisect, random_arguments
from hloscope import optimize
from hloscope.passes.pipeline import HloPass
from hloscope.passes.pipelines import pipelines

TEXT = """HloModule m

ENTRY %main (x: f32[4], y: f32[4]) -> f32[4] {
  %x = f32[4] parameter(0)
  %y = f32[4] parameter(1)
  %one = f32[] constant(1)
  %ones = f32[4] broadcast(%one), dimensions={}
  %a = f32[4] multiply(%x, %ones)
  %b = f32[4] add(%a, %y)
  ROOT %c = f32[4] exponential(%b)
}
"""


class SkewConstants(HloPass):
    """A wrong pass: adds 1 to every scalar float constant."""

    name = "skew-constants"

    def run(self, module, log):
        entry = module.entry_computation
        insts = [
            i.replace(literal=Literal(np.asarray(i.literal.value + 1, np.float32)))
            if i.opcode == "constant" and i.shape.rank == 0
            else i
            for i in entry
        ]
        log.add("rewrote", "constants", "off by one on purpose")
        return module.with_computation(entry.replace(instructions=insts))


def test_optimize_returns_module_records_and_summary():
    module = parse_hlo(TEXT)
    result = optimize(module, "simplify")
    assert result.input is module and result.module is not module
    assert result.module.instruction_count() < module.instruction_count()
    assert result.records and result.seconds > 0
    assert result.record("algsimp").changed
    summary = result.summary()
    for name in ("pass", "algsimp", "dce", "reshape-mover", "instructions"):
        assert name in summary
    page = result._repr_html_()
    assert "<table" in page and "Passes" in page and "reshape-mover" in page


def test_optimize_never_changes_the_input():
    module = parse_hlo(TEXT)
    text = module.to_text()
    optimize(module, "simplify")
    assert module.to_text() == text


def test_optimize_accepts_a_pipeline_object_and_none():
    module = parse_hlo(TEXT)
    assert optimize(module, "none").module is module
    p = pipelines["simplify"].without("algsimp")
    assert "algsimp" not in [r.name for r in optimize(module, p).records]


def test_invalid_input_is_blamed_on_the_input():
    broken = TEXT.replace("%c = f32[4] exponential", "%c = f32[5] exponential").replace(
        "-> f32[4] {", "-> f32[5] {"
    )
    with pytest.raises(HloVerifierError, match="input module is invalid"):
        optimize(parse_hlo(broken), "simplify")


def test_default_pipeline_has_memory_plan():
    result = optimize(parse_hlo(TEXT))
    assert result.memory_plan is not None
    assert result.module.is_scheduled


def test_bisect_finds_no_culprit_in_a_correct_pipeline():
    result = bisect(parse_hlo(TEXT), pipeline="simplify")
    assert not result and result.pass_name is None
    assert str(result).startswith("No pass changes the result")


def test_bisect_names_the_wrong_pass():
    p = pipelines["simplify"].inserted(SkewConstants(), after="call-inliner")
    result = bisect(parse_hlo(TEXT), pipeline=p)
    assert result.pass_name == "skew-constants"
    assert result.max_abs_error > 0.1
    assert "skew-constants" in str(result)


def test_bisect_with_given_arguments():
    module, args, _, _ = corpus_case("softmax")
    result = bisect(module, *args, pipeline="simplify")
    assert not result and result.checked >= 1


def test_random_arguments_are_seeded_and_shaped():
    module = parse_hlo(TEXT)
    a, b = random_arguments(module, 3), random_arguments(module, 3)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert [x.shape for x in a] == [(4,), (4,)] and a[0].dtype == np.float32
