"""Functions that only hand pointers on to compiled code (the entry, thread-pool tasks, BLAS
and library calls, row programs) are `optnone`: LLVM spends no -O3 or full code generation on
them. Kernels with loops of their own are optimized as before, and both compute the
evaluator's results."""

from __future__ import annotations

import re

import numpy as np

from backend_helpers import check_against_evaluator, module


def _define_lines(ir_text: str) -> dict[str, str]:
    return {m.group(1): m.group(0) for m in re.finditer(r'^define [^@]*@"?([^"(]+)"?\(.*$', ir_text, re.M)}


def test_only_calls_are_left_unoptimized_and_loops_are_not():
    text = module("""
        x = f32[256,512] parameter(0)
        w = f32[512,256] parameter(1)
        d = f32[256,256] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
        t = f32[256,256] tanh(d)
        z = f32[] constant(0)
        s = f32[] reduce(t, z), dimensions={0,1}, to_apply=add
        e = f32[256,256] exponential(t)
        r = (f32[], f32[256,256]) tuple(s, e)
    """, """
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
}
""")
    rng = np.random.default_rng(0)
    args = [rng.standard_normal((256, 512)).astype(np.float32) / 16,
            rng.standard_normal((512, 256)).astype(np.float32) / 16]
    exe = check_against_evaluator(text, args, rtol=1e-4, atol=1e-3, pipeline="none", parallel_min_elements=1)
    lines = _define_lines(exe.report.llvm_ir)
    kinds = {k.llvm_function: k.kind for k in exe.report.kernels}
    unoptimized = {name for name, line in lines.items() if " optnone" in line}
    assert exe.report.entry_name in unoptimized
    assert any(name.endswith(".task") for name in unoptimized)  # the pool's task wrappers
    assert {name for name, kind in kinds.items() if kind == "dot-blas"} <= unoptimized
    loops = {name for name, kind in kinds.items() if kind in ("loop", "reduce")}
    assert loops and not loops & unoptimized  # generated loops keep -O3
