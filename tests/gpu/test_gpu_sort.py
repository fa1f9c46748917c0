"""sort on the GPU (backend/gpu/sort_kernel.py): a bitonic network per row, run on the CPU
emulator against the evaluator (every barrier between steps exercised), and through ptxas."""

from pathlib import Path

import numpy as np
import pytest

from gpu_helpers import RNG, compile_gpu, data, emulated_check, module, needs_ptxas

JAX_ARGSORT = (Path(__file__).resolve().parents[1] / "hlo_samples" / "jax_argsort.hlo").read_text()


def less(dtype: str, direction: str = "LT") -> str:
    return (f"less {{\n  a = {dtype}[] parameter(0)\n  b = {dtype}[] parameter(1)\n"
            f"  ROOT lt = pred[] compare(a, b), direction={direction}\n}}\n")


def test_jax_argsort_with_nans_and_ties():
    x = RNG.integers(0, 5, (4, 50)).astype(np.float32)
    x[0, [3, 17]] = np.nan
    x[2, 7] = -0.0
    exe = emulated_check(JAX_ARGSORT, [x])
    np.testing.assert_array_equal(exe(x), np.argsort(x, axis=1, kind="stable"))
    assert "sort-bitonic" in [k.kind for k in exe.report.kernels]


@pytest.mark.parametrize("n", [0, 1, 2, 3, 31, 64, 65, 300])
def test_lengths_around_powers_of_two(n):
    """Padding positions must sort after every real one, and never be read."""
    text = module(f"""
        x = s32[3,{n}] parameter(0)
        s = s32[3,{n}] sort(x), dimensions={{1}}, is_stable=true, to_apply=less
    """, less("s32", "GT"))
    emulated_check(text, [RNG.integers(-9, 9, (3, n)).astype(np.int32)])


@pytest.mark.parametrize("dtype", ["f64", "bf16", "u8", "s64", "pred"])
def test_types(dtype):
    text = module(f"""
        x = {dtype}[2,40] parameter(0)
        s = {dtype}[2,40] sort(x), dimensions={{1}}, is_stable=true, to_apply=less
    """, less(dtype))
    emulated_check(text, [data(dtype, 2, 40)])


def test_two_operands_by_a_descending_key_stay_stable():
    """A bitonic network is not stable by itself: the position tie-break makes it so."""
    text = module("""
        k = s32[2,70] parameter(0)
        v = f32[2,70] parameter(1)
        s = (s32[2,70], f32[2,70]) sort(k, v), dimensions={1}, is_stable=true, to_apply=by_key
    """, """
by_key {
  k0 = s32[] parameter(0)
  k1 = s32[] parameter(1)
  v0 = f32[] parameter(2)
  v1 = f32[] parameter(3)
  ROOT gt = pred[] compare(k0, k1), direction=GT
}
""")
    k = RNG.integers(0, 3, (2, 70)).astype(np.int32)
    v = np.arange(140, dtype=np.float32).reshape(2, 70)
    got_k, got_v = emulated_check(text, [k, v])(k, v)
    order = np.argsort(-k, axis=1, kind="stable")
    np.testing.assert_array_equal(got_v, np.take_along_axis(v, order, axis=1))


def test_sort_along_a_major_dimension():
    text = module("""
        x = f32[33,2,3] parameter(0)
        s = f32[33,2,3] sort(x), dimensions={0}, is_stable=true, to_apply=less
    """, less("f32"))
    emulated_check(text, [data("f32", 33, 2, 3)])


@needs_ptxas
def test_longest_row_assembles_and_a_longer_one_is_refused_by_name():
    text = module("""
        x = f32[2,8192] parameter(0)
        s = f32[2,8192] sort(x), dimensions={1}, is_stable=true, to_apply=less
    """, less("f32"))
    report = compile_gpu(text).report
    assert report.ptxas.ok, report.ptxas.log
    (kernel,) = report.kernels
    assert kernel.block == (1024, 1, 1) and kernel.shared_bytes == 4 * 8192
    from hloscope.errors import NotSupportedError

    with pytest.raises(NotSupportedError, match="not supported on gpu: sort of rows longer than 8192"):
        compile_gpu(text.replace("8192", "8193"), ptxas=False)
