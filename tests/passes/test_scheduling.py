"""The memory scheduler: a valid order, never more memory than the given order, less where
the order matters, and the module marked scheduled."""

from __future__ import annotations

import random

import pytest
from pass_helpers import GOLDEN, corpus_case, corpus_cases, run_pass

from hloscope import parse_hlo
from hloscope.passes.fusion import InstructionFusion
from hloscope.passes.pipeline import Pipeline
from hloscope.passes.scheduler import MemoryScheduler, peak_bytes

ORDER_MATTERS = (GOLDEN / "hlo-memory-scheduler" / "order_matters.before.hlo").read_text()


def assert_topological(comp) -> None:
    seen: set[str] = set()
    for inst in comp:
        missing = [o for o in (*inst.operands, *inst.attrs.get("control-predecessors", ())) if o not in seen]
        assert not missing, f"{inst.name} runs before {missing}"
        seen.add(inst.name)


def test_order_matters_case_gets_better():
    before = parse_hlo(ORDER_MATTERS)
    after, record = run_pass(MemoryScheduler(), before)
    comp = after.entry_computation
    assert_topological(comp)
    old = peak_bytes(before.entry_computation, [i.name for i in before.entry_computation])
    new = peak_bytes(comp, [i.name for i in comp])
    assert new < old
    assert [i.name for i in comp].index("ra") < [i.name for i in comp].index("b")  # ra frees a first
    summary = record.log[-1]
    assert summary.subject == "main" and f"{old:,} -> {new:,}" in summary.reason


def test_module_is_marked_scheduled_and_rerun_is_a_no_op():
    after, _ = run_pass(MemoryScheduler(), ORDER_MATTERS)
    assert after.is_scheduled and after.to_text().startswith("HloModule order_matters, is_scheduled=true")
    again, record = run_pass(MemoryScheduler(), after)
    assert again is after and not record.changed


@pytest.mark.parametrize("name", sorted(corpus_cases()))
def test_corpus_schedules_are_valid_and_never_worse(name):
    module, *_ = corpus_case(name)
    fused = Pipeline("f", [InstructionFusion()]).run(module)
    for m in (module, fused):
        after, _ = run_pass(MemoryScheduler(), m)
        for comp in after.computations:
            assert_topological(comp)
        entry, old = after.entry_computation, m.entry_computation
        assert peak_bytes(entry, [i.name for i in entry], after) <= peak_bytes(old, [i.name for i in old.post_order()], m)


def test_fused_computations_keep_their_order():
    fused = Pipeline("f", [InstructionFusion()]).run(parse_hlo((GOLDEN / "fusion" / "gelu_chain.before.hlo").read_text()))
    after, _ = run_pass(MemoryScheduler(), fused)
    name = after.entry_computation.root_instruction.attr("calls")
    assert after.computation(name) is fused.computation(name)


def test_shuffled_written_order_and_control_dependencies_are_respected():
    lines = ORDER_MATTERS.splitlines()
    body = [line for line in lines[lines.index("ENTRY main {") + 1:-1]]
    random.Random(3).shuffle(body)
    text = "\n".join(lines[: lines.index("ENTRY main {") + 1] + body + ["}"]).replace(
        "  c = f32[1024] tanh(p)", "  c = f32[1024] tanh(p), control-predecessors={rb}")
    after, _ = run_pass(MemoryScheduler(), text)
    names = [i.name for i in after.entry_computation]
    assert_topological(after.entry_computation)
    assert names.index("rb") < names.index("c")
