"""One small module per algsimp rule: the rule fires (by name, in the log), and the module
computes the same values before and after (checked with the evaluator on random inputs).
Then the near misses: modules that look alike but where the identity does not hold."""

from __future__ import annotations

import re

import numpy as np
import pytest
from pass_helpers import run_pass

from hloscope import parse_hlo
from hloscope.evaluator import evaluate
from hloscope.passes.algsimp import AlgebraicSimplifier, default_rules
from hloscope.passes.bisect import flat_outputs, random_arguments


def module(params: str, body: str) -> str:
    """An HLO module whose ENTRY has `params` and whose last body line is the (array) ROOT."""
    params_list = re.findall(r"(\w+): ([^ ]+?)(?=, \w+:|$)", params)
    lines = [f"%{n} = {shape} parameter({i})" for i, (n, shape) in enumerate(params_list)]
    lines += body.strip().splitlines()
    lines[-1] = "ROOT " + lines[-1]
    root_shape = lines[-1].split(" = ", 1)[1].split(" ", 1)[0]
    regions = SUM if "%sum" in body else ""
    entry = f"ENTRY %main ({params}) -> {root_shape} {{\n  " + "\n  ".join(lines) + "\n}\n"
    return "HloModule m\n\n" + regions + entry


SUM = """%sum (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %s = f32[] add(%a, %b)
}

"""

X4 = "x: f32[4]"
CASES = {
    "add_zero": (
        X4,
        "%z = f32[] constant(0)\n%zs = f32[4] broadcast(%z), dimensions={}\n%r = f32[4] add(%zs, %x)",
    ),
    "sub_zero": (X4, "%z = f32[4] constant({0, 0, 0, 0})\n%r = f32[4] subtract(%x, %z)"),
    "mul_one": (
        X4,
        "%o = f32[] constant(1)\n%os = f32[4] broadcast(%o), dimensions={}\n%r = f32[4] multiply(%x, %os)",
    ),
    "mul_zero": (
        "i: s32[4]",
        "%z = s32[] constant(0)\n%zs = s32[4] broadcast(%z), dimensions={}\n%r = s32[4] multiply(%i, %zs)",
    ),
    "div_one": (
        X4,
        "%o = f32[] constant(1)\n%os = f32[4] broadcast(%o), dimensions={}\n%r = f32[4] divide(%x, %os)",
    ),
    "divide_by_constant": (
        X4,
        "%c = f32[] constant(0.125)\n%cs = f32[4] broadcast(%c), dimensions={}\n%r = f32[4] divide(%x, %cs)",
    ),
    "neg_neg": (X4, "%n = f32[4] negate(%x)\n%r = f32[4] negate(%n)"),
    "max_of_lowest": (
        X4,
        "%c = f32[] constant(-inf)\n%cs = f32[4] broadcast(%c), dimensions={}\n%r = f32[4] maximum(%cs, %x)",
    ),
    "min_of_highest": (
        "i: s32[4]",
        "%c = s32[] constant(2147483647)\n%cs = s32[4] broadcast(%c), dimensions={}\n"
        "%r = s32[4] minimum(%i, %cs)",
    ),
    "select_same_branches": ("p: pred[4], x: f32[4]", "%r = f32[4] select(%p, %x, %x)"),
    "select_constant_predicate": (
        "x: f32[4], y: f32[4]",
        "%t = pred[] constant(true)\n"
        "%ts = pred[4] broadcast(%t), dimensions={}\n%r = f32[4] select(%ts, %x, %y)",
    ),
    "compare_same_operands": ("i: s32[4]", "%r = pred[4] compare(%i, %i), direction=LE"),
    "convert_to_same_type": (X4, "%r = f32[4] convert(%x)"),
    "convert_of_convert": ("h: f16[4]", "%w = f32[4] convert(%h)\n%r = f64[4] convert(%w)"),
    "copy_elision": (X4, "%c1 = f32[4] copy(%x)\n%r = f32[4] copy(%c1)"),
    "reshape_to_same_shape": ("x: f32[2,3]", "%r = f32[2,3] reshape(%x)"),
    "reshape_of_reshape": ("x: f32[2,3]", "%a = f32[6] reshape(%x)\n%r = f32[3,2] reshape(%a)"),
    "identity_transpose": ("x: f32[2,3]", "%r = f32[2,3] transpose(%x), dimensions={0,1}"),
    "transpose_of_transpose": (
        "x: f32[2,3,4]",
        "%a = f32[3,4,2] transpose(%x), dimensions={1,2,0}\n"
        "%r = f32[4,2,3] transpose(%a), dimensions={1,2,0}",
    ),
    "identity_broadcast": ("x: f32[2,3]", "%r = f32[2,3] broadcast(%x), dimensions={0,1}"),
    "broadcast_of_broadcast": (
        "x: f32[3]",
        "%a = f32[2,3] broadcast(%x), dimensions={1}\n%r = f32[2,4,3] broadcast(%a), dimensions={0,2}",
    ),
    "full_slice": ("x: f32[4,3]", "%r = f32[4,3] slice(%x), slice={[0:4], [0:3]}"),
    "slice_of_slice": (
        "x: f32[20]",
        "%a = f32[9] slice(%x), slice={[2:19:2]}\n%r = f32[3] slice(%a), slice={[1:8:3]}",
    ),
    "concatenate_of_one_operand": ("x: f32[4]", "%r = f32[4] concatenate(%x), dimensions={0}"),
    "pad_with_zero_padding": (
        "x: f32[4,2]",
        "%z = f32[] constant(0)\n%r = f32[4,2] pad(%x, %z), padding=0_0x0_0",
    ),
    "reverse_of_reverse": (
        "x: f32[4,3]",
        "%a = f32[4,3] reverse(%x), dimensions={0,1}\n%r = f32[4,3] reverse(%a), dimensions={1,0}",
    ),
    "reduce_over_no_dimensions": (
        "x: f32[4,1]",
        "%z = f32[] constant(0)\n%r = f32[4] reduce(%x, %z), dimensions={1}, to_apply=%sum",
    ),
    "dot_with_size_one_contracting": (
        "a: f32[5,1], b: f32[1,3]",
        "%r = f32[5,3] dot(%a, %b), lhs_contracting_dims={1}, rhs_contracting_dims={0}",
    ),
}

# Look-alikes where the identity is false, or not exact: no rule may fire.
NEAR_MISSES = {
    "float_times_zero": (
        X4,
        "%z = f32[] constant(0)\n%zs = f32[4] broadcast(%z), dimensions={}\n%r = f32[4] multiply(%x, %zs)",
    ),
    "divide_by_three": (
        X4,
        "%c = f32[] constant(3)\n%cs = f32[4] broadcast(%c), dimensions={}\n%r = f32[4] divide(%x, %cs)",
    ),
    "float_compare_self": (X4, "%r = pred[4] compare(%x, %x), direction=EQ"),
    "lossy_convert_chain": (X4, "%h = f16[4] convert(%x)\n%r = f32[4] convert(%h)"),
    "reduce_with_nonzero_init": (
        "x: f32[4,1]",
        "%one = f32[] constant(1)\n%r = f32[4] reduce(%x, %one), dimensions={1}, to_apply=%sum",
    ),
    "dot_contracting_two": (
        "a: f32[5,2], b: f32[2,3]",
        "%r = f32[5,3] dot(%a, %b), lhs_contracting_dims={1}, rhs_contracting_dims={0}",
    ),
    "mixed_constant_not_one": (X4, "%c = f32[4] constant({1, 1, 2, 1})\n%r = f32[4] multiply(%x, %c)"),
    "partial_slice": ("x: f32[4,3]", "%r = f32[4,2] slice(%x), slice={[0:4], [1:3]}"),
    "reverse_other_dims": (
        "x: f32[4,3]",
        "%a = f32[4,3] reverse(%x), dimensions={0}\n%r = f32[4,3] reverse(%a), dimensions={1}",
    ),
}


def _same_values(before, after, seed: int = 1) -> None:
    args = random_arguments(before, seed)
    for got, want in zip(flat_outputs(evaluate(after, *args)), flat_outputs(evaluate(before, *args))):
        np.testing.assert_array_equal(got, want)


def test_every_rule_has_a_case():
    rules = {r.__name__ for rs in default_rules().values() for r in rs}
    assert rules == set(CASES)


@pytest.mark.parametrize("rule", sorted(CASES))
def test_rule_fires_and_keeps_values(rule):
    before = parse_hlo(module(*CASES[rule]))
    after, record = run_pass(AlgebraicSimplifier(), before)
    fired = [d.rule for d in record.log if d.accepted]
    assert rule in fired, [str(d) for d in record.log]
    assert any(rule in line for line in (str(d) for d in record.log))
    assert record.changed
    _same_values(before, after)


@pytest.mark.parametrize("case", sorted(NEAR_MISSES))
def test_near_miss_is_left_alone(case):
    before = parse_hlo(module(*NEAR_MISSES[case]))
    after, record = run_pass(AlgebraicSimplifier(), before)
    assert not record.changed, [str(d) for d in record.log]


def test_disabled_rule_does_not_fire():
    before = parse_hlo(module(*CASES["neg_neg"]))
    _, record = run_pass(AlgebraicSimplifier(disabled=("neg_neg",)), before)
    assert not record.changed


def test_rule_on_a_rule_result_in_the_same_sweep():
    # reshape(reshape(x)) to x's own shape: reshape_of_reshape, then reshape_to_same_shape on its result.
    before = parse_hlo(module("x: f32[2,3]", "%a = f32[6] reshape(%x)\n%r = f32[2,3] reshape(%a)"))
    after, record = run_pass(AlgebraicSimplifier(), before)
    assert after.entry_computation.root == "x"
    assert [d.rule for d in record.log] == ["reshape_of_reshape"]
