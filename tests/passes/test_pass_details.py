"""Details of the individual passes that the golden files do not show: names, limits,
side effects inside called computations, passes inside while bodies, and the logs."""

from __future__ import annotations

from pass_helpers import run_pass

from hloscope import parse_hlo
from hloscope.passes.algsimp import AlgebraicSimplifier
from hloscope.passes.call_inliner import CallInliner
from hloscope.passes.constant_folding import ConstantFolding
from hloscope.passes.cse import CommonSubexpressionElimination
from hloscope.passes.dce import DeadCodeElimination
from hloscope.passes.naming import NameUniquer, split_name
from hloscope import optimize
from hloscope.passes.tuple_simplifier import TupleSimplifier


def test_name_uniquer_continues_after_the_highest_number():
    names = NameUniquer(["add.3", "add.7", "multiply", "x"])
    assert names.next("add") == "add.8"
    assert names.next("add") == "add.9"
    assert names.next("tuple") == "tuple.1"
    assert names.next("multiply") == "multiply.1"
    assert "add.9" in names and split_name("fused.computation.12") == ("fused.computation", 12)


def test_name_uniquer_keeps_a_wanted_name_that_is_free_and_renames_one_that_is_taken():
    names = NameUniquer(["add.3", "param_0"])  # the fusion builder's and the module builder's way to ask
    assert names.keep_or_rename("fused_computation") == "fused_computation"
    assert names.keep_or_rename("param_0") == "param_0.1"
    assert names.keep_or_rename("add.3") == "add.4"


EFFECT_IN_CALLEE = """HloModule m

%noisy (a: f32[4]) -> f32[4] {
  %a = f32[4] parameter(0)
  ROOT %p = f32[4] custom-call(%a), custom_call_target="print", custom_call_has_side_effect=true
}

ENTRY %main (x: f32[4]) -> f32[4] {
  %x = f32[4] parameter(0)
  %c1 = f32[4] custom-call(%x), custom_call_target="print", custom_call_has_side_effect=true
  %c2 = f32[4] custom-call(%x), custom_call_target="print", custom_call_has_side_effect=true
  %unused_call = f32[4] call(%x), to_apply=%noisy
  ROOT %n = f32[4] negate(%x)
}
"""


def test_dce_keeps_calls_of_side_effecting_computations():
    after, record = run_pass(DeadCodeElimination(), EFFECT_IN_CALLEE)
    assert not record.changed and "unused_call" in after.entry_computation


def test_cse_never_merges_side_effects():
    _, record = run_pass(CommonSubexpressionElimination(), EFFECT_IN_CALLEE)
    assert not record.changed


ELIDED = """HloModule m

ENTRY %main (x: f32[3]) -> (f32[3], f32[3]) {
  %x = f32[3] parameter(0)
  %a = f32[3] constant({...})
  %b = f32[3] constant({...})
  %na = f32[3] negate(%a)
  %s = f32[3] add(%na, %b)
  ROOT %t = (f32[3], f32[3]) tuple(%s, %x)
}
"""


def test_elided_constants_are_neither_folded_nor_merged():
    assert not run_pass(ConstantFolding(), ELIDED)[1].changed
    assert not run_pass(CommonSubexpressionElimination(), ELIDED)[1].changed


def test_constant_folding_respects_the_size_limit():
    text = """HloModule m

ENTRY %main () -> s32[4] {
  %c = s32[4] constant({1, 2, 3, 4})
  ROOT %n = s32[4] negate(%c)
}
"""
    after, record = run_pass(ConstantFolding(max_elements=3), text)
    assert not record.changed
    assert "4 elements is more than the limit of 3" in str(record.log[0]) and not record.log[0].accepted
    after, record = run_pass(ConstantFolding(), text)
    assert after.entry_computation.root_instruction.literal.value.tolist() == [-1, -2, -3, -4]


WHILE = """HloModule m

%callee (v: f32[4]) -> f32[4] {
  %v = f32[4] parameter(0)
  ROOT %e = f32[4] exponential(%v)
}

%body (t: (s32[], f32[4])) -> (s32[], f32[4]) {
  %t = (s32[], f32[4]) parameter(0)
  %i = s32[] get-tuple-element(%t), index=0
  %one = s32[] constant(1)
  %next = s32[] add(%i, %one)
  %v = f32[4] get-tuple-element(%t), index=1
  %w = f32[4] call(%v), to_apply=%callee
  %packed = (s32[], f32[4]) tuple(%next, %w)
  %v2 = f32[4] get-tuple-element(%packed), index=1
  ROOT %out = (s32[], f32[4]) tuple(%next, %v2)
}

%cond (c: (s32[], f32[4])) -> pred[] {
  %c = (s32[], f32[4]) parameter(0)
  %k = s32[] get-tuple-element(%c), index=0
  %three = s32[] constant(3)
  ROOT %lt = pred[] compare(%k, %three), direction=LT
}

ENTRY %main (x: f32[4]) -> f32[4] {
  %x = f32[4] parameter(0)
  %zero = s32[] constant(0)
  %init = (s32[], f32[4]) tuple(%zero, %x)
  %loop = (s32[], f32[4]) while(%init), condition=%cond, body=%body
  ROOT %r = f32[4] get-tuple-element(%loop), index=1
}
"""


def test_passes_work_inside_while_bodies():
    after, record = run_pass(CallInliner(), WHILE)
    body = after.computation("body")
    assert "w" not in body and not after.has_computation("callee")
    assert record.log[0].computation == "body"
    after, record = run_pass(TupleSimplifier(), after)
    assert after.computation("body")["out"].operands[1].startswith("e.")


def test_simplify_cancels_moved_reshapes():
    text = """HloModule m

ENTRY %main (a: f32[2,4], b: f32[2,4]) -> f32[2,4] {
  %a = f32[2,4] parameter(0)
  %b = f32[2,4] parameter(1)
  %ra = f32[8] reshape(%a)
  %rb = f32[8] reshape(%b)
  %s = f32[8] add(%ra, %rb)
  ROOT %back = f32[2,4] reshape(%s)
}
"""
    result = optimize(parse_hlo(text), "simplify")
    entry = result.module.entry_computation
    assert [i.opcode for i in entry] == ["parameter", "parameter", "add"]


def test_every_decision_names_its_rule_and_computation():
    result = optimize(parse_hlo(WHILE), "simplify")
    decisions = [d for r in result.records for d in r.log]
    assert decisions
    assert all(d.rule and d.computation for d in decisions)


def test_algsimp_decisions_read_like_the_identity():
    text = """HloModule m

ENTRY %main (x: f32[4]) -> f32[4] {
  %x = f32[4] parameter(0)
  %n = f32[4] negate(%x)
  ROOT %nn = f32[4] negate(%n)
}
"""
    _, record = run_pass(AlgebraicSimplifier(), text)
    assert [str(d) for d in record.log] == ["rewrote nn -> x: neg_neg (negate(negate(x)) = x)"]


def test_instructions_written_out_of_order_are_swept_operands_first():
    text = """HloModule m

ENTRY %main (x: f32[4]) -> f32[4] {
  ROOT %n = f32[4] negate(%a)
  %x = f32[4] parameter(0)
  %z = f32[] constant(0)
  %zs = f32[4] broadcast(%z), dimensions={}
  %a = f32[4] add(%x, %zs)
}
"""
    result = optimize(parse_hlo(text), "simplify")
    assert [i.name for i in result.module.entry_computation] == ["x", "n"]
