"""The verifier: each class of mistake is caught, and the message says where and what.

Mistakes the parser already rejects (unknown operand, duplicate name, unknown opcode) are
made by editing a parsed module directly, as a buggy pass would.
"""

import time
from pathlib import Path

import numpy as np
import pytest

from hloscope.errors import HloVerifierError
from hloscope.ir.attributes import Literal, ProgramShape
from hloscope.ir.builder import ModuleBuilder
from hloscope.ir.instruction import Instruction
from hloscope.ir.parser import parse_hlo
from hloscope.ir.shape import array
from hloscope.ir.verifier import module_errors, verify_module

CORPUS = Path(__file__).parent / "corpus"

GOOD = """HloModule good

%region_0.1 (a.1: f32[], b.1: f32[]) -> f32[] {
  %a.1 = f32[] parameter(0)
  %b.1 = f32[] parameter(1)
  ROOT %add.1 = f32[] add(%a.1, %b.1)
}

ENTRY %main.3 (x.1: f32[2], y.1: f32[2]) -> f32[] {
  %x.1 = f32[2]{0} parameter(0)
  %y.1 = f32[2]{0} parameter(1)
  %add.5 = f32[2]{0} add(%x.1, %y.1)
  %lt.1 = pred[2]{0} compare(%add.5, %y.1), direction=LT
  %sel.1 = f32[2]{0} select(%lt.1, %add.5, %y.1)
  %zero.1 = f32[] constant(0)
  ROOT %sum.1 = f32[] reduce(%sel.1, %zero.1), dimensions={0}, to_apply=%region_0.1
}
"""


@pytest.fixture
def good():
    return parse_hlo(GOOD)


def edit(module, comp_name, inst_name, **changes):
    """The module with one instruction replaced (changes as for Instruction.replace)."""
    comp = module.computation(comp_name)
    insts = [i.replace(**changes) if i.name == inst_name else i for i in comp.instructions]
    return module.with_computation(comp.replace(instructions=insts))


def insert(module, comp_name, inst, before=None):
    comp = module.computation(comp_name)
    insts = list(comp.instructions)
    insts.insert(len(insts) - 1 if before is None else before, inst)
    return module.with_computation(comp.replace(instructions=insts))


def error_of(module) -> HloVerifierError:
    with pytest.raises(HloVerifierError) as info:
        verify_module(module)
    return info.value


def expect(module, message, computation="main.3", instruction=None):
    err = error_of(module)
    assert message in str(err), str(err)
    assert err.computation == computation
    assert err.instruction == instruction
    prefix = f"in computation {computation}" + (
        f", instruction {instruction}" if instruction else ""
    )
    assert str(err).startswith(prefix), str(err)
    return err


def test_good_module_verifies(good):
    verify_module(good)
    assert good.verify() is good
    assert list(module_errors(good)) == []


@pytest.mark.parametrize("path", sorted(CORPUS.glob("*.hlo")), ids=lambda p: p.name)
def test_corpus_verifies(path):
    verify_module(parse_hlo(path.read_text()))


def test_wrong_declared_shape(good):
    bad = edit(good, "main.3", "add.5", shape=array("f32", 3))
    # Its users now see an f32[3] operand too; the first error is the add itself.
    expect(bad, "declared shape f32[3] but inferred f32[2]", instruction="add.5")


def test_operand_shapes_differ(good):
    bad = edit(good, "main.3", "y.1", shape=array("f32", 3))
    expect(bad, "operand shapes f32[2] and f32[3] differ", instruction="add.5")


def test_bad_operand_count(good):
    bad = edit(good, "main.3", "add.5", operands=("x.1", "y.1", "y.1"))
    expect(bad, "add takes 2 operands, got 3", instruction="add.5")


def test_reduce_needs_even_operand_count(good):
    bad = edit(good, "main.3", "sum.1", operands=("sel.1", "zero.1", "zero.1"))
    expect(bad, "reduce takes an even number", instruction="sum.1")


def test_missing_operand(good):
    bad = edit(good, "main.3", "add.5", operands=("x.1", "nothing.7"))
    expect(bad, "operand nothing.7 does not exist in computation main.3", instruction="add.5")


def test_duplicate_name(good):
    dup = Instruction("add.5", "negate", array("f32", 2), ("x.1",))
    expect(
        insert(good, "main.3", dup),
        "instruction name add.5 is used more than once",
        instruction="add.5",
    )


def test_cycle(good):
    bad = edit(good, "main.3", "add.5", operands=("x.1", "sel.1"))
    expect(
        bad,
        "cycle through operands or control-predecessors (each depends on the next): add.5 -> sel.1 -> lt.1 -> add.5",
        instruction="add.5",
    )


def test_cycle_through_control_predecessors(good):
    bad = edit(good, "main.3", "x.1", attrs={"control-predecessors": ("add.5",)})
    err = expect(bad, "cycle through operands or control-predecessors", instruction="x.1")
    assert "x.1 -> add.5 -> x.1" in str(err)


def test_missing_control_predecessor(good):
    bad = edit(good, "main.3", "add.5", attrs={"control-predecessors": ("ghost.1",)})
    expect(bad, "operand ghost.1 does not exist", instruction="add.5")


def test_parameter_number_gap(good):
    expect(
        edit(good, "main.3", "y.1", parameter_number=2),
        "parameter numbers [0, 2] are not 0..1 (missing [1])",
    )


def test_parameter_number_twice(good):
    bad = edit(good, "main.3", "y.1", parameter_number=0)
    expect(bad, "parameter number 0 is used by both x.1 and y.1", instruction="y.1")


def test_missing_computation(good):
    bad = edit(good, "main.3", "sum.1", attrs={"dimensions": (0,), "to_apply": "region_9.9"})
    expect(bad, "called computation region_9.9 does not exist", instruction="sum.1")


def test_wrong_reducer_signature(good):
    text = GOOD.replace("(a.1: f32[], b.1: f32[])", "(a.1: s32[], b.1: s32[])")
    text = text.replace("f32[] parameter(0)", "s32[] parameter(0)").replace(
        "f32[] parameter(1)", "s32[] parameter(1)"
    )
    text = text.replace("ROOT %add.1 = f32[]", "ROOT %add.1 = s32[]").replace(
        "-> f32[] {\n  %a", "-> s32[] {\n  %a"
    )
    expect(
        parse_hlo(text),
        "reducer region_0.1 parameter 0 is s32[], expected f32[]",
        instruction="sum.1",
    )


def test_bad_compare_direction(good):
    bad = edit(good, "main.3", "lt.1", attrs={"direction": "LTE"})
    expect(bad, "compare direction LTE is not one of EQ, NE, GE, GT, LE, LT", instruction="lt.1")


def test_transpose_not_a_permutation(good):
    t = Instruction("transpose.1", "transpose", array("f32", 2), ("x.1",), {"dimensions": (1,)})
    expect(
        insert(good, "main.3", t),
        "transpose dimensions [1] are not a permutation of 0..0",
        instruction="transpose.1",
    )


def test_unknown_opcode(good):
    bad = edit(good, "main.3", "add.5", opcode="plus")
    expect(bad, "unknown opcode plus", instruction="add.5")


def test_bad_fusion_kind():
    text = GOOD.replace(
        "ROOT %sum.1 = f32[] reduce(%sel.1, %zero.1), dimensions={0}, to_apply=%region_0.1",
        "ROOT %sum.1 = f32[] fusion(%zero.1, %zero.1), kind=kLoop, calls=%region_0.1",
    )
    module = parse_hlo(text)
    verify_module(module)
    bad = edit(module, "main.3", "sum.1", attrs={"kind": "kSideways", "calls": "region_0.1"})
    expect(bad, "fusion kind kSideways is not one of kLoop", instruction="sum.1")


def test_fusion_operands_must_match_parameters():
    text = GOOD.replace(
        "ROOT %sum.1 = f32[] reduce(%sel.1, %zero.1), dimensions={0}, to_apply=%region_0.1",
        "ROOT %sum.1 = f32[] fusion(%zero.1, %sel.1), kind=kLoop, calls=%region_0.1",
    )
    expect(
        parse_hlo(text),
        "fused computation region_0.1 parameter 1 is f32[], expected f32[2]",
        instruction="sum.1",
    )


def test_constant_value_must_match_shape(good):
    bad = edit(good, "main.3", "zero.1", literal=Literal(np.zeros(3, np.float32)))
    expect(bad, "constant value is float32[3], but the shape is f32[]", instruction="zero.1")


def test_missing_root(good):
    comp = good.computation("main.3").replace(root="nowhere.1")
    expect(good.with_computation(comp), "root nowhere.1 is not an instruction of the computation")


def test_missing_entry(good):
    err = error_of(good.replace(entry="main.9"))
    assert "entry computation main.9 does not exist" in str(err)


def test_recursive_computations(good):
    region = good.computation("region_0.1")
    call = Instruction("call.1", "call", array("f32"), ("a.1",), {"to_apply": "region_0.1"})
    bad = good.with_computation(region.replace(instructions=region.instructions + (call,)))
    err = error_of(bad)
    assert "computations call themselves: region_0.1 -> region_0.1" in str(err)


def test_while_signature():
    mb = ModuleBuilder("loop")
    with mb.computation("cond") as cb:
        cb.parameter(array("f32", 3))
        cond = cb.build(cb.constant(True))
    with mb.computation("body") as cb:
        body = cb.build(cb.negate(cb.parameter(array("f32", 3))))
    with mb.computation("main") as cb:
        loop = cb.while_loop(cond, body, cb.parameter(array("f32", 3)))
        main = cb.build(loop)
    module = mb.build(main)
    bad = edit(module, "main", loop.name, attrs={"condition": "body", "body": "body"})
    expect(
        bad,
        "while condition body returns f32[3], expected pred[]",
        computation="main",
        instruction=loop.name,
    )


def test_entry_layout_must_match(good):
    layout = ProgramShape((array("f32", 2), array("f32", 2)), array("f32", 1))
    err = error_of(good.replace(attrs={"entry_computation_layout": layout}))
    assert "entry_computation_layout (f32[2], f32[2]) -> f32[1] does not match the entry" in str(
        err
    )


def test_module_errors_lists_every_problem(good):
    bad = edit(good, "main.3", "lt.1", attrs={"direction": "LTE"})
    bad = edit(bad, "main.3", "add.5", opcode="plus")
    found = [(e.instruction, str(e)) for e in module_errors(bad)]
    assert [name for name, _ in found] == ["add.5", "lt.1"]


def test_linear_time_on_a_large_module():
    mb = ModuleBuilder("big")
    with mb.computation("main") as cb:
        x = cb.parameter(array("f32", 16))
        y = x
        for i in range(20_000):
            y = cb.add(y, x) if i % 2 else cb.multiply(y, x)
        main = cb.build(y)
    module = mb.build(main, verify=False)
    start = time.perf_counter()
    verify_module(module)
    assert time.perf_counter() - start < 5.0
