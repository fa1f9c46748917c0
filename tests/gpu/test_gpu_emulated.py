"""The GPU kernels, run on the CPU emulator (one OS thread per GPU thread), against the
evaluator and the corpus: every index, barrier and shuffle of the kernels is exercised, and
the GpuExecutable's arena, copies and schedule are the ones a GPU would run."""

import numpy as np
import pytest

from emulator import emulated_executable
from hlo_text import arg_reducer
from gpu_helpers import RNG, assert_matches, corpus_case, corpus_cases, data, emulated_check as check, module, reducer


@pytest.mark.large
@pytest.mark.parametrize("name", corpus_cases("core") + ["argmax_rows", "cumsum_rows", "gather_rows"])
def test_corpus_case_emulated(name):
    text, args, outs, case = corpus_case(name)
    assert_matches(emulated_executable(text)(*args), outs, case)


@pytest.mark.large
@pytest.mark.parametrize("name", ["softmax", "layernorm", "bmm_scale", "slice_pad_concat_flip"])
def test_corpus_case_unfused_emulated(name):
    text, args, outs, case = corpus_case(name)
    assert_matches(emulated_executable(text, pipeline="none")(*args), outs, case)


@pytest.mark.parametrize("dtype,op,init", [("f32", "add", "2.5"), ("f32", "maximum", "-inf"), ("s32", "add", "7"),
                                           ("f64", "multiply", "1"), ("bf16", "add", "0"), ("f16", "maximum", "-inf"),
                                           ("u64", "add", "3"), ("pred", "or", "false"), ("s8", "minimum", "5")])
def test_row_reduction_types_and_non_identity_init(dtype, op, init):
    """Partials start from real elements and init is applied once: right even when init is
    not the reducer's identity (2.5 for add)."""
    text = module(f"""
        x = {dtype}[5,77] parameter(0)
        z = {dtype}[] constant({init})
        r = {dtype}[5] reduce(x, z), dimensions={{1}}, to_apply=red
    """, reducer("red", op, dtype))
    x = data(dtype, 5, 77) if op != "multiply" else (1 + 0.01 * RNG.standard_normal((5, 77))).astype(np.float64)
    # 16-bit sums: the kernel carries f32 and rounds once, the evaluator rounds every step
    half = dtype in ("bf16", "f16")
    exe = check(text, [x], rtol=5e-2 if half else 1e-5, atol=0.25 if half else 1e-5)
    assert exe.report.kernels[0].kind == "row-reduce"


def test_row_reduction_over_several_minor_dimensions():
    text = module("""
        x = f32[3,4,20,30] parameter(0)
        z = f32[] constant(0)
        r = f32[3,4] reduce(x, z), dimensions={2,3}, to_apply=add
    """, reducer("add", "add", "f32"))
    exe = check(text, [data("f32", 3, 4, 20, 30)], rtol=1e-4, atol=1e-4)
    assert exe.report.kernels[0].kind == "row-reduce" and exe.report.kernels[0].grid == (12, 1, 1)


def test_row_reduction_with_interleaved_kept_dimension():
    """Reduce dims {0, 2} of [a, b, c]: rows are b, each row strides over a and c."""
    text = module("""
        x = f32[6,5,40] parameter(0)
        z = f32[] constant(0)
        r = f32[5] reduce(x, z), dimensions={0,2}, to_apply=add
    """, reducer("add", "add", "f32"))
    exe = check(text, [data("f32", 6, 5, 40)], rtol=1e-4, atol=1e-4)
    assert exe.report.kernels[0].kind == "row-reduce"


def test_narrow_column_reduction_uses_the_fallback():
    """Fewer columns than a warp: one thread per output element, looping over the rows."""
    text = module("""
        x = f32[300,7] parameter(0)
        z = f32[] constant(1)
        r = f32[7] reduce(x, z), dimensions={0}, to_apply=add
    """, reducer("add", "add", "f32"))
    exe = check(text, [data("f32", 300, 7)], rtol=1e-4, atol=1e-4)
    assert exe.report.kernels[0].kind == "reduce-loop"


def test_multi_output_row_reduction_with_side_output():
    """softmax's exp written while it is summed, plus a second reduce of the same rows."""
    comps = reducer("add", "add", "f32") + reducer("mx", "maximum", "f32") + """
fused {
  x = f32[6,50] parameter(0)
  z = f32[] constant(0)
  m = f32[] constant(-inf)
  e = f32[6,50] exponential(x)
  s = f32[6] reduce(e, z), dimensions={1}, to_apply=add
  t = f32[6] reduce(e, m), dimensions={1}, to_apply=mx
  ROOT out = (f32[6], f32[6,50], f32[6]) tuple(s, e, t)
}
"""
    text = module("x = f32[6,50] parameter(0)\n"
                  "f = (f32[6], f32[6,50], f32[6]) fusion(x), kind=kInput, calls=fused", comps)
    exe = check(text, [data("f32", 6, 50)], pipeline="none")
    assert exe.report.kernels[0].kind == "row-reduce"


@pytest.mark.parametrize("dims,lhs,rhs,out", [
    ("lhs_contracting_dims={1}, rhs_contracting_dims={0}", "f32[33,17]", "f32[17,29]", "f32[33,29]"),
    ("lhs_contracting_dims={0}, rhs_contracting_dims={0}", "f32[17,33]", "f32[17,29]", "f32[33,29]"),
    ("lhs_contracting_dims={1}, rhs_contracting_dims={1}", "f32[33,17]", "f32[29,17]", "f32[33,29]"),
    ("lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={1}",
     "f64[3,20,40]", "f64[3,40,18]", "f64[3,20,18]"),
    ("lhs_contracting_dims={1}, rhs_contracting_dims={0}", "s32[20,9]", "s32[9,21]", "s32[20,21]"),
    ("lhs_contracting_dims={0}, rhs_contracting_dims={0}", "f32[5]", "f32[5]", "f32[]"),
    ("lhs_contracting_dims={1}, rhs_contracting_dims={0}", "bf16[18,24]", "bf16[24,10]", "bf16[18,10]"),
])
def test_tiled_dot(dims, lhs, rhs, out):
    text = module(f"a = {lhs} parameter(0)\nb = {rhs} parameter(1)\nd = {out} dot(a, b), {dims}")

    def arg(spec):
        dtype, shape = spec.split("[")
        return data(dtype, *[int(s) for s in shape.rstrip("]").split(",") if s])

    tol = 2e-2 if "bf16" in lhs else 1e-5
    exe = check(text, [arg(lhs), arg(rhs)], rtol=tol, atol=tol)
    assert exe.report.kernels[0].kind == "dot-tiled"


def test_results_no_kernel_writes():
    """A parameter and a constant returned as they are, and one value returned twice."""
    text = module("""
        x = f32[40] parameter(0)
        c = f32[3] constant({1, 2, 3})
        e = f32[40] exponential(x)
        t = (f32[40], f32[3], f32[40], f32[40]) tuple(x, c, e, e)
    """)
    check(text, [data("f32", 40)], pipeline="none")


def test_zero_sized_arrays():
    text = module("x = f32[0,5] parameter(0)\ne = f32[0,5] exponential(x)")
    out = emulated_executable(text)(np.zeros((0, 5), np.float32))
    assert out.shape == (0, 5)


def test_small_grid_strides_over_everything():
    text = module("x = f32[3000] parameter(0)\ny = f32[3000] sine(x)")
    check(text, [data("f32", 3000)], block_size=32)


def test_non_default_layouts():
    text = module("""
        x = f32[30,20]{0,1} parameter(0)
        y = f32[20,30]{1,0} transpose(x), dimensions={1,0}
        z = f32[20,30]{0,1} negate(y)
    """)
    check(text, [data("f32", 30, 20)], pipeline="none")


@pytest.mark.large
@pytest.mark.parametrize("dtype,op,init", [("f32", "add", "1.5"), ("f64", "maximum", "-inf"), ("s64", "add", "0"),
                                           ("bf16", "add", "0")])
def test_split_reduction_of_long_rows(dtype, op, init):
    """Two long rows: each is cut into chunks (blockIdx.y), chunk totals go to scratch, and a
    second kernel combines them and applies init once."""
    text = module(f"""
        x = {dtype}[2,150000] parameter(0)
        z = {dtype}[] constant({init})
        r = {dtype}[2] reduce(x, z), dimensions={{1}}, to_apply=red
    """, reducer("red", op, dtype))
    exe = emulated_executable(text)
    first, second = exe.report.kernels
    assert first.grid[:2] == (2, 36) and second.grid == (2, 1, 1) and second.block == (32, 1, 1)
    x = data(dtype, 2, 150000)
    want = x.astype(np.float64).sum(1) + float(init) if op == "add" else x.astype(np.float64).max(1)
    got = exe(x).astype(np.float64)
    # f32: 150000 terms summed in a different order than numpy's pairwise sum
    tol = {"bf16": (1e-2, 1.0), "f32": (1e-5, 1e-2)}.get(dtype, (1e-12, 0))
    np.testing.assert_allclose(got, want, rtol=tol[0], atol=tol[1])


ARGMAX = arg_reducer("argmax", "GT")


def test_split_variadic_reduction():
    """argmax over a long vector: value and index both travel through scratch memory."""
    text = module("""
        x = f32[200000] parameter(0)
        i = s32[200000] iota(), iota_dimension=0
        v = f32[] constant(-inf)
        z = s32[] constant(0)
        r = (f32[], s32[]) reduce(x, i, v, z), dimensions={0}, to_apply=argmax
    """, ARGMAX)
    x = data("f32", 200000)
    x[123457] = 10.0
    exe = emulated_executable(text)
    assert [k.kind for k in exe.report.kernels] == ["row-reduce", "row-reduce"]
    value, index = exe(x)
    assert index == 123457 and value == np.float32(10.0)
