"""Reductions (row, column, middle, full, split, variadic) and dots (BLAS, loops, shapes)."""

import numpy as np
import pytest

from hlo_text import arg_reducer, reduce_text
from backend_helpers import NUMPY, check_against_evaluator, compile_text, module, reducer

pytestmark = pytest.mark.hosts  # results that depend on the vector width and FMA (tests/hosts.py)

rng = np.random.default_rng(11)


def data(dtype, *dims):
    if dtype == "pred":
        return rng.random(dims) < 0.5
    if dtype[0] in "su":
        return rng.integers(-50 if dtype[0] == "s" else 0, 50, dims).astype(NUMPY[dtype])
    return rng.standard_normal(dims).astype(NUMPY[dtype])


@pytest.mark.parametrize("dims,reduce_dims", [
    ((64, 300), (1,)),        # row reduction
    ((300, 64), (0,)),        # column reduction
    ((8, 50, 6), (1,)),       # middle dimension
    ((8, 50, 6), (0, 2)),     # outer and inner
    ((37, 41), (0, 1)),       # full reduction
    ((5, 1, 7), (1,)),        # a unit dimension
])
@pytest.mark.parametrize("pipeline", ["none", "default"])
def test_sum_shapes(dims, reduce_dims, pipeline):
    check_against_evaluator(reduce_text("f32", dims, reduce_dims), [data("f32", *dims)],
                            rtol=1e-5, atol=1e-4, pipeline=pipeline)


@pytest.mark.parametrize("dtype,op,init", [
    ("f32", "maximum", "-inf"), ("f32", "minimum", "inf"), ("f64", "multiply", "1"),
    ("s32", "add", "0"), ("s32", "minimum", "2147483647"), ("u8", "maximum", "0"),
    ("pred", "and", "true"), ("pred", "or", "false"), ("f16", "maximum", "-inf"),
])
@pytest.mark.parametrize("dims,reduce_dims", [((40, 30), (1,)), ((40, 30), (0,))])
def test_reducer_ops(dtype, op, init, dims, reduce_dims):
    x = data(dtype, *dims)
    if dtype == "f64":
        x = 1 + x / 100
    rtol = 1e-2 if dtype in ("bf16", "f16") else 1e-6
    check_against_evaluator(reduce_text(dtype, dims, reduce_dims, op, init), [x], rtol=rtol, atol=1e-6)


@pytest.mark.parametrize("dtype", ["bf16", "f16"])
@pytest.mark.parametrize("dims,reduce_dims", [((40, 30), (1,)), ((40, 30), (0,)), ((40, 30), (0, 1))])
def test_16_bit_sums_accumulate_in_f32(dtype, dims, reduce_dims):
    """f16/bf16 sums are carried in f32 and rounded once at the end (compared with numpy
    doing the same; rounding at every step would be off by several 16-bit ulps)."""
    x = data(dtype, *dims)
    got = compile_text(reduce_text(dtype, dims, reduce_dims))(x)
    want = x.astype(np.float32).sum(axis=reduce_dims).astype(NUMPY[dtype])
    np.testing.assert_allclose(got.astype(np.float32), want.astype(np.float32), rtol=8e-3, atol=1e-2)


def test_max_propagates_nan():
    x = data("f32", 4, 10)
    x[2, 3] = np.nan
    got = compile_text(reduce_text("f32", (4, 10), (1,), "maximum", "-inf"))(x)
    assert np.isnan(got[2]) and not np.isnan(got[[0, 1, 3]]).any()


@pytest.mark.parametrize("library,kinds", [(False, ["reduce-partials", "reduce-combine"]),
                                           (True, ["library-reduce-partials", "library-reduce-combine"])])
def test_split_full_reduction_is_deterministic(library, kinds):
    """Chunked across threads, yet the same bits on 1 and 2 threads (generated or library kernels)."""
    x = data("f32", 1 << 20)
    text = reduce_text("f32", (1 << 20,), (0,))
    one = compile_text(text, threads=1, parallel_min_elements=1024, library=library)
    two = compile_text(text, threads=2, parallel_min_elements=1024, library=library)
    assert [k.kind for k in two.report.kernels] == kinds
    assert two.report.kernels[0].partitions == 2
    assert one(x) == two(x)
    assert abs(float(two(x)) - x.astype(np.float64).sum()) < 1e-3 * np.abs(x).sum() ** 0.5


def test_variadic_argmax():
    comps = arg_reducer("argmax", "GT")
    text = module("""
        p = f32[16,33] parameter(0)
        io = s32[16,33] iota(), iota_dimension=1
        vi = f32[] constant(-inf)
        ii = s32[] constant(0)
        r = (f32[16], s32[16]) reduce(p, io, vi, ii), dimensions={1}, to_apply=argmax
    """, comps)
    check_against_evaluator(text, [data("f32", 16, 33)], rtol=0, atol=0)


def test_reduce_inside_loop_fusion():
    """A reduce in the middle of a fusion is emitted elementally (an inner loop)."""
    comps = reducer("add", "add", "f32") + """
fused {
  p = f32[12,20] parameter(0)
  z = f32[] constant(0)
  s = f32[12] reduce(p, z), dimensions={1}, to_apply=add
  b = f32[12,20] broadcast(s), dimensions={0}
  ROOT d = f32[12,20] subtract(p, b)
}
"""
    text = module("p = f32[12,20] parameter(0)\nf = f32[12,20] fusion(p), kind=kLoop, calls=fused", comps)
    check_against_evaluator(text, [data("f32", 12, 20)], rtol=1e-5, atol=1e-5, pipeline="none")


DOTS = {
    "matmul": ("f32[33,17]", "f32[17,29]", "f32[33,29]", "lhs_contracting_dims={1}, rhs_contracting_dims={0}"),
    "lhs_transposed": ("f32[17,33]", "f32[17,29]", "f32[33,29]", "lhs_contracting_dims={0}, rhs_contracting_dims={0}"),
    "rhs_transposed": ("f32[33,17]", "f32[29,17]", "f32[33,29]", "lhs_contracting_dims={1}, rhs_contracting_dims={1}"),
    "batched": ("f32[3,8,5]", "f32[3,5,7]", "f32[3,8,7]",
                "lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={1}"),
    "matvec": ("f64[6,9]", "f64[9]", "f64[6]", "lhs_contracting_dims={1}, rhs_contracting_dims={0}"),
    "vecvec": ("f32[9]", "f32[9]", "f32[]", "lhs_contracting_dims={0}, rhs_contracting_dims={0}"),
    "outer": ("f32[4,1]", "f32[1,6]", "f32[4,6]", "lhs_contracting_dims={1}, rhs_contracting_dims={0}"),
    "int": ("s32[7,5]", "s32[5,3]", "s32[7,3]", "lhs_contracting_dims={1}, rhs_contracting_dims={0}"),
    "bf16": ("bf16[7,5]", "bf16[5,3]", "f32[7,3]", "lhs_contracting_dims={1}, rhs_contracting_dims={0}"),
    "batch_not_leading": ("f32[5,3,4]", "f32[3,4,6]", "f32[3,5,6]",
                          "lhs_batch_dims={1}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={1}"),
}


def _shape(text):
    dtype, dims = text.split("[")
    return dtype, tuple(int(d) for d in dims.rstrip("]").split(",") if d)


@pytest.mark.parametrize("name", sorted(DOTS))
@pytest.mark.parametrize("dot", ["blas", "loops"])
def test_dots(name, dot):
    lhs, rhs, out, dims = DOTS[name]
    text = module(f"a = {lhs} parameter(0)\nb = {rhs} parameter(1)\nd = {out} dot(a, b), {dims}")
    (ld, ls), (rd, rs) = _shape(lhs), _shape(rhs)
    args = [data(ld, *ls), data(rd, *rs)]
    tol = 1e-2 if "bf16" in name else 1e-5
    exe = check_against_evaluator(text, args, rtol=tol, atol=tol, dot=dot)
    if dot == "loops":
        assert all(k.kind != "dot-blas" for k in exe.report.kernels)


def test_dot_with_bias_epilogue_in_place():
    """dot + broadcast add in one fusion: BLAS writes the output, the epilogue runs in place."""
    comps = """
fused {
  a = f32[16,8] parameter(0)
  b = f32[8,12] parameter(1)
  c = f32[12] parameter(2)
  d = f32[16,12] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  e = f32[16,12] broadcast(c), dimensions={1}
  ROOT s = f32[16,12] add(d, e)
}
"""
    text = module("a = f32[16,8] parameter(0)\nb = f32[8,12] parameter(1)\nc = f32[12] parameter(2)\n"
                  "f = f32[16,12] fusion(a, b, c), kind=kOutput, calls=fused", comps)
    exe = check_against_evaluator(text, [data("f32", 16, 8), data("f32", 8, 12), data("f32", 12)],
                                  rtol=1e-5, atol=1e-5, pipeline="none")
    assert [k.kind for k in exe.report.kernels] == ["dot-blas", "loop"]


def test_dot_used_twice_in_a_fusion_goes_to_scratch():
    """A dot read at other positions too (here by a row sum) is computed into scratch space
    first; writing it into the output in place would corrupt what the sum reads."""
    comps = reducer("add", "add", "f32") + """
fused {
  a = f32[16,8] parameter(0)
  b = f32[8,12] parameter(1)
  d = f32[16,12] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  z = f32[] constant(0)
  s = f32[16] reduce(d, z), dimensions={1}, to_apply=add
  e = f32[16,12] broadcast(s), dimensions={0}
  ROOT r = f32[16,12] subtract(d, e)
}
"""
    text = module("a = f32[16,8] parameter(0)\nb = f32[8,12] parameter(1)\n"
                  "f = f32[16,12] fusion(a, b), kind=kOutput, calls=fused", comps)
    exe = check_against_evaluator(text, [data("f32", 16, 8), data("f32", 8, 12)], rtol=1e-5, atol=1e-5,
                                  pipeline="none")
    assert [k.kind for k in exe.report.kernels] == ["dot-blas", "loop"]
    assert exe.report.kernels[0].buffers[-1].startswith("arena")  # not the output
