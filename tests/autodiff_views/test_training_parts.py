"""Forward / backward / other from op_name scopes, before and after fusion, on a step hloscope
traced and on one JAX made."""

from __future__ import annotations

from pathlib import Path

import pytest
from autodiff_view_steps import MODELS, mlp_arguments, mlp_step

import hloscope
from hloscope.ir.parser import parse_hlo
from hloscope.memory.saved_activations import saved_activations
from hloscope.memory.training_parts import classify, has_backward, part_counts, part_of_op_name


@pytest.mark.parametrize("op_name, part", [
    ("jit(step)/jvp(loss)/tanh", "forward"),
    ("jit(step)/transpose(jvp(loss))/tanh", "backward"),
    ("jit(<lambda>)/transpose(jvp())/mul", "backward"),
    ("jit(<lambda>)/jvp(jit(take_along_axis))/gather", "forward"),
    ("jit(f)/jvp(g)/transpose(jvp(h))/mul", "backward"),  # the backward pass inside a grad of grad
    ("jit(step)/subtract", "other"),
    ("jit(step)/jvp_like/transpose", "other"),  # an op called transpose is no scope
    ("", None),
    (None, None),
])
def test_op_name_scopes(op_name, part):
    assert part_of_op_name(op_name) == part


def _op_name(inst):
    return inst.metadata.op_name if inst.metadata else ""


def test_traced_step_before_optimization_follows_the_scopes():
    module = hloscope.jit(mlp_step).lower(*mlp_arguments())
    parts = classify(module)
    for inst in module.entry_computation.instructions:
        name = _op_name(inst)
        want = "backward" if "/transpose(jvp(mlp_loss))/" in name else "forward" if "/jvp(mlp_loss)/" in name \
            else "other"
        assert parts[inst.name].part == want, (inst.name, name)
    counts = part_counts(module)
    assert counts["forward"] > 5 and counts["backward"] > 5 and counts["other"] > 5
    assert has_backward(module)


def test_traced_step_after_fusion_classifies_fusions_by_what_they_fused(mlp_report):
    module = mlp_report.module
    parts = classify(module)
    fusions = [i for i in module.entry_computation.instructions if i.opcode == "fusion"]
    assert fusions
    for f in fusions:
        counts = dict(parts[f.name].counts)
        assert sum(counts.values()) >= 1
        assert counts.get(parts[f.name].part, 0) == max(counts.values())  # the majority
        assert parts[f.name].mixed == (counts.get("forward", 0) > 0 and counts.get("backward", 0) > 0)
    # the SGD update is neither pass; the loss's forward and its gradient both survive fusion
    assert {parts[f.name].part for f in fusions} == {"forward", "backward", "other"}


FUSED = """
HloModule m

fused {
  p0 = f32[4] parameter(0)
  a = f32[4] exponential(p0), metadata={op_name="jit(f)/jvp(g)/exp"}
  b = f32[4] multiply(a, p0), metadata={op_name="jit(f)/transpose(jvp(g))/exp"}
  ROOT c = f32[4] add(b, a), metadata={op_name="jit(f)/transpose(jvp(g))/add_any"}
}

tie {
  p0 = f32[4] parameter(0)
  a = f32[4] exponential(p0), metadata={op_name="jit(f)/jvp(g)/exp"}
  ROOT b = f32[4] multiply(a, p0), metadata={op_name="jit(f)/transpose(jvp(g))/exp"}
}

ENTRY main {
  x = f32[4] parameter(0), metadata={op_name="jit(f)/arguments"}
  f1 = f32[4] fusion(x), kind=kLoop, calls=fused, metadata={op_name="jit(f)/jvp(g)/exp"}
  f2 = f32[4] fusion(f1), kind=kLoop, calls=tie
  t = (f32[4], f32[4]) tuple(f1, f2)
  ROOT g = f32[4] get-tuple-element(t), index=1
}
"""


def test_fusion_majority_tie_and_passed_on_values():
    parts = classify(parse_hlo(FUSED))
    assert parts["f1"].part == "backward"  # 2 backward to 1 forward, whatever the fusion's own op_name
    assert parts["f1"].counts == (("forward", 1), ("backward", 2)) and parts["f1"].mixed
    assert parts["f2"].part == "backward"  # a tie goes to the later sweep
    assert parts["t"].part == "backward" and parts["g"].part == "backward"  # no op_name: its first operand's
    assert parts["x"].part == "other" and not parts["x"].mixed


def test_jax_training_step_follows_the_same_scopes(gpt2_step):
    module, _ = gpt2_step
    parts = classify(module)
    for inst in module.entry_computation.instructions:
        if inst.opcode in ("fusion", "get-tuple-element", "tuple", "bitcast") or not _op_name(inst):
            continue
        name = _op_name(inst)
        want = "backward" if "transpose(jvp(" in name else "forward" if "jvp(" in name else "other"
        assert parts[inst.name].part == want, (inst.name, name)
    counts = part_counts(module)
    assert min(counts.values()) > 10  # the forward pass, its gradient and Adam's update
    assert any(p.mixed for p in parts.values())  # XLA fuses some forward ops into backward fusions


def test_a_forward_only_program_has_no_backward_pass():
    module = parse_hlo((MODELS / "gpt2_block_forward.opt.hlo").read_text())
    assert not has_backward(module)
    assert part_counts(module)["backward"] == 0


def test_jax_step_through_hloscope_passes_keeps_its_parts():
    # JAX's lowering with debug_info (recorded by make_jax_step.py), optimized by hloscope:
    # hloscope's own fusions of a JAX program are classified by JAX's scopes
    module = parse_hlo((Path(__file__).with_name("jax_mlp_train_step.hlo")).read_text())
    before = part_counts(module)
    assert before["forward"] > 0 and before["backward"] > 0
    c = hloscope.optimize(module)
    after = part_counts(c.module)
    assert after["forward"] > 0 and after["backward"] > 0 and sum(after.values()) < sum(before.values())
    assert c.memory_plan is not None
    hidden = [a for a in saved_activations(c.module, c.memory_plan) if a.size == 32 * 16 * 4]
    assert hidden, "tanh(x @ w1), f32[32,16], is read by the backward pass"
