"""16-bit float dots on the CPU through the f32 BLAS (backend/cpu/widening_dot.py), against
the evaluator, which also converts the operands to f32 and rounds the f32 sum once."""

from __future__ import annotations

import numpy as np
import pytest

from backend_helpers import NUMPY, check_against_evaluator, module

pytestmark = pytest.mark.hosts  # results that depend on the vector width and FMA (tests/hosts.py)

DIMS = {  # name: (lhs dims, rhs dims, out dims, dimension numbers)
    "matmul": ("33,17", "17,29", "33,29", "lhs_contracting_dims={1}, rhs_contracting_dims={0}"),
    "lhs_transposed": ("17,33", "17,29", "33,29", "lhs_contracting_dims={0}, rhs_contracting_dims={0}"),
    "rhs_transposed": ("33,17", "29,17", "33,29", "lhs_contracting_dims={1}, rhs_contracting_dims={1}"),
    "both_transposed": ("17,33", "29,17", "33,29", "lhs_contracting_dims={0}, rhs_contracting_dims={1}"),
    "batched": ("3,8,5", "3,5,7", "3,8,7",
                "lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={1}"),
    "two_batch_dims_transposed": ("2,3,5,8", "2,3,7,5", "2,3,8,7",
                                  "lhs_batch_dims={0,1}, lhs_contracting_dims={2}, rhs_batch_dims={0,1}, "
                                  "rhs_contracting_dims={3}"),
    "matvec": ("6,40", "40", "6", "lhs_contracting_dims={1}, rhs_contracting_dims={0}"),
    "vecvec": ("300", "300", "", "lhs_contracting_dims={0}, rhs_contracting_dims={0}"),
    "big_k": ("16,1000", "1000,12", "16,12", "lhs_contracting_dims={1}, rhs_contracting_dims={0}"),
}
TOLERANCE = {"f16": 1e-2, "bf16": 3e-2, "f32": 1e-4}  # one rounding of the result, summation order


def _data(dtype, dims):
    shape = tuple(int(d) for d in dims.split(",") if d)
    return np.random.default_rng(len(dims)).standard_normal(shape).astype(NUMPY[dtype])


def _dot(name, operand, result):
    lhs, rhs, out, numbers = DIMS[name]
    text = module(f"a = {operand}[{lhs}] parameter(0)\nb = {operand}[{rhs}] parameter(1)\n"
                  f"d = {result}[{out}] dot(a, b), {numbers}")
    return text, [_data(operand, lhs), _data(operand, rhs)]


@pytest.mark.parametrize("name", sorted(DIMS))
@pytest.mark.parametrize("operand,result", [("f16", "f16"), ("bf16", "bf16"), ("bf16", "f32"), ("f16", "f32")])
def test_sixteen_bit_dots_use_the_f32_gemm(name, operand, result):
    text, args = _dot(name, operand, result)
    tol = TOLERANCE[result]
    exe = check_against_evaluator(text, args, rtol=tol, atol=tol)
    widen = [f"the dot's {role} converted from {operand} to f32 scratch" for role in ("lhs", "rhs")]
    assert [(k.kind, k.notes[0][:len(w)]) for k, w in zip(exe.report.kernels, widen)] == [("loop", w) for w in widen]
    gemm = exe.report.kernels[-1]
    assert (len(exe.report.kernels), gemm.kind) == (3, "dot-blas")
    assert f"{operand} x {operand} -> {result} gemm" in gemm.notes[0] and "widened to f32 BLAS" in gemm.notes[0]


def test_loops_option_keeps_the_elemental_dot():
    text, args = _dot("matmul", "f16", "f16")
    exe = check_against_evaluator(text, args, rtol=1e-2, atol=1e-2, dot="loops")
    assert all(k.kind != "dot-blas" for k in exe.report.kernels)


def test_mixed_f32_and_bf16_operands_to_f32():
    """An f32 operand is read as it is: only the bf16 one is widened."""
    text = module("a = f32[9,7] parameter(0)\nb = bf16[7,5] parameter(1)\n"
                  "d = f32[9,5] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}")
    exe = check_against_evaluator(text, [_data("f32", "9,7"), _data("bf16", "7,5")], rtol=1e-5, atol=1e-5)
    assert [k.kind for k in exe.report.kernels] == ["loop", "dot-blas"]


def test_f32_operands_to_an_f16_result_are_not_widened():
    """The evaluator rounds f32 operands to f16 before multiplying; the f32 gemm would not."""
    text, args = _dot("matmul", "f32", "f16")
    exe = check_against_evaluator(text, args, rtol=1e-2, atol=1e-2)
    assert all(k.kind != "dot-blas" for k in exe.report.kernels)


def test_square_of_one_operand():
    """x @ x: one buffer is both operands (and one f32 copy serves both)."""
    text = module("a = f16[24,24] parameter(0)\n"
                  "d = f16[24,24] dot(a, a), lhs_contracting_dims={1}, rhs_contracting_dims={0}")
    exe = check_against_evaluator(text, [_data("f16", "24,24")], rtol=1e-2, atol=1e-2)
    assert [k.kind for k in exe.report.kernels] == ["loop", "dot-blas"]


def test_f16_dot_with_an_epilogue_in_a_fusion():
    """dot + bias in one fusion: the widened gemm's rounded result feeds the epilogue."""
    comps = """
fused {
  a = f16[16,8] parameter(0)
  b = f16[8,12] parameter(1)
  c = f16[12] parameter(2)
  d = f16[16,12] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  e = f16[16,12] broadcast(c), dimensions={1}
  ROOT s = f16[16,12] add(d, e)
}
"""
    text = module("a = f16[16,8] parameter(0)\nb = f16[8,12] parameter(1)\nc = f16[12] parameter(2)\n"
                  "f = f16[16,12] fusion(a, b, c), kind=kOutput, calls=fused", comps)
    exe = check_against_evaluator(text, [_data("f16", "16,8"), _data("f16", "8,12"), _data("f16", "12")],
                                  rtol=1e-2, atol=1e-2, pipeline="none")
    assert [k.kind for k in exe.report.kernels] == ["loop", "loop", "dot-blas", "loop"]


def test_big_f16_dot_is_split_across_threads():
    """The widen kernels and the gemm (which rounds its own rows) run in partitions."""
    text, _ = _dot("matmul", "f16", "f16")
    text = text.replace("33,17", "200,64").replace("17,29", "64,48").replace("33,29", "200,48")
    args = [_data("f16", "200,64"), _data("f16", "64,48")]
    exe = check_against_evaluator(text, args, rtol=1e-2, atol=1e-2, parallel_min_elements=1000, threads=3)
    assert [k.partitions for k in exe.report.kernels] == [3, 3, 3]
