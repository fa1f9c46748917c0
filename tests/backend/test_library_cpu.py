"""The CPU's precompiled library (hloscope/backend/cpu/library/): which kernels take it, that
its results match the evaluator, and that every path that links code finds it."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import hloscope
from backend_helpers import NUMPY, check_against_evaluator, check_by_error_model, compile_text, module, reducer
from hlo_text import reduce_text
from hloscope.backend.cpu.fast.library import loader
from hloscope.backend.cpu.fast.library.source import symbols

RNG = np.random.default_rng(7)
ROOT = Path(__file__).resolve().parents[2]
LIBRARY_KINDS = {"library-reduce", "library-reduce-partials", "library-reduce-combine", "library-conv"}


def kinds(exe) -> list[str]:
    return [k.kind for k in exe.report.kernels]


@pytest.mark.hosts
@pytest.mark.parametrize("dtype", ["f32", "f64"])
@pytest.mark.parametrize("op,init", [("add", "0"), ("add", "2.5"), ("maximum", "-inf"), ("minimum", "inf"),
                                     ("maximum", "0")])
@pytest.mark.parametrize("dims,reduce_dims", [((37, 300), (1,)), ((3, 5, 70), (1, 2)), ((3, 5, 70), (2,)),
                                              ((1000,), (0,))])
def test_reductions_match_the_evaluator(dtype, op, init, dims, reduce_dims):
    x = RNG.standard_normal(dims).astype(NUMPY[dtype])
    exe = check_against_evaluator(reduce_text(dtype, dims, reduce_dims, op, init), [x], rtol=1e-5, atol=1e-4)
    assert kinds(exe) == ["library-reduce"]
    assert exe.report.kernels[0].notes[0].startswith("calls hloscope's library kernel hloscope_reduce_")


@pytest.mark.hosts
@pytest.mark.parametrize("op,init", [("add", "3"), ("maximum", "-inf"), ("minimum", "0.25")])
def test_split_full_reduction_counts_the_initial_value_once(op, init):
    """Chunks start from the op's identity, the combine from the reduce's initial value; the
    generated split (library=False) agrees."""
    x = RNG.standard_normal(1 << 20).astype(np.float32)
    text = reduce_text("f32", (1 << 20,), (0,), op, init)
    want = hloscope.evaluate(hloscope.parse_hlo(text), x)
    for library in (True, False):
        exe = compile_text(text, threads=2, parallel_min_elements=1024, library=library)
        assert bool(library) == ("library-reduce-partials" in kinds(exe))
        np.testing.assert_allclose(exe(x), want, rtol=1e-4, atol=1e-2)


@pytest.mark.hosts
def test_nan_propagates_through_the_library_maximum():
    x = RNG.standard_normal((6, 50)).astype(np.float32)
    x[4, 17] = np.nan
    got = compile_text(reduce_text("f32", (6, 50), (1,), "maximum", "-inf"))(x)
    assert np.isnan(got[4]) and not np.isnan(np.delete(got, 4)).any()


@pytest.mark.parametrize("why,text,options", [
    ("a column reduction", reduce_text("f32", (300, 64), (0,)), {}),
    ("a 16-bit float", reduce_text("f16", (64, 20), (1,)), {}),
    ("a multiply", reduce_text("f32", (64, 30), (1,), "multiply", "1"), {}),
    ("strict sums", reduce_text("f32", (64, 300), (1,)), {"reassociate_reductions": False}),
    ("the option off", reduce_text("f32", (64, 300), (1,)), {"library": False}),
    ("a fused producer", module("""
        p = f32[64,300] parameter(0)
        e = f32[64,300] exponential(p)
        z = f32[] constant(0)
        r = f32[64] reduce(e, z), dimensions={1}, to_apply=add
    """, reducer("add", "add", "f32")), {}),
])
def test_what_the_library_does_not_take(why, text, options):
    exe = compile_text(text, **options)
    assert not LIBRARY_KINDS & set(kinds(exe)), why
    shape = hloscope.parse_hlo(text).entry_computation.parameters[0].array_shape
    x = RNG.standard_normal(shape.dims).astype(NUMPY[shape.dtype])
    want = hloscope.evaluate(hloscope.parse_hlo(text), x)
    tolerance = 3e-2 if shape.dtype == "f16" else 2e-3  # f16 sums round differently, step by step
    np.testing.assert_allclose(np.asarray(exe(x), np.float64), np.asarray(want, np.float64),
                               rtol=tolerance, atol=tolerance)


@pytest.mark.hosts
@pytest.mark.parametrize("case", [
    # (dtype, input NHWC, window, kernel HW, output NHWC)
    ("f32", (1, 9, 9, 16), "size=3x3 pad=1_1x1_1", (3, 3), (1, 9, 9, 16)),
    ("f32", (2, 11, 8, 24), "size=5x3 stride=2x1 pad=2_1x0_2", (5, 3), (2, 5, 8, 24)),
    ("f32", (1, 12, 12, 8), "size=3x3 pad=2_2x2_2 rhs_dilate=2x2", (3, 3), (1, 12, 12, 8)),
    ("f64", (1, 7, 6, 5), "size=2x2 stride=2x2", (2, 2), (1, 3, 3, 5)),
    # every block width: 64 + 16 features in registers and 3 one by one (f32), 32 + 5 (f64)
    ("f32", (2, 6, 7, 83), "size=3x3 pad=1_1x1_1", (3, 3), (2, 6, 7, 83)),
    ("f64", (1, 5, 5, 37), "size=3x3 pad=1_1x1_1", (3, 3), (1, 5, 5, 37)),
])
def test_depthwise_convolutions_match_the_evaluator(case):
    dtype, (n, h, w, c), window, (kh, kw), out = case
    text = module(f"""
        x = {dtype}[{n},{h},{w},{c}] parameter(0)
        k = {dtype}[{kh},{kw},1,{c}] parameter(1)
        r = {dtype}[{','.join(map(str, out))}] convolution(x, k), window={{{window}}}, dim_labels=b01f_01io->b01f, feature_group_count={c}
    """)
    args = [RNG.standard_normal((n, h, w, c)).astype(NUMPY[dtype]),
            RNG.standard_normal((kh, kw, 1, c)).astype(NUMPY[dtype])]
    exe = check_against_evaluator(text, args, rtol=1e-5, atol=1e-5)
    assert kinds(exe) == ["library-conv"]
    assert "depthwise, the library's kernel" in exe.report.kernels[0].notes[0]


@pytest.mark.hosts
@pytest.mark.parametrize("case", [
    # (dtype, input NHWC, window, kernel HW, in -> out features, output NHWC, threads)
    ("f32", (1, 9, 9, 16), "size=3x3 pad=1_1x1_1", (3, 3), 24, (1, 9, 9, 24), 1),
    ("f32", (2, 11, 8, 12), "size=5x3 stride=2x1 pad=2_1x0_2", (5, 3), 20, (2, 5, 8, 20), 2),
    ("f32", (1, 12, 12, 8), "size=3x3 pad=2_2x2_2 rhs_dilate=2x2", (3, 3), 8, (1, 12, 12, 8), 2),
    ("f32", (3, 30, 7, 9), "size=3x3 pad=1_1x1_1", (3, 3), 33, (3, 30, 7, 33), 3),  # blocks and partitions uneven
    ("f64", (1, 7, 6, 10), "size=2x2 stride=2x2", (2, 2), 12, (1, 3, 3, 12), 2),
])
def test_im2col_convolutions_match_the_evaluator(case):
    dtype, (n, h, w, c), window, (kh, kw), o, out, threads = case
    text = module(f"""
        x = {dtype}[{n},{h},{w},{c}] parameter(0)
        k = {dtype}[{kh},{kw},{c},{o}] parameter(1)
        r = {dtype}[{','.join(map(str, out))}] convolution(x, k), window={{{window}}}, dim_labels=b01f_01io->b01f
    """)
    args = [RNG.standard_normal((n, h, w, c)).astype(NUMPY[dtype]),
            RNG.standard_normal((kh, kw, c, o)).astype(NUMPY[dtype])]
    exe = check_against_evaluator(text, args, rtol=1e-5, atol=1e-5, threads=threads, parallel_min_elements=1)
    assert kinds(exe) == ["library-conv"]
    assert "hloscope_conv2d_gemm" in exe.report.kernels[0].notes[1]


def test_repeated_convolutions_share_one_kernel_and_its_scratch():
    """A network's repeated layers: a later convolution calls the earlier one's function with
    its own operands and the earlier one's im2col scratch (they run one after the other)."""
    text = module("""
        x = f32[1,16,16,16] parameter(0)
        k = f32[3,3,16,16] parameter(1)
        a = f32[1,16,16,16] convolution(x, k), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f
        b = f32[1,16,16,16] convolution(a, k), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f
        c = f32[1,16,16,16] convolution(b, k), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f
        d = f32[1,16,16,16] convolution(c, k), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f
    """)
    args = [RNG.standard_normal((1, 16, 16, 16)).astype(np.float32),
            (RNG.standard_normal((3, 3, 16, 16)) / 12).astype(np.float32)]  # about unit values at every layer
    for library in (True, False):
        exe = check_against_evaluator(text, args, rtol=1e-4, atol=1e-4, library=library, threads=2,
                                      parallel_min_elements=1)
        second, third = exe.report.kernels[1:3]  # both read and write the arena: the same code
        assert f"same code as {second.name}" in third.notes[-1], third.notes


@pytest.mark.parametrize("why,labels,x_dims,k_dims,out_dims,groups", [
    ("features not contiguous (NCHW)", "bf01_01io->bf01", (1, 8, 9, 9), (3, 3, 1, 8), (1, 8, 7, 7), 8),
    ("a channel multiplier", "b01f_01io->b01f", (1, 9, 9, 4), (3, 3, 1, 8), (1, 7, 7, 8), 4),
])
def test_other_grouped_convolutions_keep_the_direct_loops(why, labels, x_dims, k_dims, out_dims, groups):
    shape = lambda ds: f"f32[{','.join(map(str, ds))}]"  # noqa: E731
    text = module(f"""
        x = {shape(x_dims)} parameter(0)
        k = {shape(k_dims)} parameter(1)
        r = {shape(out_dims)} convolution(x, k), window={{size=3x3}}, dim_labels={labels}, feature_group_count={groups}
    """)
    args = [RNG.standard_normal(x_dims).astype(np.float32), RNG.standard_normal(k_dims).astype(np.float32)]
    exe = check_against_evaluator(text, args, rtol=1e-5, atol=1e-5)
    assert kinds(exe) == ["conv-direct"], why


def test_loaded_once_with_every_symbol():
    compile_text(reduce_text("f32", (8, 40), (1,)))
    assert loader.loaded() and loader.build_seconds["kernels"] > 0
    import llvmlite.binding as llvm
    assert all(llvm.address_of_symbol(name) for name in symbols())


@pytest.mark.hosts
def test_row_chains_take_library_reductions():
    """A softmax of sines (no op of the row interpreter: backend/cpu/fast/rows/ops.py) is generated
    code; its row max is the library's, and the chain still runs it with the other two kernels."""
    text = module("""
        x = f32[512,256] parameter(0)
        ninf = f32[] constant(-inf)
        m = f32[512] reduce(x, ninf), dimensions={1}, to_apply=max
        mb = f32[512,256] broadcast(m), dimensions={0}
        d = f32[512,256] subtract(x, mb)
        e = f32[512,256] sine(d)
        zero = f32[] constant(0)
        s = f32[512] reduce(e, zero), dimensions={1}, to_apply=add
        sb = f32[512,256] broadcast(s), dimensions={0}
        y = f32[512,256] divide(e, sb)
    """, reducer("max", "maximum", "f32") + reducer("add", "add", "f32"))
    x = RNG.standard_normal((512, 256)).astype(np.float32)
    exe = check_by_error_model(text, [x])  # a row of sines may nearly cancel: its sum's order shows
    first = exe.report.kernels[0]
    assert first.kind == "library-reduce" and any("row chain" in note for note in first.notes)


def test_aot_objects_carry_their_own_code(tmp_path):
    """An object file cannot count on this process's library: its reductions are generated."""
    exe = compile_text(reduce_text("f32", (64, 300), (1,)))
    assert kinds(exe) == ["library-reduce"]
    obj, _ = exe.save_aot(tmp_path, name="rows")
    assert b"hloscope_reduce" not in obj.read_bytes()


@pytest.mark.large
def test_disk_cache_in_a_new_process_loads_the_library(tmp_path):
    """A cached object calling the library, linked in a process that has not compiled anything."""
    text = reduce_text("f32", (64, 300), (1,))
    (tmp_path / "m.hlo").write_text(text)
    script = textwrap.dedent(f"""
        import sys, numpy as np
        sys.path.insert(0, {str(ROOT)!r})
        import hloscope
        from hloscope.compiler import compile as compile_module
        m = hloscope.parse_hlo(open({str(tmp_path / 'm.hlo')!r}).read())
        exe = compile_module(m, cache_dir={str(tmp_path)!r})
        x = np.arange(64 * 300, dtype=np.float32).reshape(64, 300) / 1000
        got = exe(x)
        assert np.allclose(got, x.sum(axis=1), rtol=1e-5), got
        print(exe.report.cache, [k.kind for k in exe.report.kernels])
    """)
    runs = [subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
            for _ in range(2)]
    assert all(r.returncode == 0 for r in runs), [r.stderr[-2000:] for r in runs]
    assert runs[0].stdout.split()[0] == "miss" and runs[1].stdout.split()[0] == "disk"
    assert "library-reduce" in runs[1].stdout


@pytest.mark.large
def test_the_library_is_kept_on_disk_and_a_damaged_copy_is_rebuilt(tmp_path):
    """A fresh process links the library's parts from the cache folder; an entry whose bytes
    no longer match its checksum is built again (and the code still right)."""
    script = textwrap.dedent(f"""
        import sys, numpy as np
        from pathlib import Path
        sys.path.insert(0, {str(ROOT)!r})
        from hloscope.backend.cpu.fast.library import loader
        loader.cache_directory = Path({str(tmp_path)!r})
        import hloscope
        exe = hloscope.compile({reduce_text("f32", (64, 300), (1,))!r}, cache=False)
        x = np.arange(64 * 300, dtype=np.float32).reshape(64, 300) / 1000
        assert np.allclose(exe(x), x.sum(axis=1), rtol=1e-5)
        print(loader.from_cache["kernels"])
    """)

    def run() -> str:
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout.split()[-1]

    assert run() == "False" and run() == "True"
    (obj,) = tmp_path.glob("library-kernels-*.o")
    data = bytearray(obj.read_bytes())
    data[len(data) // 2] ^= 0xFF
    obj.write_bytes(bytes(data))
    assert run() == "False" and run() == "True"
