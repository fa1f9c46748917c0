"""The reference evaluator on the real XLA corpus, and its argument checking.

Every corpus case was run by real XLA (jaxlib, CPU); the recorded outputs are the ground
truth. The plain `.hlo` and the XLA-optimized `.opt.hlo` (fusions, bitcasts, copies with
layouts) must both reproduce them.
"""

import json
from pathlib import Path

import numpy as np
import pytest

import hloscope as hs
from hloscope.errors import EvaluationError, NotSupportedError
from hloscope.evaluator import evaluate, evaluate_computation, evaluate_instruction
from hloscope.ir.parser import parse_hlo

CORPUS = Path(__file__).parent / "corpus"
CASES = json.loads((CORPUS / "manifest.json").read_text())["cases"]
CORE = sorted(n for n, c in CASES.items() if c["tier"] == "core")
STRETCH = sorted(n for n, c in CASES.items() if c["tier"] == "stretch")


def load(name):
    z = np.load(CORPUS / f"{name}.npz")
    count = lambda prefix: len([k for k in z.files if k.startswith(prefix)])  # noqa: E731
    return [z[f"arg{i}"] for i in range(count("arg"))], [z[f"out{i}"] for i in range(count("out"))]


def assert_matches_recorded(name, result):
    case = CASES[name]
    _, outs = load(name)
    got = list(result) if isinstance(result, tuple) else [result]
    assert len(got) == len(outs)
    for g, want in zip(got, outs):
        assert isinstance(g, np.ndarray)
        assert g.dtype == want.dtype and g.shape == want.shape
        if case["rtol"] == 0 and case["atol"] == 0:
            np.testing.assert_array_equal(g, want)
        else:
            np.testing.assert_allclose(g, want, rtol=case["rtol"], atol=case["atol"])


def run_case(name, suffix):
    args, _ = load(name)
    module = parse_hlo((CORPUS / f"{name}{suffix}").read_text())
    return evaluate(module, *args)


@pytest.mark.parametrize("name", CORE)
def test_core_case(name):
    assert_matches_recorded(name, run_case(name, ".hlo"))


@pytest.mark.parametrize("name", CORE + STRETCH)
def test_optimized_case(name):
    """XLA's optimized module (fusion, call, bitcast, copy) computes the same outputs."""
    try:
        result = run_case(name, ".opt.hlo")
    except NotSupportedError:
        assert name in STRETCH
        return
    assert_matches_recorded(name, result)


@pytest.mark.parametrize("name", STRETCH)
def test_stretch_case_passes_or_says_not_supported(name):
    try:
        result = run_case(name, ".hlo")
    except NotSupportedError as e:
        assert "not supported: " in str(e)
        return
    assert_matches_recorded(name, result)


def test_public_api_is_wired():
    args, _ = load("softmax")
    module = hs.parse_hlo((CORPUS / "softmax.hlo").read_text())
    assert_matches_recorded("softmax", hs.evaluate(module, *args))


def test_arguments_are_not_modified_or_returned():
    module = parse_hlo("HloModule m\nENTRY e {\n a = f32[3] parameter(0)\n ROOT c = f32[3] copy(a)\n}\n")
    x = np.array([1.0, 2.0, 3.0], np.float32)
    before = x.copy()
    out = evaluate(module, x)
    assert out is not x and not np.shares_memory(out, x)
    out[0] = 99.0
    np.testing.assert_array_equal(x, before)


MATMUL = """HloModule m
ENTRY e {
  x.1 = f32[64,256] parameter(0)
  w.1 = f32[256,64] parameter(1)
  ROOT d = f32[64,64] dot(x.1, w.1), lhs_contracting_dims={1}, rhs_contracting_dims={0}
}
"""


def test_wrong_shape_names_parameter_and_both_shapes():
    m = parse_hlo(MATMUL)
    x = np.zeros((64, 256), np.float32)
    with pytest.raises(EvaluationError) as e:
        evaluate(m, x, np.zeros((64, 256), np.float32))
    assert str(e.value) == "argument 1 (parameter 'w.1'): expected f32[256,64], got f32[64,256]"


def test_wrong_dtype_is_not_cast():
    m = parse_hlo(MATMUL)
    with pytest.raises(EvaluationError, match=r"argument 0 \(parameter 'x.1'\): expected f32\[64,256\], got float64"):
        evaluate(m, np.zeros((64, 256)), np.zeros((256, 64), np.float32))


def test_wrong_argument_count():
    m = parse_hlo(MATMUL)
    z = np.zeros((64, 256), np.float32)
    with pytest.raises(EvaluationError, match="expected 2 arguments, got 3"):
        evaluate(m, z, z.T, z)
    with pytest.raises(EvaluationError, match="expected 2 arguments, got 1"):
        evaluate(m, z)


def test_python_scalars_and_lists_are_converted_then_checked():
    m = parse_hlo("HloModule m\nENTRY e {\n a = s64[2] parameter(0)\n b = pred[] parameter(1)\n"
                  " ROOT r = s64[2] negate(a)\n}\n")
    np.testing.assert_array_equal(evaluate(m, [1, 2], True), np.array([-1, -2], np.int64))
    with pytest.raises(EvaluationError, match="got float64"):
        evaluate(m, [1.5, 2.0], True)


def test_tuple_root_gives_nested_tuples():
    m = parse_hlo("HloModule m\nENTRY e {\n a = f32[2] parameter(0)\n n = f32[2] negate(a)\n"
                  " i = (f32[2], f32[2]) tuple(a, n)\n ROOT t = ((f32[2], f32[2]), f32[2]) tuple(i, a)\n}\n")
    x = np.array([1, 2], np.float32)
    (a, n), b = evaluate(m, x)
    np.testing.assert_array_equal(n, -x)
    np.testing.assert_array_equal(a, x)
    np.testing.assert_array_equal(b, x)


def test_evaluate_computation_runs_one_computation():
    m = parse_hlo("HloModule m\nsq {\n p = f32[] parameter(0)\n ROOT s = f32[] multiply(p, p)\n}\n"
                  "ENTRY e {\n a = f32[] parameter(0)\n ROOT c = f32[] call(a), to_apply=sq\n}\n")
    assert evaluate_computation(m, "sq", [np.float32(3)]) == np.float32(9)
    assert evaluate_computation(m, m.computation("sq"), [np.float32(-2)]).dtype == np.float32


def test_evaluate_instruction_for_constant_folding():
    m = parse_hlo("HloModule m\nENTRY e {\n a = s32[3] constant({7, -7, 1})\n b = s32[3] constant({2, 2, 0})\n"
                  " ROOT d = s32[3] divide(a, b)\n}\n")
    d = m.entry_computation["d"]
    out = evaluate_instruction(m, d, [np.array([7, -7, 1], np.int32), np.array([2, 2, 0], np.int32)])
    np.testing.assert_array_equal(out, np.array([3, -3, -1], np.int32))


@pytest.mark.parametrize("text, opcode", [
    ('c = f32[2] custom-call(a), custom_call_target="foo"', "custom-call"),
    ("c = (u32[2], u32[2]) rng-bit-generator(s), algorithm=rng_default", "rng-bit-generator"),
])
def test_unsupported_ops_say_not_supported(text, opcode):
    m = parse_hlo("HloModule m\nENTRY e {\n a = f32[2] parameter(0)\n s = u32[2] constant({1, 2})\n"
                  f" ROOT {text}\n}}\n")
    with pytest.raises(NotSupportedError, match=f"not supported: {opcode}"):
        evaluate(m, np.zeros(2, np.float32))
