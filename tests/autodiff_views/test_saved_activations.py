"""Activations saved for the backward pass, checked against a brute-force reading of the
memory plan's live ranges."""

from __future__ import annotations

from autodiff_view_steps import MODELS

from hloscope.ir.parser import parse_hlo
from hloscope.memory import plan_memory
from hloscope.memory.saved_activations import saved_activations, saved_bytes
from hloscope.memory.training_parts import classify


def _read(inst) -> list[str]:
    """What an instruction reads: its operands, but a get-tuple-element only its element."""
    return [inst.name] if inst.opcode == "get-tuple-element" else list(inst.operands)


def brute_force(module, plan) -> dict[tuple[str, str], tuple[int, set[str]]]:
    """(buffer, value) -> (bytes, backward readers): each value a buffer holds is readable from
    the position after its definition to the next value's, which reads it as it overwrites it
    (or to the buffer's end); it is saved when a backward instruction in that interval reads
    the buffer."""
    parts = classify(module)
    comp = module.entry_computation
    at = {name: i for i, name in enumerate(plan.schedule)}
    out: dict[tuple[str, str], tuple[int, set[str]]] = {}
    for b in plan.buffers:
        if b.offset is None:
            continue
        values = list(b.values)
        for k, v in enumerate(values):
            if parts[v].part != "forward":
                continue
            last = at[values[k + 1]] if k + 1 < len(values) else b.end  # the next one overwrites it in place
            readers = {plan.schedule[p] for p in range(at[v] + 1, last + 1)
                       if parts[plan.schedule[p]].part == "backward"
                       and any(plan.by_instruction(o) is b for o in _read(comp[plan.schedule[p]]))}
            if readers:
                out[(b.label, v)] = (b.size, readers)
    return out


def _as_dict(activations):
    return {(a.buffer, a.value): (a.size, set(a.readers)) for a in activations}


def test_mlp_saved_activations_equal_the_brute_force(mlp_report):
    module, plan = mlp_report.module, mlp_report.memory_plan
    found = saved_activations(module, plan)
    assert _as_dict(found) == brute_force(module, plan)
    assert saved_bytes(found) == sum(size for size, _ in brute_force(module, plan).values())


def test_mlp_saves_the_hidden_layer_for_its_gradient(mlp_report):
    module, plan = mlp_report.module, mlp_report.memory_plan
    found = saved_activations(module, plan)
    fused_ops = {a.value: {i.opcode for c in module.entry_computation[a.value].called_computations()
                           for i in module.computation(c).instructions} for a in found}
    hidden = [a for a in found if "tanh" in fused_ops[a.value]]
    assert len(hidden) == 1 and hidden[0].size == 32 * 16 * 4  # h = tanh(x @ w1 + b1), f32[32,16]
    parts = classify(module)
    for a in found:
        assert parts[a.value].part == "forward" and all(parts[r].part == "backward" for r in a.readers)
        buffer = next(b for b in plan.buffers if b.label == a.buffer)
        assert buffer.start <= a.made_at < a.last_read <= buffer.end  # live across the boundary


def test_gpt2_saved_activations_equal_the_brute_force(gpt2_step):
    module, plan = gpt2_step
    found = saved_activations(module, plan)
    assert len(found) > 10
    assert _as_dict(found) == brute_force(module, plan)
    assert 0 < saved_bytes(found) <= sum(b.size for b in plan.buffers if b.offset is not None)


def test_a_forward_only_program_saves_nothing():
    module = parse_hlo((MODELS / "gpt2_block_forward.opt.hlo").read_text())
    assert saved_activations(module, plan_memory(module)) == []


TUPLE_READ = """
HloModule m

fused {
  p0 = f32[4] parameter(0)
  a = f32[4] exponential(p0)
  b = f32[2,4] broadcast(p0), dimensions={1}
  ROOT t = (f32[4], f32[2,4]) tuple(a, b)
}

ENTRY main {
  x = f32[4] parameter(0), metadata={op_name="jit(f)/arguments"}
  f = (f32[4], f32[2,4]) fusion(x), kind=kLoop, calls=fused, metadata={op_name="jit(f)/jvp(g)/exp"}
  e = f32[4] get-tuple-element(f), index=0, metadata={op_name="jit(f)/jvp(g)/exp"}
  r = f32[2,4] get-tuple-element(f), index=1, metadata={op_name="jit(f)/transpose(jvp(g))/mul"}
  n = f32[2,4] negate(r), metadata={op_name="jit(f)/transpose(jvp(g))/mul"}
  ROOT out = (f32[4], f32[2,4]) tuple(e, n)
}
"""


def test_a_backward_get_tuple_element_reads_only_its_element():
    module = parse_hlo(TUPLE_READ)
    plan = plan_memory(module)
    found = saved_activations(module, plan)
    assert [(a.value, a.buffer, a.size) for a in found] == [("f", "f{1}", 32)]  # not f{0}, the exp's 16 bytes
    assert set(found[0].readers) == {"r", "n"}
    assert _as_dict(found) == brute_force(module, plan)
