"""select-and-scatter on the CPU (backend/cpu/select_scatter_kernel.py) against the
evaluator: any select (here LE: min-pool), any scatter, padding, overlapping windows and
ties; and gathers/scatters whose batching dims come after index_vector_dim."""

import numpy as np
import pytest

from backend_helpers import check_against_evaluator, module, reducer

RNG = np.random.default_rng(15)

MIN_POOL_GRAD = """
    x = {dtype}[6,7] parameter(0)
    g = {dtype}[{out}] parameter(1)
    z = {dtype}[] constant({init})
    s = {dtype}[6,7] select-and-scatter(x, g, z), window={{size=3x3 stride={stride} pad={pad}}}, select=le, scatter=f
"""


@pytest.mark.parametrize("dtype,op,stride,pad,out", [
    ("f32", "add", "3x3", "0_0x1_1", "2,3"), ("f32", "add", "1x2", "1_1x1_1", "6,4"),
    ("s32", "maximum", "2x2", "1_1x1_1", "3,4"), ("f64", "multiply", "2x1", "0_0x1_1", "2,7"),
])
def test_min_pool_gradients(dtype, op, stride, pad, out):
    le = (f"le {{\n  a = {dtype}[] parameter(0)\n  b = {dtype}[] parameter(1)\n"
          f"  ROOT c = pred[] compare(a, b), direction=LE\n}}\n")
    init = "1" if op == "multiply" else "0"
    text = module(MIN_POOL_GRAD.format(dtype=dtype, out=out, init=init, stride=stride, pad=pad), le + reducer("f", op, dtype))
    np_type = {"f32": np.float32, "s32": np.int32, "f64": np.float64}[dtype]
    shape = tuple(int(n) for n in out.split(","))
    exe = check_against_evaluator(text, [RNG.integers(0, 3, (6, 7)).astype(np_type), RNG.integers(1, 4, shape).astype(np_type)])
    assert "select-and-scatter" in [k.kind for k in exe.report.kernels]


BATCHED_AFTER_VECTOR = """
    x = f32[4,6] parameter(0)
    i = s32[1,4,3] parameter(1)
    u = f32[4,3] parameter(2)
    g = f32[4,3] gather(x, i), offset_dims={}, collapsed_slice_dims={1}, start_index_map={1}, operand_batching_dims={0}, start_indices_batching_dims={1}, index_vector_dim=0, slice_sizes={1,1}
    s = f32[4,6] scatter(x, i, u), update_window_dims={}, inserted_window_dims={1}, scatter_dims_to_operand_dims={1}, input_batching_dims={0}, scatter_indices_batching_dims={1}, index_vector_dim=0, to_apply=f
    r = (f32[4,3], f32[4,6]) tuple(g, s)
"""


def test_batching_dims_after_index_vector_dim():
    """The indices' batching dim 1 is the scatter/gather position's dim 0 once
    index_vector_dim (0) is taken out; 7 and -1 are clamped (gather) or dropped (scatter)."""
    text = module(BATCHED_AFTER_VECTOR, reducer("f", "add", "f32"))
    i = np.array([[[0, 5, 0], [2, 2, 7], [1, 3, 4], [-1, 0, 0]]], np.int32)
    check_against_evaluator(text, [RNG.standard_normal((4, 6)).astype(np.float32), i,
                                   RNG.standard_normal((4, 3)).astype(np.float32)])
