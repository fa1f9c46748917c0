"""Activations saved for the backward pass, checked against a brute-force reading of the
memory plan's live ranges."""

from __future__ import annotations

from autodiff_view_steps import MODELS

from hloscope.ir.parser import parse_hlo
from hloscope.memory import plan_memory
from hloscope.memory.saved_activations import saved_activations, saved_bytes
from hloscope.memory.training_parts import classify


def brute_force(module, plan) -> dict[tuple[str, str], tuple[int, set[str]]]:
    """(buffer, value) -> (bytes, backward readers): each value a buffer holds owns the
    positions from its definition to the next value's (or the buffer's end); it is saved when
    a backward instruction inside that interval reads the buffer."""
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
            last = at[values[k + 1]] - 1 if k + 1 < len(values) else b.end
            readers = {plan.schedule[p] for p in range(at[v], last + 1)
                       if parts[plan.schedule[p]].part == "backward"
                       and any(plan.by_instruction(o) is b for o in comp[plan.schedule[p]].operands)}
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
