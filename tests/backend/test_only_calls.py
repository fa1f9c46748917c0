"""Functions where LLVM's optimizer gains nothing are `optnone` (llvm_types.left_unoptimized):
those that only hand pointers on to compiled code (the entry, thread-pool tasks, BLAS and
library calls, row programs), and kernels of a few elements. Kernels with real loops are
optimized as before, and all of them compute the evaluator's results."""

from __future__ import annotations

import re

import numpy as np

from backend_helpers import check_against_evaluator, module


def _define_lines(ir_text: str) -> dict[str, str]:
    return {m.group(1): m.group(0) for m in re.finditer(r'^define [^@]*@"?([^"(]+)"?\(.*$', ir_text, re.M)}


TEXT = module("""
    x = f32[256,512] parameter(0)
    w = f32[512,256] parameter(1)
    d = f32[256,256] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
    t = f32[256,256] tanh(d)
    z = f32[] constant(0)
    s = f32[] reduce(t, z), dimensions={0,1}, to_apply=add
    n = f32[] constant(65536)
    mean = f32[] divide(s, n)
    e = f32[256,256] exponential(t)
    r = (f32[], f32[256,256]) tuple(mean, e)
""", """
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
}
""")


ARGS = [np.random.default_rng(0).standard_normal((256, 512)).astype(np.float32) / 16,
        np.random.default_rng(1).standard_normal((512, 256)).astype(np.float32) / 16]


def _compiled(**options):
    options.setdefault("threads", 2)  # parallel kernels, whatever share of the CPUs this process has
    exe = check_against_evaluator(TEXT, ARGS, rtol=1e-4, atol=1e-3, pipeline="none", parallel_min_elements=1,
                                  **options)
    lines = _define_lines(exe.report.llvm_ir)
    kernels = {k.llvm_function: k for k in exe.report.kernels}
    unoptimized = {name for name, line in lines.items() if " optnone" in line}

    def of(kind: str, instruction: str | None = None) -> set[str]:
        return {name for name, k in kernels.items() if k.kind == kind and instruction in (None, k.instruction)}

    return exe, unoptimized, of


def test_what_only_calls_is_left_unoptimized_and_real_loops_are_not():
    exe, unoptimized, of = _compiled()
    assert exe.report.entry_name in unoptimized
    assert any(name.endswith(".task") for name in unoptimized)  # the pool's task wrappers
    assert of("dot-blas") and of("dot-blas") <= unoptimized
    library = of("library-reduce-partials") | of("library-reduce-combine")  # the full sum, in the library
    assert len(library) == 2 and library <= unoptimized
    assert of("loop", "mean") and of("loop", "mean") <= unoptimized  # a one-element division: tiny
    big = of("loop", "t") | of("loop", "e")  # the loops over the 256x256 arrays keep -O3
    assert len(big) == 2 and not big & unoptimized


def test_a_split_reductions_combine_is_left_unoptimized_and_its_partials_are_not():
    _, unoptimized, of = _compiled(library=False)
    assert of("reduce-combine") and of("reduce-combine") <= unoptimized  # a loop over 64 partial sums
    assert of("reduce-partials") and not of("reduce-partials") & unoptimized
