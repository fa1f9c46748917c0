"""GPU sin/cos/tan of huge arguments: the same branchless Payne-Hanek reduction as on the CPU
(backend/mathlib/payne_hanek.py), run on the emulator and assembled by ptxas."""

import numpy as np
import pytest

from emulator import emulated_executable
from gpu_helpers import compile_gpu, module, needs_ptxas

NP = {"f32": np.float32, "f64": np.float64}
REF = {"sine": np.sin, "cosine": np.cos, "tan": np.tan}


def huge_arguments(dtype):
    rng = np.random.default_rng(3)
    top = 38.5 if dtype == "f32" else 308.2
    x = 10.0 ** rng.uniform(4, top, 3000) * rng.choice([-1.0, 1.0], 3000)
    return np.concatenate([x, [1e9, 8.9e18, np.inf, np.nan]]).astype(NP[dtype])


def text_for(dtype, n):
    return module(f"p = {dtype}[{n}] parameter(0)\ns = {dtype}[{n}] sine(p)\nc = {dtype}[{n}] cosine(p)\n"
                  f"t = {dtype}[{n}] tan(p)\nr = ({dtype}[{n}], {dtype}[{n}], {dtype}[{n}]) tuple(s, c, t)")


@pytest.mark.parametrize("dtype", ["f32", "f64"])
def test_huge_arguments_emulated(dtype):
    x = huge_arguments(dtype)
    got = emulated_executable(text_for(dtype, x.size))(x)
    eps = np.finfo(NP[dtype]).eps
    for g, op in zip(got, ("sine", "cosine", "tan")):
        with np.errstate(invalid="ignore"):  # inf -> NaN
            want = REF[op](x.astype(np.float64))
        scale = np.maximum(np.abs(want), 1.0)  # tan can be huge; sin and cos are within 1
        np.testing.assert_allclose(g[:-2] / scale[:-2], want[:-2] / scale[:-2], rtol=0, atol=4 * eps, err_msg=op)
        assert np.isnan(g[-2:]).all(), op


@needs_ptxas
@pytest.mark.parametrize("dtype", ["f32", "f64"])
def test_trig_kernels_assemble(dtype):
    ptxas = compile_gpu(text_for(dtype, 4096)).report.ptxas
    assert ptxas is not None and ptxas.ok, ptxas and ptxas.log
