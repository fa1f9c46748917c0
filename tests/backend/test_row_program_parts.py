"""The parts of a row program (hloscope/backend/cpu/rows/), one at a time: the forms of values,
the splits reductions mean, the fused ops, and where a result overwriting its own operand is
written."""

from __future__ import annotations

import pytest

import hloscope
from hloscope.backend.buffers import ArrayStorage
from hloscope.backend.cpu.fast.rows.drafts import Draft, Value
from hloscope.backend.cpu.fast.rows.forms import COL, FULL, ROW, SCALAR, Split, infer_forms, reduce_split
from hloscope.backend.cpu.fast.rows.fuse import fuse
from hloscope.backend.cpu.fast.rows.storage import build_program
from hloscope.backend.cpu.fast.rows.translate import Member, Translator
from hloscope.ir.shape import ArrayShape

pytestmark = pytest.mark.hosts  # results that depend on the vector width and FMA (tests/hosts.py)

ADD = "add_f32 {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT c = f32[] add(a, b)\n}\n"


def computation(body: str):
    lines = [line.strip() for line in body.strip().splitlines()]
    lines[-1] = "ROOT " + lines[-1]
    return hloscope.parse_hlo(f"HloModule m\n{ADD}\nENTRY e {{\n  " + "\n  ".join(lines) + "\n}\n").entry_computation


def test_reduce_split_is_rows_of_the_minor_dimensions():
    shape = ArrayShape("f32", (4, 6, 8, 10))
    assert reduce_split(shape, [3]) == Split(192, 10)
    assert reduce_split(shape, [2, 3]) == Split(24, 80)
    assert reduce_split(shape, [1]) is None  # a middle dimension: not a row
    assert reduce_split(ArrayShape("f32", (4, 1, 10)), [2]) == Split(4, 10)  # size-1 dimensions aside


def test_forms_follow_broadcast_dimensions_even_when_rows_and_width_are_equal():
    comp = computation("""
        x = f32[128,128] parameter(0)
        g = f32[128] parameter(1)
        s = f32[128] parameter(2)
        gb = f32[128,128] broadcast(g), dimensions={1}
        sb = f32[128,128] broadcast(s), dimensions={0}
        y = f32[128,128] add(x, gb)
        z = f32[128,128] multiply(y, sb)
    """)
    forms = infer_forms(comp, Split(128, 128), {})
    assert forms is not None
    assert (forms["x"], forms["g"], forms["s"], forms["z"]) == (FULL, COL, ROW, FULL)


def test_a_result_is_a_rows_so_arrays_of_a_rows_size_are_row_values():
    """R = N: [128] could be a row value or a column vector, but a result is written a row at a
    time, so an elementwise op's operands are row values too (layer norm's rsqrt fusion)."""
    comp = computation("""
        g = f32[128] parameter(0)
        s = f32[128] parameter(1)
        z = f32[128] add(g, s)
    """)
    assert infer_forms(comp, Split(128, 128), {}) == {"g": ROW, "s": ROW, "z": ROW}
    assert infer_forms(comp, Split(128, 128), {0: COL}) is None  # a column vector added to a row value


def test_known_forms_of_parameters_decide():
    comp = computation("""
        s = f32[64] parameter(0)
        c = f32[] constant(2)
        cb = f32[64] broadcast(c), dimensions={}
        z = f32[64] multiply(s, cb)
    """)
    assert infer_forms(comp, Split(64, 64), {0: ROW}) == {"s": ROW, "c": SCALAR, "cb": ROW, "z": ROW}
    assert infer_forms(comp, Split(64, 64), {0: COL}) is None  # a result must be a row's


def test_a_transposing_broadcast_has_no_form():
    comp = computation("""
        t = f32[16,32] parameter(0)
        y = f32[32,16,8] broadcast(t), dimensions={1,0}
    """)
    assert infer_forms(comp, Split(512, 8), {}) is None


def _values(*specs) -> list[Value]:
    return [Value(vector, moves) for vector, moves in specs]


def test_softmax_and_variance_patterns_fuse_and_others_do_not():
    values = _values((True, True), (False, True), (True, True), (True, True), (False, False), (False, True),
                     (True, True), (False, True))
    x, m, d, e, zero, s, p, v = range(8)
    drafts = [Draft("binary", "subtract", (d,), (x, m)), Draft("unary", "exponential", (e,), (d,)),
              Draft("reduce", "add", (s,), (e, zero)), Draft("binary", "multiply", (p,), (e, e)),
              Draft("reduce", "add", (v,), (p, zero))]
    fused = fuse(drafts, values)
    assert [(f.kind, f.op, f.outs, f.ins) for f in fused] == [
        ("fused", "exp-minus-and-sum", (e, s), (x, m, zero)), ("fused", "sum-of-products", (v,), (e, e, zero))]
    # the difference read twice: it must stay
    again = drafts + [Draft("binary", "add", (7,), (d, d))]
    values.append(Value(True, True))
    assert [f.kind for f in fuse(again, values)][:3] == ["binary", "unary", "reduce"]


def test_a_result_over_its_own_operand_is_written_after_the_last_read():
    """A two-result instruction whose first result the memory plan put over its operand: the
    row is copied out once the sum has read it."""
    comp = hloscope.parse_hlo(f"""HloModule m
{ADD}
ENTRY e {{
  p = f32[64,128] parameter(0)
  two = f32[] constant(2)
  tb = f32[64,128] broadcast(two), dimensions={{}}
  d = f32[64,128] multiply(p, tb)
  zero = f32[] constant(0)
  s = f32[64] reduce(p, zero), dimensions={{1}}, to_apply=add_f32
  ROOT t = (f32[64,128], f32[64]) tuple(d, s)
}}
""").entry_computation
    shape, rows = ArrayShape("f32", (64, 128)), ArrayShape("f32", (64,))
    inp = ArrayStorage("arena", 0, shape.byte_size, "p", shape)
    over = ArrayStorage("arena", 0, shape.byte_size, "t", shape)  # the same bytes: written in place
    sums = ArrayStorage("arena", 65536, rows.byte_size, "t", rows)
    split = Split(64, 128)
    forms = infer_forms(comp, split, {})
    assert forms is not None
    member = Member(comp.root_instruction, comp, [inp], [over, sums], forms, {"s": "add"})
    t = Translator("f32", split, [inp, sums], set(), defer_outputs=False)
    t.member(member, 0)
    program = build_program("f32", split, fuse(t.drafts, t.values), t.values, t.constants, row_buffers=1)
    assert program is not None
    kinds = [op.kind for op in program.ops]
    assert kinds.index("reduce") < kinds.index("copy")
    out = program.slots[program.ops[kinds.index("copy")].outs[0]]
    assert out.where == 0 and out.vector  # the copy writes the input's own row


@pytest.mark.parametrize("width,fits", [(1024, True), (65536, False)])
def test_scratch_bound(width, fits):
    values = _values((True, True), (True, True), (True, True))
    x, e, y = range(3)
    values[y].home = values[x].home = None
    from hloscope.backend.cpu.fast.rows.program import Slot
    values[x].home = Slot(0, 0, width * 4, width, True, "x")
    values[y].home = Slot(1, 0, width * 4, width, True, "y")
    drafts = [Draft("unary", "exponential", (e,), (x,)), Draft("binary", "add", (y,), (e, x))]
    program = build_program("f32", Split(8, width), drafts, values, [], row_buffers=2)
    assert (program is not None) == fits
