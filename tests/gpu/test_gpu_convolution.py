"""convolution on the GPU (backend/gpu/conv_kernel.py): every recorded JAX case
(tests/conv_cases) run on the CPU emulator of the GPU thread model, and the PTX through ptxas."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from gpu_helpers import assert_close, compile_gpu, data, emulated_check, module, needs_ptxas

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from test_evaluator_convolution import CASES, NAMES, load_case, tolerance  # noqa: E402


@pytest.mark.parametrize("name", NAMES)
def test_recorded_cases_match_jax_on_the_emulator(name):
    from emulator import emulated_executable

    _, args, want = load_case(name)
    exe = emulated_executable((CASES / f"{name}.hlo").read_text())
    assert_close(exe(*args), want, **tolerance(want))
    kernel = exe.report.kernels[-1]
    assert kernel.kind == "conv-direct" and "one output element per thread" in kernel.notes[0]


@needs_ptxas
@pytest.mark.parametrize("name", ["conv2d_nhwc_3x3_s2_p1", "conv2d_batch_group_weight_grad", "conv2d_bf16_to_f32",
                                  "conv2d_int8_to_int32", "conv3d_ndhwc", "conv2d_f64"])
def test_ptx_assembles(name):
    report = compile_gpu((CASES / f"{name}.hlo").read_text()).report
    assert report.ptxas.ok, report.ptxas.log
    assert [k.kind for k in report.kernels] == ["conv-direct"]



EDGES = [  # (type, lhs, rhs, out, attributes): empty results, no features, other types, no spatial dims
    ("f32", "[1,3,3,2]", "[5,5,2,3]", "[1,0,0,3]", "window={size=5x5}, dim_labels=b01f_01io->b01f"),
    ("f32", "[1,5,5,0]", "[3,3,0,3]", "[1,3,3,3]", "window={size=3x3}, dim_labels=b01f_01io->b01f"),
    ("u8", "[1,5,5,2]", "[3,3,2,3]", "[1,3,3,3]", "window={size=3x3}, dim_labels=b01f_01io->b01f"),
    ("f16", "[1,5,5,2]", "[3,3,2,3]", "[1,3,3,3]", "window={size=3x3}, dim_labels=b01f_01io->b01f"),
    ("f32", "[4,2]", "[2,3]", "[4,3]", "dim_labels=bf_io->bf"),
]


@pytest.mark.parametrize("case", EDGES, ids=lambda c: f"{c[0]}{c[1]}->{c[3]}")
def test_edge_cases_on_the_emulator(case):
    dtype, lhs, rhs, out, attrs = case
    text = module(f"""
        x = {dtype}{lhs} parameter(0)
        w = {dtype}{rhs} parameter(1)
        c = {dtype}{out} convolution(x, w), {attrs}
""")
    shapes = [tuple(int(d) for d in s.strip("[]").split(",")) for s in (lhs, rhs)]
    args = [data(dtype, *s) for s in shapes]
    emulated_check(text, args, rtol=1e-2 if dtype == "f16" else 1e-5, atol=1e-2)
