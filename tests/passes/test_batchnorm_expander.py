"""batchnorm_expander: batch-norm-training, -inference and -grad become reduces, broadcasts
and arithmetic (XLA's BatchNormExpander). For each op, for ranks 2 and 4 and several
feature_index values, the expanded module verifies, holds no batch norm, and computes what
the evaluator computes for the original; compile(backend="cpu") runs it (the targets run the
pass before any pipeline) and gives the same, and so do the GPU's kernels on the CPU emulator.
Golden before/after text is in tests/passes/golden/batchnorm_expander."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from pass_helpers import run_pass

import hloscope
from hloscope import parse_hlo
from hloscope.ir.dtypes import element_type
from hloscope.passes.batchnorm_expander import OPCODES, BatchNormExpander
from hloscope.backend.cpu.target import CPU
from hloscope.backend.gpu.target import GPU
from hloscope.passes.bisect import flat_outputs

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "gpu"))
from emulator import emulated_executable  # noqa: E402

META = 'metadata={op_type="FusedBatchNormV3" op_name="model/bn" source_file="model.py" source_line=12}'
# (dims, feature_index): ranks 2 and 4, the feature dimension first, last and in between
LAYOUTS = [((6, 4), 1), ((5, 3), 0), ((2, 3, 4, 5), 1), ((2, 4, 3, 3), 3), ((3, 2, 4, 2), 2)]
# float32 follows the evaluator closely; f16 and bf16 are computed in their own type, as XLA does
TOLERANCE = {"f32": 2e-5, "f16": 2e-2, "bf16": 1e-1}


def _shape(dtype: str, dims) -> str:
    return f"{dtype}[{','.join(map(str, dims))}]"


def batch_norm_module(op: str, dims: tuple[int, ...], fi: int, dtype: str = "f32", epsilon: str = "0.001") -> str:
    """A module whose ENTRY is one batch-norm op on parameters (its result is the ROOT)."""
    x, f = _shape(dtype, dims), _shape(dtype, (dims[fi],))
    params = {"training": [x, f, f], "inference": [x, f, f, f, f], "grad": [x, f, f, f, x]}[op]
    result = x if op == "inference" else f"({x}, {f}, {f})"
    lines = [f"  p{i} = {s} parameter({i})" for i, s in enumerate(params)]
    operands = ", ".join(f"p{i}" for i in range(len(params)))
    lines.append(f"  ROOT bn = {result} batch-norm-{op}({operands}), epsilon={epsilon}, feature_index={fi}, {META}")
    return "HloModule bn_{}\n\nENTRY main {{\n{}\n}}\n".format(op, "\n".join(lines))


def arguments(module, seed: int = 0) -> list[np.ndarray]:
    """Inputs a batch norm sees: x off-centre, scale and offset of either sign, a positive
    variance and a mean near x's for inference and grad."""
    rng = np.random.default_rng(seed)
    shapes = module.entry_computation.parameter_shapes
    op = module.entry_computation[module.entry_computation.root].opcode
    args = []
    for i, s in enumerate(shapes):
        if op != "batch-norm-training" and i == len(shapes) - (2 if op == "batch-norm-grad" else 1):
            value = rng.uniform(0.5, 2.0, s.dims)  # the variance
        elif op != "batch-norm-training" and i == (2 if op == "batch-norm-grad" else 3):
            value = rng.normal(0.5, 0.2, s.dims)  # the mean
        else:
            value = rng.normal(0.5 if i == 0 else 0.0, 1.0, s.dims)
        args.append(value.astype(element_type(s.dtype).numpy))
    return args


def assert_close(got, want, dtype: str, where: str) -> None:
    got, want = flat_outputs(got), flat_outputs(want)
    assert len(got) == len(want), where
    tol = TOLERANCE[dtype]
    for i, (g, w) in enumerate(zip(got, want)):
        assert (g.shape, g.dtype) == (w.shape, w.dtype), f"{where} output {i}"
        np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=tol, atol=tol,
                                   err_msg=f"{where} output {i}")


def expanded(text: str):
    """(module before, module after, the pass's record): the pass run as a pipeline runs it."""
    module = parse_hlo(text)
    after, record = run_pass(BatchNormExpander(), module)
    return module, after, record


CASES = [pytest.param(op, dims, fi, "f32", id=f"{op}-{'x'.join(map(str, dims))}-fi{fi}")
         for op in ("training", "inference", "grad") for dims, fi in LAYOUTS]
HALF = [pytest.param(op, (2, 3, 2, 2), 1, dtype, id=f"{op}-{dtype}")
        for op in ("training", "inference", "grad") for dtype in ("f16", "bf16")]


@pytest.mark.parametrize("op,dims,fi,dtype", CASES + HALF)
def test_the_expansion_verifies_and_computes_what_the_evaluator_does(op, dims, fi, dtype):
    module, after, record = expanded(batch_norm_module(op, dims, fi, dtype))
    after.verify()
    assert record.changed and record.name == "batchnorm_expander"
    assert not {i.opcode for _, i in after.all_instructions()} & OPCODES
    (decision,) = record.log
    assert decision.action == "expanded" and decision.subject == "bn" and f"feature_index={fi}" in decision.reason
    args = arguments(module)
    assert_close(hloscope.evaluate(after, *args), hloscope.evaluate(module, *args), dtype, "evaluated expansion")


@pytest.mark.parametrize("op,dims,fi,dtype", CASES[::2] + HALF)
def test_compiled_for_cpu_it_matches_the_evaluator(op, dims, fi, dtype):
    module = parse_hlo(batch_norm_module(op, dims, fi, dtype))
    args = arguments(module, seed=1)
    exe = hloscope.compile(module, backend="cpu", cache=False)
    assert_close(exe(*args), hloscope.evaluate(module, *args), dtype, "cpu")


@pytest.mark.parametrize("op,dims,fi,dtype", CASES[1::3])
def test_the_gpus_kernels_on_the_emulator_match_the_evaluator(op, dims, fi, dtype):
    module = parse_hlo(batch_norm_module(op, dims, fi, dtype))
    args = arguments(module, seed=3)
    assert_close(emulated_executable(module)(*args), hloscope.evaluate(module, *args), dtype, "gpu (emulated)")


def test_both_targets_run_it_before_any_pipeline():
    for target in (CPU, GPU):
        required = target.required_passes()
        assert required is not None and required.pass_names()[:2] == ["layout-normalization", "batchnorm_expander"]


@pytest.mark.parametrize("pipeline", ["none", "default"])
def test_compile_records_the_pass_after_layout_normalization(pipeline):
    module = parse_hlo(batch_norm_module("training", (4, 3), 1))
    exe = hloscope.compile(module, backend="cpu", pipeline=pipeline, cache=False)
    names = [r.name for r in exe.report.records]
    assert names[:2] == ["layout-normalization", "batchnorm_expander"]
    assert exe.report.records[1].changed
    args = arguments(module, seed=2)
    assert_close(exe(*args), hloscope.evaluate(module, *args), "f32", f"cpu, pipeline {pipeline}")


def test_every_new_instruction_keeps_the_batch_norms_metadata():
    for op in ("training", "inference", "grad"):
        module, after, _ = expanded(batch_norm_module(op, (2, 3, 4, 5), 1))
        old = {i.name for i in module.entry_computation}
        new = [i for i in after.entry_computation if i.name not in old]
        assert new and all(i.metadata == module.entry_computation["bn"].metadata for i in new), op
        assert all(i.metadata and i.metadata.op_name == "model/bn" and i.metadata.source_line == 12 for i in new)


def test_training_takes_the_variance_as_xla_does_in_one_pass():
    """Var[x] = E[x^2] - E[x]^2: x is squared and summed, never centred before the sums."""
    _, after, _ = expanded(batch_norm_module("training", (6, 4), 1))
    entry = after.entry_computation
    reduces = [i for i in entry if i.opcode == "reduce"]
    assert len(reduces) == 2 and {entry[r.operands[0]].opcode for r in reduces} == {"parameter", "multiply"}
    squared = next(entry[r.operands[0]] for r in reduces if entry[r.operands[0]].opcode == "multiply")
    assert squared.operands == ("p0", "p0")
    assert all(r.attr("dimensions") == (0,) for r in reduces)


def test_epsilon_is_xlas_float_in_the_operands_type():
    _, after, _ = expanded(batch_norm_module("inference", (4, 2), 1, "f16", epsilon="1e-05"))
    (eps,) = [i for i in after.entry_computation if i.opcode == "constant"]
    assert eps.shape.dtype == "f16" and eps.literal.value == np.float16(np.float32(1e-5))


def test_one_add_computation_per_element_type():
    text = """HloModule two
ENTRY main {
  x = f32[4,3] parameter(0)
  s = f32[3] parameter(1)
  h = f16[16,5] parameter(2)
  t = f16[5] parameter(3)
  a = (f32[4,3], f32[3], f32[3]) batch-norm-training(x, s, s), epsilon=0.001, feature_index=1
  b = (f32[4,3], f32[3], f32[3]) batch-norm-training(x, s, s), epsilon=0.01, feature_index=1
  c = (f16[16,5], f16[5], f16[5]) batch-norm-training(h, t, t), epsilon=0.001, feature_index=1
  ROOT r = ((f32[4,3], f32[3], f32[3]), (f32[4,3], f32[3], f32[3]), (f16[16,5], f16[5], f16[5])) tuple(a, b, c)
}
"""
    module, after, record = expanded(text)
    adders = [c for c in after.computations if c.name.startswith("scalar_add_computation")]
    assert sorted(c.parameter_shapes[0].dtype for c in adders) == ["f16", "f32"]
    assert after.computations[: len(adders)] == tuple(adders), "callees before their callers"
    assert [d.subject for d in record.log] == ["a", "b", "c"]
    args = arguments(module)
    assert_close(hloscope.evaluate(after, *args)[:2], hloscope.evaluate(module, *args)[:2], "f32", "two f32")
    assert_close(hloscope.evaluate(after, *args)[2], hloscope.evaluate(module, *args)[2], "f16", "f16")


def test_a_batch_norm_in_a_called_computation_is_expanded_too():
    text = """HloModule called
%norm (x: f32[8,2], s: f32[2], o: f32[2]) -> f32[8,2] {
  %x = f32[8,2] parameter(0)
  %s = f32[2] parameter(1)
  %o = f32[2] parameter(2)
  %bn = (f32[8,2], f32[2], f32[2]) batch-norm-training(%x, %s, %o), epsilon=0.001, feature_index=1
  ROOT %y = f32[8,2] get-tuple-element(%bn), index=0
}
ENTRY main {
  x = f32[8,2] parameter(0)
  s = f32[2] parameter(1)
  o = f32[2] parameter(2)
  ROOT c = f32[8,2] call(x, s, o), to_apply=%norm
}
"""
    module, after, record = expanded(text)
    assert [d.computation for d in record.log] == ["norm"]
    assert not {i.opcode for _, i in after.all_instructions()} & OPCODES
    args = arguments(module)
    assert_close(hloscope.evaluate(after, *args), hloscope.evaluate(module, *args), "f32", "called")


def test_a_module_without_batch_norms_is_the_same_module():
    module = parse_hlo("HloModule m\nENTRY e {\n  x = f32[4] parameter(0)\n  ROOT n = f32[4] negate(x)\n}\n")
    after, record = run_pass(BatchNormExpander(), module)
    assert after is module and not record.changed and not record.log


def test_a_batch_norm_over_a_dynamic_dimension_is_kept():
    text = batch_norm_module("inference", (8, 4), 1).replace("p0 = f32[8,4]", "p0 = f32[<=8,4]").replace(
        "ROOT bn = f32[8,4]", "ROOT bn = f32[<=8,4]")
    _, after, record = expanded(text)
    assert not record.changed and after.entry_computation["bn"].opcode == "batch-norm-inference"
    (decision,) = record.log
    assert decision.action == "kept" and not decision.accepted and "dynamic" in decision.reason
