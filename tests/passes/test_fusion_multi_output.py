"""Multi-output fusion: siblings share a read, a shared producer becomes an extra output,
and cycles or different iteration spaces are refused with the reason logged."""

from __future__ import annotations

from pass_helpers import GOLDEN, run_pass

from hloscope.passes.fusion import InstructionFusion, MultiOutputFusion

MOF = GOLDEN / "multi_output_fusion"


def rules(record) -> dict[str, list]:
    out: dict[str, list] = {}
    for d in record.log:
        out.setdefault(d.rule, []).append(d)
    return out


def test_softmax_exp_becomes_an_extra_output_of_the_sum():
    after, record = run_pass(MultiOutputFusion(), (MOF / "softmax.before.hlo").read_text())
    [fused] = rules(record)["producer_consumer"]
    assert (fused.subject, fused.target) == ("subtract_exponential_fusion", "rowsum")
    fusion = after.entry_computation["exponential_reduce_fusion"]
    assert fusion.attr("kind") == "kInput" and fusion.shape.is_tuple
    comp = after.computation(fusion.attr("calls"))
    assert comp.root_instruction.opcode == "tuple"
    users = [after.entry_computation[u] for u in after.entry_computation.users(fusion.name)]
    assert sorted(u.attr("index") for u in users) == [0, 1]
    assert all(u.opcode == "get-tuple-element" for u in users)


def test_cycles_are_refused_with_the_path():
    _, record = run_pass(MultiOutputFusion(), (MOF / "softmax.before.hlo").read_text())
    cycles = rules(record)["cycle"]
    assert any(d.subject == "broadcast_divide_fusion" and "depends on rowsum" in d.reason for d in cycles)
    assert all(not d.accepted for d in cycles)


def test_layernorm_mean_and_variance_cannot_share_a_loop():
    after, record = run_pass(MultiOutputFusion(), (MOF / "layernorm_cycle.before.hlo").read_text())
    assert not record.changed
    assert {d.rule for d in record.log} == {"cycle"}


def test_sibling_reductions_read_their_input_once():
    after, record = run_pass(MultiOutputFusion(), (MOF / "row_stats.before.hlo").read_text())
    merged = rules(record)["sibling"]
    assert {d.subject for d in merged} == {"max", "min"}
    [mismatch] = rules(record)["shape_mismatch"]
    assert mismatch.subject == "total" and "different dimensions" in mismatch.reason
    fusion = after.entry_computation["reduce_reduce_fusion"]
    assert len(fusion.shape.elements) == 3
    assert set(after.entry_computation.users("x")) == {"reduce_reduce_fusion", "total"}


def test_operand_limit_and_different_shapes_are_refused():
    text = """HloModule m

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

ENTRY main {
  x = f32[8,16] parameter(0)
  z = f32[] constant(0)
  r = f32[8] reduce(x, z), dimensions={1}, to_apply=add
  n = f32[8,16] negate(x)
  c = f32[] constant(2)
  cb = f32[8,16] broadcast(c), dimensions={}
  m = f32[8,16] multiply(n, cb)
  y = f32[16] reduce(x, z), dimensions={0}, to_apply=add
  ROOT t = (f32[8], f32[8,16], f32[16]) tuple(r, m, y)
}
"""
    fused, _ = run_pass(InstructionFusion(), text)
    after, record = run_pass(MultiOutputFusion(), fused)
    found = rules(record)
    assert "sibling" in found  # the row reduce and the loop over x share one read of x
    assert any(d.subject == "y" for d in found["shape_mismatch"])
    _, limited = run_pass(MultiOutputFusion(max_operands=1), fused)
    assert "too_many_operands" in rules(limited)


def test_running_again_changes_nothing():
    after, _ = run_pass(MultiOutputFusion(), (MOF / "row_stats.before.hlo").read_text())
    again, record = run_pass(MultiOutputFusion(), after)
    assert again is after and not record.changed
