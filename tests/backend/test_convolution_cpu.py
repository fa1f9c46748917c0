"""convolution on the CPU (backend/cpu/conv_kernel.py): every recorded JAX case
(tests/conv_cases) through both kernels, and the choice between them."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from backend_helpers import assert_close, check_against_evaluator, compile_text, module

pytestmark = pytest.mark.hosts  # results that depend on the vector width and FMA (tests/hosts.py)

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from test_evaluator_convolution import CASES, NAMES, load_case, tolerance  # noqa: E402

RNG = np.random.default_rng(7)


# The recorded case the library's im2col convolution takes (library/calls.py: what the
# generated kernel would run as im2col + gemm, 2-D, features contiguous); the others have too
# few features for a gemm, are 1-D or 3-D, grouped, or not float.
LIBRARY_GEMM = {"conv2d_gemm_16_to_24"}


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("dot", ["blas", "loops"])
def test_recorded_cases_match_jax(name, dot):
    """The generated kernels (library=False): im2col + gemm where a gemm fits, else direct loops."""
    _, args, want = load_case(name)
    exe = compile_text((CASES / f"{name}.hlo").read_text(), dot=dot, library=False)
    got = exe(*args)
    assert_close(got, want, **tolerance(want))
    kind = exe.report.kernels[-1].kind
    assert kind == ("conv-gemm" if dot == "blas" and "gemm" in name else "conv-direct"), kind


@pytest.mark.parametrize("name", NAMES)
def test_recorded_cases_match_jax_with_the_library(name):
    _, args, want = load_case(name)
    exe = compile_text((CASES / f"{name}.hlo").read_text())
    assert_close(exe(*args), want, **tolerance(want))
    kinds = {k.kind for k in exe.report.kernels}
    assert ("library-conv" in kinds) == (name in LIBRARY_GEMM), kinds




@pytest.mark.parametrize("lhs, rhs, out, window", [
    ((1, 10, 10, 16), (3, 3, 16, 32), (1, 5, 5, 32), "size=3x3 stride=2x2 pad=1_1x1_1"),
    ((2, 7, 9, 8), (2, 3, 8, 8), (2, 11, 9, 8), "size=2x3 pad=0_-1x1_1 lhs_dilate=2x1 rhs_reversal=1x1"),
    ((1, 12, 12, 8), (3, 3, 8, 16), (1, 8, 5, 16), "size=3x3 stride=1x2 rhs_dilate=2x2 pad=0_0x1_0"),
])
def test_gemm_path_matches_the_evaluator(lhs, rhs, out, window):
    text = module(f"""
        x = f32{list(lhs)} parameter(0)
        w = f32{list(rhs)} parameter(1)
        c = f32{list(out)} convolution(x, w), window={{{window}}}, dim_labels=b01f_01io->b01f
""".replace(", ", ","))
    args = [RNG.standard_normal(lhs).astype(np.float32), RNG.standard_normal(rhs).astype(np.float32)]
    exe = check_against_evaluator(text, args, rtol=1e-4, atol=1e-4, library=False)
    kernel = exe.report.kernels[-1]
    assert kernel.kind == "conv-gemm"
    library = check_against_evaluator(text, args, rtol=1e-4, atol=1e-4).report.kernels[-1]
    assert library.kind == ("conv-gemm" if "lhs_dilate" in window else "library-conv")
    assert "im2col + f32 BLAS gemm" in kernel.notes[0]


def test_depthwise_takes_the_direct_loops_and_says_why():
    """Without the library (tests/backend/test_library_cpu.py has its kernel)."""
    text = module("""
        x = f32[1,9,9,16] parameter(0)
        w = f32[3,3,1,16] parameter(1)
        c = f32[1,9,9,16] convolution(x, w), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f, feature_group_count=16
""")
    args = [RNG.standard_normal((1, 9, 9, 16)).astype(np.float32), RNG.standard_normal((3, 3, 1, 16)).astype(np.float32)]
    kernel = check_against_evaluator(text, args, rtol=1e-5, atol=1e-5, library=False).report.kernels[-1]
    assert kernel.kind == "conv-direct"
    assert "grouped" in kernel.notes[0] and "16 -> 16 features" in kernel.notes[0]


def test_bf16_result_accumulates_in_f32_and_non_default_layouts_work():
    text = module("""
        x = bf16[2,3,6,5]{1,3,2,0} parameter(0)
        w = bf16[4,3,2,2]{0,1,2,3} parameter(1)
        c = bf16[2,4,5,4]{2,1,3,0} convolution(x, w), window={size=2x2}, dim_labels=bf01_oi01->bf01
""")
    import ml_dtypes

    args = [RNG.standard_normal((2, 3, 6, 5)).astype(ml_dtypes.bfloat16),
            RNG.standard_normal((4, 3, 2, 2)).astype(ml_dtypes.bfloat16)]
    check_against_evaluator(text, args, rtol=1e-2, atol=1e-2)


EDGES = [  # (type, lhs, rhs, out, attributes): empty results, no features, other types, no spatial dims
    ("f32", "[1,3,3,2]", "[5,5,2,3]", "[1,0,0,3]", "window={size=5x5}, dim_labels=b01f_01io->b01f"),
    ("f32", "[0,5,5,2]", "[3,3,2,3]", "[0,3,3,3]", "window={size=3x3}, dim_labels=b01f_01io->b01f"),
    ("f32", "[1,5,5,0]", "[3,3,0,3]", "[1,3,3,3]", "window={size=3x3}, dim_labels=b01f_01io->b01f"),
    ("f32", "[1,5,5,16]", "[3,3,16,0]", "[1,3,3,0]", "window={size=3x3}, dim_labels=b01f_01io->b01f"),
    ("u8", "[1,5,5,2]", "[3,3,2,3]", "[1,3,3,3]", "window={size=3x3}, dim_labels=b01f_01io->b01f"),
    ("f16", "[1,5,5,2]", "[3,3,2,3]", "[1,3,3,3]", "window={size=3x3}, dim_labels=b01f_01io->b01f"),
    ("f32", "[4,2]", "[2,3]", "[4,3]", "dim_labels=bf_io->bf"),
]


def edge_case(dtype, lhs, rhs, out, attrs):
    """(HLO text, arguments) of one EDGES row."""
    from backend_helpers import NUMPY

    text = module(f"""
        x = {dtype}{lhs} parameter(0)
        w = {dtype}{rhs} parameter(1)
        c = {dtype}{out} convolution(x, w), {attrs}
""")
    shapes = [tuple(int(d) for d in s.strip("[]").split(",")) for s in (lhs, rhs)]
    return text, [(RNG.random(s) * 4).astype(NUMPY[dtype]) for s in shapes]


@pytest.mark.parametrize("case", EDGES, ids=lambda c: f"{c[0]}{c[1]}->{c[3]}")
def test_edge_cases_match_the_evaluator(case):
    text, args = edge_case(*case)
    check_against_evaluator(text, args, rtol=1e-2 if case[0] == "f16" else 1e-5, atol=1e-2)


def test_a_convolution_is_not_fused_and_its_relu_is_a_loop_fusion_of_its_own():
    text = module("""
        x = f32[1,8,8,16] parameter(0)
        w = f32[3,3,16,16] parameter(1)
        c = f32[1,8,8,16] convolution(x, w), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f
        z = f32[] constant(0)
        zb = f32[1,8,8,16] broadcast(z), dimensions={}
        r = f32[1,8,8,16] maximum(c, zb)
""")
    args = [RNG.standard_normal((1, 8, 8, 16)).astype(np.float32), RNG.standard_normal((3, 3, 16, 16)).astype(np.float32)]
    report = check_against_evaluator(text, args, rtol=1e-5, atol=1e-5).report
    assert [k.kind for k in report.kernels] == ["library-conv", "loop"]
    kept = [d.reason for r in report.records for d in r.log if d.subject == "c" and not d.accepted]
    assert any("library call" in reason for reason in kept), kept


@pytest.mark.parametrize("labels, lhs, out, pointwise", [
    ("b01f_01io->b01f", (2, 7, 5, 16), (2, 7, 5, 24), True),
    ("bf01_01io->b01f", (2, 16, 7, 5), (2, 7, 5, 24), False),  # NCHW input: not a matrix as stored
])
def test_pointwise_convolution_multiplies_the_input_in_place(labels, lhs, out, pointwise):
    text = module(f"""
        x = f32{list(lhs)} parameter(0)
        w = f32[1,1,16,24] parameter(1)
        c = f32{list(out)} convolution(x, w), window={{size=1x1}}, dim_labels={labels}
""".replace(", ", ",").replace("},dim", "}, dim").replace("),window", "), window"))
    args = [RNG.standard_normal(lhs).astype(np.float32), RNG.standard_normal((1, 1, 16, 24)).astype(np.float32)]
    kernel = check_against_evaluator(text, args, rtol=1e-4, atol=1e-4).report.kernels[-1]
    assert kernel.kind == "conv-gemm"
    assert ("pointwise" in kernel.notes[0]) == pointwise, kernel.notes[0]
