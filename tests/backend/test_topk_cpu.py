"""topk and custom-call TopK on the CPU (backend/topk_kernel.py: per row, a sorted insertion
into the k output slots), against JAX's recorded outputs (tests/topk_cases) and the
evaluator; a top-k sampling step end to end."""

from __future__ import annotations

import numpy as np
import pytest

import hloscope
from hloscope.evaluator.api import evaluate
from hloscope.ir.parser import parse_hlo
from topk_helpers import CASES_DIR, case_names, load_case, same_bits


@pytest.mark.parametrize("name", case_names())
def test_kernel_matches_jax(name):
    text, x, values, indices = load_case(name)
    exe = hloscope.compile(text)
    got_values, got_indices = exe(x)
    assert same_bits(np.asarray(got_values), values) and np.array_equal(got_indices, indices)
    assert "topk" in [k.kind for k in exe.report.kernels] or values.size == 0


@pytest.mark.parametrize("name", case_names(compiled=True))
def test_xla_optimized_form_matches_jax(name):
    """XLA's own output: custom-call TopK for f32, sort with iota + slice for s32."""
    text, x, values, indices = load_case(name, compiled=True)
    got_values, got_indices = hloscope.compile(text)(x)
    assert same_bits(np.asarray(got_values), values) and np.array_equal(got_indices, indices)


@pytest.mark.parametrize("largest", [True, False])
@pytest.mark.parametrize("dtype", [np.float64, np.uint8, np.int64, np.bool_])
def test_other_types_against_the_evaluator(dtype, largest):
    name = {np.float64: "f64", np.uint8: "u8", np.int64: "s64", np.bool_: "pred"}[dtype]
    text = (f"HloModule m\nENTRY e {{\n  x = {name}[6,40] parameter(0)\n"
            f"  ROOT t = ({name}[6,7], s32[6,7]) topk(x), k=7, largest={str(largest).lower()}\n}}\n")
    x = np.random.default_rng(3).integers(0, 4, (6, 40)).astype(dtype)
    want_values, want_indices = evaluate(parse_hlo(text), x)
    got_values, got_indices = hloscope.compile(text)(x)
    assert same_bits(np.asarray(got_values), want_values) and np.array_equal(got_indices, want_indices)


def test_ascending_rows_shift_every_slot():
    """The worst case of the insertion: every element enters and moves to the front."""
    text = ("HloModule m\nENTRY e {\n  x = f32[3,500] parameter(0)\n"
            "  ROOT t = (f32[3,12], s32[3,12]) topk(x), k=12, largest=true\n}\n")
    x = np.tile(np.arange(500, dtype=np.float32), (3, 1))
    got_values, got_indices = hloscope.compile(text)(x)
    np.testing.assert_array_equal(got_indices, np.tile(np.arange(499, 487, -1, dtype=np.int32), (3, 1)))
    np.testing.assert_array_equal(got_values, got_indices.astype(np.float32))


def test_sampling_step_end_to_end():
    """logits -> top_k(8) -> softmax -> categorical (fixed key): probabilities and tokens as JAX's."""
    data = np.load(CASES_DIR / "sampling_step.npz")
    exe = hloscope.compile((CASES_DIR / "sampling_step.hlo").read_text())
    probs, token = exe(data["logits"], data["key"])
    np.testing.assert_allclose(probs, data["probs"], rtol=1e-6, atol=1e-7)
    np.testing.assert_array_equal(token, data["token"])
    assert "topk" in [k.kind for k in exe.report.kernels]


def test_a_jax_sharding_constraint_is_dropped_before_code_generation():
    """custom-call "Sharding" only marks a sharding: on one device sharding-remover drops it."""
    exe = hloscope.compile((CASES_DIR / "custom_call_sharding.hlo").read_text())
    x = np.arange(32, dtype=np.float32).reshape(4, 8)
    np.testing.assert_array_equal(exe(x), 2 * x + 1)
    removed = next(r for r in exe.report.records if r.name == "sharding-remover")
    assert removed.changed and any("only annotates a sharding" in d.reason for d in removed.log)


@pytest.mark.parametrize("seed", range(6))
def test_random_rows_with_nans_and_signed_zeros_against_the_evaluator(seed):
    rng = np.random.default_rng(seed)
    dims = [int(d) for d in rng.integers(1, 6, int(rng.integers(0, 3)))] + [int(rng.integers(1, 300))]
    k, largest = int(rng.integers(0, dims[-1] + 1)), bool(seed % 2)
    x = rng.choice(np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 2.5], np.float32), dims)
    x = np.where(rng.random(dims) < 0.5, rng.standard_normal(dims).astype(np.float32), x)
    shape, out = ",".join(map(str, dims)), ",".join(map(str, dims[:-1] + [k]))
    text = (f"HloModule m\nENTRY e {{\n  x = f32[{shape}] parameter(0)\n"
            f"  ROOT t = (f32[{out}], s32[{out}]) topk(x), k={k}, largest={str(largest).lower()}\n}}\n")
    want_values, want_indices = evaluate(parse_hlo(text), x)
    got_values, got_indices = hloscope.compile(text)(x)
    assert same_bits(np.asarray(got_values), want_values) and np.array_equal(got_indices, want_indices)


def test_column_major_operand_and_results():
    """The kernel reads and writes through layouts: the row is the last dimension, not memory order."""
    text = ("HloModule m\nENTRY e {\n  x = f32[5,30]{0,1} parameter(0)\n"
            "  ROOT t = (f32[5,4]{0,1}, s32[5,4]{0,1}) topk(x), k=4, largest=true\n}\n")
    x = np.random.default_rng(0).integers(0, 6, (5, 30)).astype(np.float32)
    want_values, want_indices = evaluate(parse_hlo(text), x)
    got_values, got_indices = hloscope.compile(text, pipeline="none")(x)
    assert same_bits(np.asarray(got_values), want_values) and np.array_equal(got_indices, want_indices)
