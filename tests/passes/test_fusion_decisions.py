"""Fusion decisions: every accepted and rejected producer/consumer pair is logged with the
rule that decided it, and the result is what that rule promises."""

from __future__ import annotations

from pass_helpers import GOLDEN, run_pass

from hloscope.passes.fusion import InstructionFusion

SOFTMAX = (GOLDEN / "fusion" / "softmax.before.hlo").read_text()


def decision(record, subject: str, target: str):
    """The logged decision about fusing `subject` into `target` (exactly one)."""
    found = [d for d in record.log if d.subject == subject and d.target == target]
    assert len(found) == 1, (subject, target, [str(d) for d in record.log])
    return found[0]


def fused_ops(module, fusion: str) -> list[str]:
    comp = module.computation(module.entry_computation[fusion].attr("calls"))
    return [i.opcode for i in comp if i.opcode != "parameter"]


def test_softmax_decisions_and_reasons():
    _, record = run_pass(InstructionFusion(), SOFTMAX)
    ok = decision(record, "shifted", "e")
    assert ok.accepted and ok.rule == "loop_fusion"
    assert str(ok) == "fused shifted into e: loop fusion, elementwise producer with one user"
    shared = decision(record, "e", "out")
    assert not shared.accepted and shared.rule == "expensive_duplicate"
    assert shared.reason == "2 users, expensive (exponential), would be duplicated"
    assert decision(record, "rowsum", "out").rule == "reduce_producer"
    assert decision(record, "zero", "rowsum").rule == "lonely_constant"
    assert decision(record, "x", "e").rule == "parameter"
    created = [d.subject for d in record.log if d.action == "created"]
    assert created == ["broadcast_divide_fusion", "subtract_exponential_fusion"]


def test_cheap_broadcast_of_a_scalar_is_duplicated_into_each_consumer():
    after, record = run_pass(InstructionFusion(), (GOLDEN / "fusion" / "expensive_two_users.before.hlo").read_text())
    dup = decision(record, "halfb", "b")
    assert dup.accepted and dup.rule == "duplicate_cheap" and "1 other user keeps the original" in dup.reason
    assert decision(record, "halfb", "a").rule == "loop_fusion"  # the last user takes the original
    for fusion in ("broadcast_add_fusion", "broadcast_multiply_fusion"):
        assert fused_ops(after, fusion)[:2] == ["constant", "broadcast"]
    assert after.entry_computation["e"].opcode == "exponential"  # expensive: kept, computed once


HEAD = "HloModule m\n\nENTRY main {\n"


def fuse(body: str, **options):
    return run_pass(InstructionFusion(**options), HEAD + body + "}\n")


def test_non_scalar_constant_stays_a_buffer():
    _, record = fuse("  c = f32[4] constant({1, 2, 3, 4})\n  x = f32[4] parameter(0)\n  ROOT y = f32[4] add(x, c)\n")
    assert decision(record, "c", "y").rule == "large_constant"


def test_operand_limit():
    params = "".join(f"  p{i} = f32[8] parameter({i})\n" for i in range(6))
    adds = "  a1 = f32[8] add(p0, p1)\n" + "".join(f"  a{i} = f32[8] add(a{i - 1}, p{i})\n" for i in range(2, 6))
    _, record = fuse(params + adds.replace("  a5 =", "  ROOT a5 ="), max_operands=4)
    limited = [d for d in record.log if d.rule == "too_many_operands"]
    assert limited and "limit 4" in limited[0].reason
    after, record = fuse(params + adds.replace("  a5 =", "  ROOT a5 ="))
    assert len(after.entry_computation) == 7  # 6 parameters and one fusion


def test_matrix_matrix_dot_stays_unfused_but_its_bias_add_fuses():
    after, record = run_pass(InstructionFusion(), (GOLDEN / "fusion" / "dot_bias.before.hlo").read_text())
    assert decision(record, "d", "y").rule == "producer_not_fusible"
    assert "library call" in decision(record, "d", "y").reason
    assert after.entry_computation["d"].opcode == "dot"
    assert decision(record, "x", "d").rule in ("parameter", "consumer_not_fusible")


def test_matrix_vector_dot_is_output_fused():
    after, record = run_pass(InstructionFusion(), (GOLDEN / "fusion" / "matvec_bias.before.hlo").read_text())
    assert decision(record, "d", "y").rule == "output_fusion"
    root = after.entry_computation.root_instruction
    assert (root.name, root.attr("kind")) == ("dot_add_fusion", "kOutput")


def test_consumers_that_cannot_head_a_fusion():
    body = ('  x = f32[8] parameter(0)\n  n = f32[8] negate(x)\n'
            '  ROOT c = f32[8] custom-call(n), custom_call_target="foo"\n')
    _, record = fuse(body)
    assert decision(record, "n", "c").rule == "consumer_not_fusible"


def test_reduce_over_a_major_dimension_keeps_its_input_unfused():
    region = "add {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT s = f32[] add(a, b)\n}\n\n"
    text = ("HloModule m\n\n" + region + "ENTRY main {\n  x = f32[4,8] parameter(0)\n  n = f32[4,8] negate(x)\n"
            "  z = f32[] constant(0)\n  ROOT r = f32[8] reduce(n, z), dimensions={0}, to_apply=add\n}\n")
    _, record = run_pass(InstructionFusion(), text)
    assert decision(record, "n", "r").rule == "major_reduce"


def test_expensive_producer_is_not_recomputed_under_a_broadcast():
    body = ("  x = f32[8] parameter(0)\n  z = f32[8,16] parameter(1)\n  e = f32[8] exponential(x)\n"
            "  b = f32[8,16] broadcast(e), dimensions={0}\n  ROOT y = f32[8,16] add(b, z)\n")
    _, record = fuse(body)
    assert decision(record, "b", "y").accepted
    assert decision(record, "e", "y").rule == "recompute"


def test_wide_concatenate_is_not_fused():
    params = "".join(f"  p{i} = f32[2] parameter({i})\n" for i in range(9))
    body = params + f"  c = f32[18] concatenate({', '.join(f'p{i}' for i in range(9))}), dimensions={{0}}\n"
    _, record = fuse(body + "  ROOT n = f32[18] negate(c)\n")
    assert decision(record, "c", "n").rule == "big_concatenate"


def test_names_are_unique_like_xla():
    body = ("  x = f32[8] parameter(0)\n  c = f32[] constant(2)\n  b1 = f32[8] broadcast(c), dimensions={}\n"
            "  a1 = f32[8] add(x, b1)\n  d = f32[] constant(3)\n  b2 = f32[8] broadcast(d), dimensions={}\n"
            "  a2 = f32[8] add(x, b2)\n  ROOT t = (f32[8], f32[8]) tuple(a1, a2)\n")
    after, _ = fuse(body)
    fusions = [i for i in after.entry_computation if i.opcode == "fusion"]
    assert [f.name for f in fusions] == ["broadcast_add_fusion.1", "broadcast_add_fusion"]
    params = [p.name for f in fusions for p in after.computation(f.attr("calls")).parameters]
    assert params == ["param_0.1", "param_0"]  # numbered in the order the fusions were made


def test_fusion_is_idempotent_and_merges_fusions():
    after, _ = run_pass(InstructionFusion(), SOFTMAX)
    again, record = run_pass(InstructionFusion(), after)
    assert not record.changed and again is after
    two = (HEAD.replace("ENTRY", "f1 {\n  p = f32[8] parameter(0)\n  ROOT n = f32[8] negate(p)\n}\n\n"
                        "f2 {\n  q = f32[8] parameter(0)\n  ROOT e = f32[8] exponential(q)\n}\n\nENTRY")
           + "  x = f32[8] parameter(0)\n  a = f32[8] fusion(x), kind=kLoop, calls=f1\n"
           "  ROOT b = f32[8] fusion(a), kind=kLoop, calls=f2\n}\n")
    merged, record = run_pass(InstructionFusion(), two)
    assert decision(record, "a", "b").rule == "merge_fusions"
    assert fused_ops(merged, "b") == ["negate", "exponential"]
    assert not merged.has_computation("f1") and not merged.has_computation("f2")


def test_while_bodies_are_fused_and_reducers_left_alone():
    text = """HloModule w

cond {
  s = (s32[], f32[8]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(3)
  ROOT lt = pred[] compare(i, n), direction=LT
}

body {
  s = (s32[], f32[8]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  one = s32[] constant(1)
  j = s32[] add(i, one)
  v = f32[8] get-tuple-element(s), index=1
  h = f32[] constant(0.5)
  hb = f32[8] broadcast(h), dimensions={}
  w = f32[8] multiply(v, hb)
  ROOT t = (s32[], f32[8]) tuple(j, w)
}

ENTRY main {
  x = f32[8] parameter(0)
  z = s32[] constant(0)
  t = (s32[], f32[8]) tuple(z, x)
  ROOT r = (s32[], f32[8]) while(t), condition=cond, body=body
}
"""
    after, record = run_pass(InstructionFusion(), text)
    assert "broadcast_multiply_fusion" in after.computation("body")
    assert {d.computation for d in record.log if d.accepted} == {"body"}


COLUMN_SUM_OF_EXP = """  x = f32[64,32] parameter(0)
  e = f32[64,32] exponential(x)
  z = f32[] constant(0)
  ROOT s = f32[32] reduce(e, z), dimensions={0}, to_apply=add
}

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
"""


def test_column_reduction_input_fuses_only_under_the_gpu_rule():
    """XLA:CPU keeps the input of a reduction over a major dimension unfused (a CPU loop
    would stride through it); XLA:GPU fuses it, its column kernel reads it coalesced."""
    _, record = fuse(COLUMN_SUM_OF_EXP)
    assert decision(record, "e", "s").rule == "major_reduce"
    after, record = fuse(COLUMN_SUM_OF_EXP, fuse_major_reductions=True)
    assert decision(record, "e", "s").accepted
    assert fused_ops(after, after.entry_computation.root) == ["exponential", "constant", "reduce"]
