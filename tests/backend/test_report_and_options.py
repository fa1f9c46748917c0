"""Compile options (-O levels, fast math, dot, threads) and the compile report's contents."""

import numpy as np
import pytest

import hloscope
from backend_helpers import compile_text, corpus_case, module, reducer

SOFTMAX, SOFTMAX_ARGS, SOFTMAX_OUTS, _ = corpus_case("softmax")


@pytest.mark.parametrize("level", [0, 1, 2])
def test_opt_levels_agree_with_o3(level):
    o3 = compile_text(SOFTMAX)(*SOFTMAX_ARGS)
    other = compile_text(SOFTMAX, opt_level=level)(*SOFTMAX_ARGS)
    np.testing.assert_allclose(other, o3, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(other, SOFTMAX_OUTS[0], rtol=1e-5, atol=1e-7)


def test_fast_math_is_close():
    exe = compile_text(SOFTMAX, fast_math=True)
    np.testing.assert_allclose(exe(*SOFTMAX_ARGS), SOFTMAX_OUTS[0], rtol=1e-5, atol=1e-7)
    assert "fast" in exe.report.llvm_ir


def test_report_contents():
    exe = compile_text(SOFTMAX, library=False)  # generated kernels (with the library: one row program)
    r = exe.report
    assert [s.name for s in r.stages] == ["parse", "cache", "verify", "optimize", "plan", "lower", "llvm-opt",
                                          "codegen", "load"]
    assert all(s.status == "done" for s in r.stages) and r.cache == "off"
    assert all(s.seconds >= 0 for s in r.stages) and r.total_seconds > 0
    assert "fusion(" in r.hlo and "is_scheduled=true" in r.hlo
    assert r.records and r.pipeline is not None and r.pipeline.name == "default"
    assert "define void" in r.llvm_ir and "noalias" in r.llvm_ir
    assert r.optimized_llvm_ir != r.llvm_ir and "x float>" in r.optimized_llvm_ir
    assert r.object_size > 0 and r.entry_name in r.assembly
    assert {k.kind for k in r.kernels} == {"reduce", "loop"}
    assert all(k.buffers for k in r.kernels)
    text = r.summary()
    for stage in ("optimize", "lower", "llvm-opt", "codegen"):
        assert stage in text
    assert repr(exe).startswith("<hloscope CpuExecutable")


@pytest.mark.parametrize("body,comps", [
    ("p = f32[1000] parameter(0)\nq = f32[1000] parameter(1)\nr = f32[1000] multiply(p, q)", ""),
    ("p = f32[64,100] parameter(0)\nb = f32[100] parameter(1)\nc = f32[64,100] broadcast(b), dimensions={1}\nr = f32[64,100] add(p, c)", ""),
    ("p = f32[64,256] parameter(0)\nz = f32[] constant(0)\nr = f32[64] reduce(p, z), dimensions={1}, to_apply=add", reducer("add", "add", "f32")),
    ("p = f32[256,64] parameter(0)\nz = f32[] constant(-inf)\nr = f32[64] reduce(p, z), dimensions={0}, to_apply=max", reducer("max", "maximum", "f32")),
])
def test_loops_vectorize(body, comps):
    """Elementwise loops, broadcasts, row and column reductions all become vector code (when
    generated: the library takes the row sum otherwise)."""
    ir = compile_text(module(body, comps), library=False).report.optimized_llvm_ir
    assert "x float>" in ir


def test_dot_option_and_blas_call():
    text = module("a = f32[64,32] parameter(0)\nb = f32[32,48] parameter(1)\nd = f32[64,48] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}")
    blas = compile_text(text)
    loops = compile_text(text, dot="loops")
    assert "hloscope_sgemm" in blas.report.llvm_ir and "hloscope_sgemm" not in loops.report.llvm_ir
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((64, 32)).astype(np.float32), rng.standard_normal((32, 48)).astype(np.float32)
    np.testing.assert_allclose(blas(a, b), a @ b, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(loops(a, b), a @ b, rtol=1e-5, atol=1e-5)


def test_bad_options():
    with pytest.raises(TypeError, match="unknown cpu compile option"):
        compile_text(SOFTMAX, optimise=True)
    with pytest.raises(hloscope.HloscopeError):
        compile_text(SOFTMAX, dot="eigen")
    with pytest.raises(hloscope.NotSupportedError):
        compile_text(SOFTMAX, backend="tpu")


def test_compile_accepts_text():
    from hloscope.compiler import compile as compile_module

    exe = compile_module(SOFTMAX, cache=False)
    np.testing.assert_allclose(exe(*SOFTMAX_ARGS), SOFTMAX_OUTS[0], rtol=1e-5, atol=1e-7)
