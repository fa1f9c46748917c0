"""topk and custom-call TopK on the GPU (backend/gpu/topk_kernel.py: a thread per row), run on
the CPU emulator against JAX's recorded outputs and the evaluator, and through ptxas."""

from __future__ import annotations

import numpy as np
import pytest

from gpu_helpers import NUMPY, compile_gpu, needs_ptxas
from hloscope.errors import NotSupportedError
from hloscope.evaluator.api import evaluate
from hloscope.ir.parser import parse_hlo
from topk_helpers import CASES_DIR, case_names, load_case, same_bits

SOME_CASES = ["f32_long_2x1000_k10", "bf16_ties_4x20_k6", "f16_neg_inf_3x9_k3", "f32_k0", "f32_rank3_k1_smallest", "f32_special_all",
              "f32_ties_4x17_k5", "s32_ties_5x33_k4_smallest"]


@pytest.mark.parametrize("name", SOME_CASES)
def test_emulated_kernel_matches_jax(name):
    from emulator import emulated_executable

    text, x, values, indices = load_case(name)
    exe = emulated_executable(text)
    got_values, got_indices = exe(x)
    assert same_bits(np.asarray(got_values), values) and np.array_equal(got_indices, indices)
    if "k0" not in name:
        assert [k.kind for k in exe.report.kernels] == ["topk-block" if x.shape[-1] >= 512 else "topk-rows"]


@pytest.mark.parametrize("dtype, n, k, largest", [
    ("f32", 512, 1, True), ("f32", 700, 7, False), ("s32", 2000, 128, True), ("bf16", 1500, 20, False),
    ("u8", 600, 33, True),
])
def test_emulated_block_per_row_against_the_evaluator(dtype, n, k, largest):
    """Many ties spread over every thread's stride: the merge must still keep row order."""
    from emulator import emulated_executable

    text = (f"HloModule m\nENTRY e {{\n  x = {dtype}[2,{n}] parameter(0)\n"
            f"  ROOT t = ({dtype}[2,{k}], s32[2,{k}]) topk(x), k={k}, largest={str(largest).lower()}\n}}\n")
    x = np.random.default_rng(n).integers(0, 5, (2, n)).astype(NUMPY[dtype])
    if dtype != "u8":
        x[0, ::97] = np.nan if dtype != "s32" else -7
    exe = emulated_executable(text)
    assert [kernel.kind for kernel in exe.report.kernels] == ["topk-block"]
    got_values, got_indices = exe(x)
    want_values, want_indices = evaluate(parse_hlo(text), x)
    assert same_bits(np.asarray(got_values), want_values) and np.array_equal(got_indices, want_indices)


@pytest.mark.parametrize("name", case_names(compiled=True))
def test_emulated_custom_call_topk_matches_jax(name):
    from emulator import emulated_executable

    text, x, values, indices = load_case(name, compiled=True)
    got_values, got_indices = emulated_executable(text)(x)
    assert same_bits(np.asarray(got_values), values) and np.array_equal(got_indices, indices)


@needs_ptxas
@pytest.mark.parametrize("name", ["f32_long_2x1000_k10", "bf16_ties_4x20_k6", "s32_ties_5x33_k4_smallest"])
def test_ptx_assembles(name):
    report = compile_gpu(load_case(name)[0]).report
    assert report.ptxas.ok, report.ptxas.log
    assert {"topk-rows", "topk-block"} & {k.kind for k in report.kernels}


@needs_ptxas
def test_custom_call_topk_ptx_assembles():
    report = compile_gpu(load_case("f32_long_2x1000_k10", compiled=True)[0]).report
    assert report.ptxas.ok, report.ptxas.log


def test_a_jax_sharding_constraint_is_dropped_before_code_generation():
    exe = compile_gpu((CASES_DIR / "custom_call_sharding.hlo").read_text())
    assert all("custom-call" not in str(i) for _, i in exe.report.module.all_instructions())


def test_neutral_form_of_the_kernel():
    report = compile_gpu(load_case("f32_ties_4x17_k5", compiled=True)[0], ptxas=False).report
    (kernel,) = report.kernels
    assert "define void" in report.neutral_ir(kernel.name) and "ret" in report.asm("aarch64", kernel.name)


def _sampling(pipeline: str):
    from emulator import emulated_executable

    data = np.load(CASES_DIR / "sampling_step.npz")
    exe = emulated_executable((CASES_DIR / "sampling_step.hlo").read_text(), pipeline=pipeline)
    probs, token = exe(data["logits"], data["key"])
    return data, probs, token, exe


def test_emulated_sampling_step_end_to_end():
    """logits -> top_k(8) -> softmax -> categorical (fixed key): probabilities and tokens as JAX's."""
    data, probs, token, exe = _sampling("simplify,fusion")
    np.testing.assert_allclose(probs, data["probs"], rtol=1e-6, atol=1e-7)
    np.testing.assert_array_equal(token, data["token"])
    assert "topk-rows" in [k.kind for k in exe.report.kernels]


def test_emulated_sampling_step_with_the_default_pipeline():
    """Multi-output fusion makes the nested-tuple fusion ((f32[4], s32[4]), f32[4,8]) of the
    argmax and the division (see test_gpu_multi_output_fusion.py)."""
    data, probs, token, _ = _sampling("default")
    np.testing.assert_allclose(probs, data["probs"], rtol=1e-6, atol=1e-7)
    np.testing.assert_array_equal(token, data["token"])


@pytest.mark.parametrize("n", [30, 600])
def test_emulated_column_major_operand_and_results(n):
    """Both kernels read and write through layouts (the row is the last dimension, not memory order)."""
    from emulator import emulated_executable

    text = (f"HloModule m\nENTRY e {{\n  x = f32[3,{n}]{{0,1}} parameter(0)\n"
            "  ROOT t = (f32[3,4]{0,1}, s32[3,4]{0,1}) topk(x), k=4, largest=false\n}\n")
    x = np.random.default_rng(n).integers(0, 6, (3, n)).astype(np.float32)
    got_values, got_indices = emulated_executable(text, pipeline="none")(x)
    want_values, want_indices = evaluate(parse_hlo(text), x)
    assert same_bits(np.asarray(got_values), want_values) and np.array_equal(got_indices, want_indices)
