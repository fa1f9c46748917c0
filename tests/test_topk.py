"""topk and custom-call TopK in the IR and the evaluator, against JAX's recorded outputs
(tests/topk_cases); any other custom-call target is refused by name."""

from __future__ import annotations

import numpy as np
import pytest

from hloscope.errors import HloVerifierError, NotSupportedError
from hloscope.evaluator.api import evaluate
from hloscope.ir.parser import parse_hlo
from hloscope.ir.shape import TupleShape, array
from hloscope.ir.shape_inference import infer_shape
from hloscope.ir.verifier import verify_module
from topk_helpers import CASES_DIR, case_names, load_case, same_bits

TOPK = """HloModule m
ENTRY e {
  x = {dtype}[{dims}] parameter(0)
  ROOT t = {result} topk(x), k={k}, largest=true
}
"""


def topk_text(dims: str, k: int, result: str, dtype: str = "f32") -> str:
    return TOPK.replace("{dtype}", dtype).replace("{dims}", dims).replace("{k}", str(k)).replace("{result}", result)


@pytest.mark.parametrize("name", case_names())
def test_evaluator_matches_jax_on_lowered_topk(name):
    text, x, values, indices = load_case(name)
    got_values, got_indices = evaluate(parse_hlo(text), x)
    assert same_bits(got_values, values)
    assert np.array_equal(got_indices, indices) and got_indices.dtype == np.int32


@pytest.mark.parametrize("name", case_names(compiled=True))
def test_evaluator_matches_jax_on_xla_optimized_form(name):
    """f32 becomes custom-call TopK; s32 becomes a sort with iota (XLA's TopkDecomposer)."""
    text, x, values, indices = load_case(name, compiled=True)
    got_values, got_indices = evaluate(parse_hlo(text), x)
    assert same_bits(got_values, values) and np.array_equal(got_indices, indices)


def test_topk_prints_and_parses_back():
    m = parse_hlo(load_case("f32_special_k5_smallest")[0])
    text = str(m)
    assert "topk(%x.1), k=5, largest=false" in text.replace("%v.1", "%x.1")
    assert str(parse_hlo(text)) == text


def test_custom_call_topk_prints_and_parses_back():
    m = parse_hlo(load_case("f32_ties_4x17_k5", compiled=True)[0])
    assert str(parse_hlo(str(m))) == str(m)


def test_shape_inference():
    shape = infer_shape("topk", [array("f32", 3, 10)], {"k": 4, "largest": True})
    assert isinstance(shape, TupleShape)
    assert [str(e) for e in shape.elements] == ["f32[3,4]{1,0}", "s32[3,4]{1,0}"]


@pytest.mark.parametrize("dims,k,result,message", [
    ("3,10", 11, "(f32[3,11], s32[3,11])", r"topk k=11 is out of range for the last dimension of f32\[3,10\] \(0..10\)"),
    ("3,10", -1, "(f32[3,0], s32[3,0])", "topk k=-1 is out of range"),
    ("", 1, "(f32[1], s32[1])", r"topk needs an operand of rank >= 1, got f32\[\]"),
    ("3,10", 2, "(f32[3,2], f32[3,2])", r"\(f32\[3,2\], s32\[3,2\]\)"),  # indices are s32
])
def test_verifier_refuses_bad_topk(dims, k, result, message):
    with pytest.raises(HloVerifierError, match=message):
        verify_module(parse_hlo(topk_text(dims, k, result)))


def test_verifier_checks_custom_call_topk_shapes():
    text = load_case("f32_ties_4x17_k5", compiled=True)[0]
    bad = text.replace("(f32[4,5]{1,0}, s32[4,5]{1,0}) custom-call", "(f32[4,5]{1,0}, f32[4,5]{1,0}) custom-call")
    bad = bad.replace("-> (f32[4,5], s32[4,5])", "-> (f32[4,5], f32[4,5])")  # the signature agrees: the verifier judges
    with pytest.raises(HloVerifierError):
        verify_module(parse_hlo(bad))


CUSTOM_CALL = """HloModule m
ENTRY e {
  x = f32[4,8] parameter(0)
  ROOT c = f32[4,8] custom-call(x), custom_call_target="%s"
}
"""


@pytest.mark.parametrize("target", ["SPMDFullToShardShape", "annotate_device_placement", "my_made_up_kernel"])
def test_evaluator_refuses_other_custom_calls_by_name(target):
    with pytest.raises(NotSupportedError) as e:
        evaluate(parse_hlo(CUSTOM_CALL % target), np.ones((4, 8), np.float32))
    assert str(e.value).startswith(f'not supported: custom-call target "{target}" (instruction c); '
                                   "hloscope understands: TopK")


def test_evaluator_passes_a_jax_sharding_constraint_through():
    m = parse_hlo((CASES_DIR / "custom_call_sharding.hlo").read_text())
    x = np.arange(32, dtype=np.float32).reshape(4, 8)
    np.testing.assert_array_equal(evaluate(m, x), 2 * x + 1)


def test_sampling_step_matches_jax():
    """logits -> top_k(8) -> softmax -> categorical with a fixed key, as jax ran it."""
    data = np.load(CASES_DIR / "sampling_step.npz")
    m = parse_hlo((CASES_DIR / "sampling_step.hlo").read_text())
    probs, token = evaluate(m, data["logits"], data["key"])
    np.testing.assert_allclose(probs, data["probs"], rtol=1e-6, atol=1e-7)
    assert np.array_equal(token, data["token"])


def _custom_call_with(comparator_root: str) -> str:
    return f"""HloModule m
cmp {{
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  i = s32[] parameter(2)
  j = s32[] parameter(3)
  ROOT r = pred[] {comparator_root}
}}
ENTRY e {{
  x = f32[2,9] parameter(0)
  ROOT t = (f32[2,3], s32[2,3]) custom-call(x), custom_call_target="TopK", called_computations={{cmp}}
}}
"""


@pytest.mark.parametrize("root, largest", [("compare(a, b), direction=GT", True),
                                           ("compare(b, a), direction=GT", False),
                                           ("compare(a, b), direction=LT", False)])
def test_custom_call_topk_reads_the_order_from_its_comparator(root, largest):
    import hloscope

    x = np.random.default_rng(1).integers(0, 4, (2, 9)).astype(np.float32)
    order = np.argsort(-x if largest else x, axis=-1, kind="stable")[:, :3]
    text = _custom_call_with(root)
    for values, indices in (evaluate(parse_hlo(text), x), hloscope.compile(text)(x)):
        np.testing.assert_array_equal(indices, order)
        np.testing.assert_array_equal(values, np.take_along_axis(x, order, axis=-1))


def test_custom_call_topk_with_an_unknown_comparator_is_refused_by_name():
    import hloscope

    text = _custom_call_with("compare(a, i), direction=GT")  # compares a value with a position
    text = text.replace("ROOT r = pred[] compare(a, i)", "ai = f32[] convert(i)\n  ROOT r = pred[] compare(a, ai)")
    message = "custom-call TopK t: comparator cmp is not a greater-than or less-than of its first two parameters"
    with pytest.raises(NotSupportedError, match=message):
        evaluate(parse_hlo(text), np.zeros((2, 9), np.float32))
    with pytest.raises(NotSupportedError, match=f"not supported on cpu: {message}"):
        hloscope.compile(text)
