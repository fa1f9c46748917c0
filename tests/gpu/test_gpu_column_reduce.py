"""Column reductions on the GPU (backend/gpu/column_reduce.py), on the CPU emulator against
the evaluator: a thread per column, with and without the rows split into chunks."""

import numpy as np
import pytest

from hlo_text import arg_reducer
from gpu_helpers import RNG, compile_gpu, data, emulated_check, module, needs_ptxas, reducer

ARGMIN = arg_reducer("argmin", "LT")


def kinds(exe) -> list[str]:
    return [k.kind for k in exe.report.kernels]


@pytest.mark.parametrize("rows,columns,split", [(1000, 64, True), (40, 300, False), (64, 4096, False),
                                                (2000, 33, True), (129, 1000, True)])
def test_column_sums(rows, columns, split):
    text = module(f"""
        x = f32[{rows},{columns}] parameter(0)
        z = f32[] constant(0)
        r = f32[{columns}] reduce(x, z), dimensions={{0}}, to_apply=add
    """, reducer("add", "add", "f32"))
    exe = emulated_check(text, [data("f32", rows, columns)], rtol=1e-4, atol=1e-4)
    assert kinds(exe) == ["column-reduce"] * (2 if split else 1)


@pytest.mark.parametrize("dtype,op,init", [("f32", "maximum", "-inf"), ("s32", "add", "7"), ("f64", "add", "0.5"),
                                           ("bf16", "maximum", "3"), ("u64", "minimum", "40"), ("pred", "or", "false"),
                                           ("s8", "maximum", "-100")])
def test_types_and_init_applied_once(dtype, op, init):
    """init is not the reducer's identity in several cases: it must be applied once, after
    the chunks are combined, not once per chunk."""
    text = module(f"""
        x = {dtype}[700,96] parameter(0)
        z = {dtype}[] constant({init})
        r = {dtype}[96] reduce(x, z), dimensions={{0}}, to_apply=red
    """, reducer("red", op, dtype))
    exe = emulated_check(text, [data(dtype, 700, 96)])
    assert kinds(exe) == ["column-reduce", "column-reduce"]


def test_reduced_dimensions_between_kept_ones():
    """[O, R, I] with O and I both kept and two reduced dimensions in between."""
    text = module("""
        x = f32[3,20,5,48] parameter(0)
        z = f32[] constant(0)
        r = f32[3,48] reduce(x, z), dimensions={1,2}, to_apply=add
    """, reducer("add", "add", "f32"))
    exe = emulated_check(text, [data("f32", 3, 20, 5, 48)], rtol=1e-4, atol=1e-4)
    assert set(kinds(exe)) == {"column-reduce"}


def test_column_layout_other_than_row_major():
    """A {0,1} parameter arrives row-major like every array (layout-normalization runs
    before the kernels are chosen), so reducing dimension 1 is a row reduction."""
    text = module("""
        x = f32[64,500]{0,1} parameter(0)
        z = f32[] constant(0)
        r = f32[64] reduce(x, z), dimensions={1}, to_apply=add
    """, reducer("add", "add", "f32"))
    exe = emulated_check(text, [data("f32", 64, 500)], rtol=1e-4, atol=1e-4)
    assert set(kinds(exe)) == {"row-reduce"}
    assert exe.report.optimized_module.entry_computation.parameters[0].array_shape.layout == (1, 0)


def test_argmin_down_the_columns():
    """A variadic reduce (value and index), split: the partials carry both, and ties keep
    the lower row, as a sequential scan would."""
    text = module("""
        x = f32[640,40] parameter(0)
        i = s32[640,40] iota(), iota_dimension=0
        big = f32[] constant(inf)
        zero = s32[] constant(0)
        r = (f32[40], s32[40]) reduce(x, i, big, zero), dimensions={0}, to_apply=argmin
    """, ARGMIN)
    x = RNG.integers(0, 5, (640, 40)).astype(np.float32)  # many ties
    exe = emulated_check(text, [x])
    assert kinds(exe)[-2:] == ["column-reduce", "column-reduce"]


def test_fused_producer_sibling_reduces_and_side_output():
    """One fusion: exp(x) written out, and its column sum and max (two heroes), in the same
    pass over the input; the split keeps every element visited exactly once."""
    text = module("""
        x = f32[512,64] parameter(0)
        e = f32[512,64] exponential(x)
        zero = f32[] constant(0)
        low = f32[] constant(-inf)
        s = f32[64] reduce(e, zero), dimensions={0}, to_apply=add
        m = f32[64] reduce(e, low), dimensions={0}, to_apply=max
        t = (f32[512,64], f32[64], f32[64]) tuple(e, s, m)
    """, reducer("add", "add", "f32") + reducer("max", "maximum", "f32"))
    exe = emulated_check(text, [data("f32", 512, 64)], rtol=1e-4, atol=1e-4)
    assert "column-reduce" in kinds(exe)


@needs_ptxas
def test_column_kernels_assemble():
    text = module("""
        x = f32[4096,1024] parameter(0)
        z = f32[] constant(0)
        r = f32[1024] reduce(x, z), dimensions={0}, to_apply=add
    """, reducer("add", "add", "f32"))
    report = compile_gpu(text).report
    assert report.ptxas.ok, report.ptxas.log
    partials, combine = report.kernels
    assert partials.grid == (4, 128, 1)  # 4 tiles of 256 columns x 128 chunks of 32 rows: 512 blocks
    assert partials.ptxas.spill_stores == 0 and partials.ptxas.shared_bytes == 0
