"""scatter and select-and-scatter on the GPU (backend/gpu/scatter_kernel.py,
select_scatter_kernel.py): the recorded JAX cases and small edge cases, run on the CPU
emulator against the evaluator (and JAX's outputs), and through ptxas with the atomics
each kind of kernel should use."""

import sys
from pathlib import Path

import numpy as np
import pytest

from gpu_helpers import RNG, compile_gpu, emulated_check, module, needs_ptxas, reducer

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scatter_cases"))
from cases import NAMES, load  # noqa: E402

KINDS = {  # the update kernel each recorded case should get, and the atomic in its PTX
    "batched_scatter_add": ("scatter-atomic", "global.add.f32"),  # f32 add: atomicrmw fadd
    "lm_loss_grad": ("scatter-atomic", "global.add.f32"),
    "scatter_max_repeats": ("scatter-atomic", "global.cas.b32"),  # f32 max: a compare-and-swap loop
    "max_pool_step": ("select-and-scatter-disjoint", None),  # 2x2 stride 2: no two windows share an element
    "overlapping_pool_grad": ("select-and-scatter-atomic", "global.add.f32"),  # 3x3 stride 2 overlap
    "take_along_axis": ("loop", None),
}


@pytest.mark.parametrize("name", NAMES)
def test_recorded_case_on_the_emulator(name):
    text, args, want = load(name)
    exe = emulated_check(text, args, rtol=2e-6, atol=1e-6)
    got = exe(*args)
    for g, w in zip(list(got) if isinstance(got, tuple) else [got], want):
        np.testing.assert_allclose(g, w, rtol=2e-6, atol=1e-6)
    assert KINDS[name][0] in [k.kind for k in exe.report.kernels]


@needs_ptxas
@pytest.mark.parametrize("name", NAMES)
def test_recorded_case_assembles_with_its_atomics(name):
    text, _, _ = load(name)
    report = compile_gpu(text).report
    assert report.ptxas.ok, report.ptxas.log
    atomics = {line.split()[0] for line in str(report.assembly).splitlines() if line.strip().startswith("atom.")}
    want = KINDS[name][1]  # the CAS comes out as atom.relaxed.sys.global.cas.b32: compare the end
    assert (atomics != set() and all(a.endswith(want) for a in atomics)) if want else atomics == set(), atomics


ROWS = """
    x = {dtype}[6,3] parameter(0)
    i = s32[7] parameter(1)
    u = {dtype}[7,3] parameter(2)
    s = {dtype}[6,3] scatter(x, i, u), update_window_dims={{1}}, inserted_window_dims={{0}}, scatter_dims_to_operand_dims={{0}}, index_vector_dim=1{flags}, to_apply=f
"""
REPEATS = np.array([4, 0, 4, 9, -1, 4, 2], np.int32)  # 4 three times; 9 and -1 are dropped


@pytest.mark.parametrize("dtype,op,kind", [
    ("s32", "maximum", "scatter-atomic"), ("u32", "minimum", "scatter-atomic"), ("f64", "add", "scatter-atomic"),
    ("s64", "add", "scatter-atomic"), ("f64", "minimum", "scatter-atomic"), ("s32", "or", "scatter-atomic"),
    ("f32", "multiply", "scatter-serial"),
    ("bf16", "add", "scatter-serial"),
    ("s8", "maximum", "scatter-serial"),
])
def test_repeated_targets_and_dropped_updates(dtype, op, kind):
    text = module(ROWS.format(dtype=dtype, flags=""), reducer("f", op, dtype))
    np_type = {"s32": np.int32, "u32": np.uint32, "f64": np.float64, "s64": np.int64, "f32": np.float32,
               "s8": np.int8}.get(dtype)
    if np_type is None:
        import ml_dtypes
        np_type = ml_dtypes.bfloat16
    x = RNG.integers(1, 5, (6, 3)).astype(np_type)
    u = RNG.integers(1, 5, (7, 3)).astype(np_type)
    exe = emulated_check(text, [x, REPEATS, u])
    assert kind in [k.kind for k in exe.report.kernels]


@needs_ptxas
@pytest.mark.parametrize("dtype,op,atom", [
    ("s32", "maximum", "max.s32"), ("u32", "minimum", "min.u32"), ("f64", "add", "add.f64"), ("s64", "add", "add.u64"),
    ("u64", "maximum", "max.u64"), ("s32", "xor", "xor.b32"), ("f64", "minimum", "cas.b64"),
])
def test_every_atomic_assembles(dtype, op, atom):
    text = module(ROWS.format(dtype=dtype, flags=""), reducer("f", op, dtype))
    report = compile_gpu(text).report
    assert report.ptxas.ok, report.ptxas.log
    atomics = {line.split()[0] for line in str(report.assembly).splitlines() if line.strip().startswith("atom.")}
    assert atomics and all(a.endswith(atom) for a in atomics), atomics


def test_replace_keeps_the_last_update_in_order():
    """A combiner with no atomic (the update replaces) runs on one thread, in the
    evaluator's order: the last of the repeated updates wins, as on the CPU."""
    text = module(ROWS.format(dtype="f32", flags=""), "f {\n  a = f32[] parameter(0)\n  ROOT b = f32[] parameter(1)\n}\n")
    u = np.arange(21, dtype=np.float32).reshape(7, 3)
    exe = emulated_check(text, [np.zeros((6, 3), np.float32), REPEATS, u])
    np.testing.assert_array_equal(exe(np.zeros((6, 3), np.float32), REPEATS, u)[4], u[5])
    (update,) = [k for k in exe.report.kernels if k.kind == "scatter-serial"]
    assert update.launch.grid == (1, 1, 1) and update.launch.block == (1, 1, 1)


def test_unique_indices_runs_in_parallel_without_atomics():
    text = module(ROWS.format(dtype="f32", flags=", unique_indices=true"), reducer("f", "multiply", "f32"))
    rows = np.array([5, 0, 3, 9, 1, -2, 2], np.int32)  # distinct; 9 and -2 are dropped
    exe = emulated_check(text, [RNG.standard_normal((6, 3)).astype(np.float32), rows,
                                RNG.standard_normal((7, 3)).astype(np.float32)])
    assert "scatter-unique" in [k.kind for k in exe.report.kernels]


def test_windows_that_do_not_fit_are_dropped_whole():
    text = module("""
        x = f32[5,6] parameter(0)
        i = s32[4,2] parameter(1)
        u = f32[4,2,3] parameter(2)
        s = f32[5,6] scatter(x, i, u), update_window_dims={1,2}, inserted_window_dims={}, scatter_dims_to_operand_dims={0,1}, index_vector_dim=1, to_apply=f
    """, reducer("f", "add", "f32"))
    starts = np.array([[0, 0], [3, 3], [4, 0], [1, 4]], np.int32)  # (4, 0) and (1, 4) do not fit
    emulated_check(text, [np.zeros((5, 6), np.float32), starts, RNG.standard_normal((4, 2, 3)).astype(np.float32)])


def test_variadic_scatter_runs_in_order():
    text = module("""
        a = f32[4] parameter(0)
        b = s32[4] parameter(1)
        i = s32[5] parameter(2)
        ua = f32[5] parameter(3)
        ub = s32[5] parameter(4)
        s = (f32[4], s32[4]) scatter(a, b, i, ua, ub), update_window_dims={}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=pair
    """, """
pair {
  a0 = f32[] parameter(0)
  b0 = s32[] parameter(1)
  a1 = f32[] parameter(2)
  b1 = s32[] parameter(3)
  s = f32[] add(a0, a1)
  m = s32[] maximum(b0, b1)
  ROOT t = (f32[], s32[]) tuple(s, m)
}
""")
    emulated_check(text, [np.zeros(4, np.float32), np.zeros(4, np.int32), np.array([1, 3, 1, 7, 0], np.int32),
                          RNG.standard_normal(5).astype(np.float32), np.array([5, -2, 9, 1, 3], np.int32)])


MIN_POOL_GRAD = """
    x = {dtype}[6,7] parameter(0)
    g = {dtype}[{out}] parameter(1)
    z = {dtype}[] constant({init})
    s = {dtype}[6,7] select-and-scatter(x, g, z), window={{size=3x3 stride={stride} pad={pad}}}, select=le, scatter=f
"""


@pytest.mark.parametrize("dtype,op,stride,pad,out,kind", [
    ("f32", "add", "3x3", "0_0x1_1", "2,3", "select-and-scatter-disjoint"),
    ("f32", "add", "1x2", "1_1x1_1", "6,4", "select-and-scatter-atomic"),
    ("s32", "maximum", "2x2", "1_1x1_1", "3,4", "select-and-scatter-atomic"),
    ("f32", "multiply", "2x1", "0_0x1_1", "2,7", "select-and-scatter-serial"),
])
def test_min_pool_gradients(dtype, op, stride, pad, out, kind):
    """select = LE (ties still to the first), any scatter, padding and overlap."""
    le = (f"le {{\n  a = {dtype}[] parameter(0)\n  b = {dtype}[] parameter(1)\n"
          f"  ROOT c = pred[] compare(a, b), direction=LE\n}}\n")
    init = "1" if op == "multiply" else "0"
    text = module(MIN_POOL_GRAD.format(dtype=dtype, out=out, init=init, stride=stride, pad=pad),
                  le + reducer("f", op, dtype))
    np_type = np.float32 if dtype == "f32" else np.int32
    shape = tuple(int(n) for n in out.split(","))
    x = RNG.integers(0, 3, (6, 7)).astype(np_type)  # ties everywhere
    g = RNG.integers(1, 4, shape).astype(np_type)
    exe = emulated_check(text, [x, g])
    assert kind in [k.kind for k in exe.report.kernels]


def test_column_major_operand_and_updates():
    """Targets are found in the operand's own layout; updates are read in theirs."""
    text = module("""
        x = f32[8,5]{0,1} parameter(0)
        i = s32[4,1] parameter(1)
        u = f32[5,4]{0,1} parameter(2)
        s = f32[8,5]{0,1} scatter(x, i, u), update_window_dims={0}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=f
    """, reducer("f", "add", "f32"))
    emulated_check(text, [RNG.standard_normal((8, 5)).astype(np.float32), np.array([[1], [6], [1], [7]], np.int32),
                          RNG.standard_normal((5, 4)).astype(np.float32)])


def test_batching_dims_after_index_vector_dim():
    """As on the CPU (tests/backend/test_select_scatter_cpu.py): the gather's elemental rule
    and the scatter kernel both skip index_vector_dim when pairing batching dims."""
    text = module("""
        x = f32[4,6] parameter(0)
        i = s32[1,4,3] parameter(1)
        u = f32[4,3] parameter(2)
        g = f32[4,3] gather(x, i), offset_dims={}, collapsed_slice_dims={1}, start_index_map={1}, operand_batching_dims={0}, start_indices_batching_dims={1}, index_vector_dim=0, slice_sizes={1,1}
        s = f32[4,6] scatter(x, i, u), update_window_dims={}, inserted_window_dims={1}, scatter_dims_to_operand_dims={1}, input_batching_dims={0}, scatter_indices_batching_dims={1}, index_vector_dim=0, to_apply=f
        r = (f32[4,3], f32[4,6]) tuple(g, s)
    """, reducer("f", "add", "f32"))
    i = np.array([[[0, 5, 0], [2, 2, 7], [1, 3, 4], [-1, 0, 0]]], np.int32)
    emulated_check(text, [RNG.standard_normal((4, 6)).astype(np.float32), i, RNG.standard_normal((4, 3)).astype(np.float32)])
