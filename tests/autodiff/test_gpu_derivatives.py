"""Derivatives on the GPU target without a GPU: the training programs' gradients (and a few
cases whose backward pass has its own kernels: scatter-add, select-and-scatter, sort, loops
and conditionals driven by the host) compile to PTX, and their kernels run on the CPU
emulator of the GPU thread model (tests/gpu/emulator.py) against the reference evaluator."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import numpy as np
import pytest
from autodiff_cases import BY_NAME, NUMPY
from autodiff_models import DIM, SEQ, block_loss, block_params, mlp_params, sgd_step

import hloscope
from hloscope.evaluator import evaluate

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "gpu"))
from emulator import emulated_executable  # noqa: E402  (tests/gpu's emulator)

RNG = np.random.default_rng(0)


def _programs():
    x, y = RNG.standard_normal((32, 8)).astype(np.float32), RNG.standard_normal((32, 4)).astype(np.float32)
    bx, bt = (RNG.standard_normal((SEQ, DIM)).astype(np.float32) for _ in range(2))
    yield "mlp_sgd_step", hloscope.jit(sgd_step(np, hloscope.value_and_grad)), (mlp_params(RNG), x, y)
    yield "transformer_block_grad", hloscope.jit(hloscope.value_and_grad(
        lambda p, x, t: block_loss(np, p, x, t))), (block_params(RNG), bx, bt)
    for name in ["advanced_indexing_gather", "cummax_cummin", "sort", "cond_inside_fori_loop", "switch"]:
        case = BY_NAME[name]
        yield name, hloscope.jit(hloscope.grad(case.make(NUMPY), argnums=case.argnums)), case.args_as(np.float32)


PROGRAMS = {name: (jitted, args) for name, jitted, args in _programs()}


@pytest.mark.large
@pytest.mark.parametrize("name", list(PROGRAMS))
def test_derivative_runs_on_the_emulated_gpu(name):
    jitted, args = PROGRAMS[name]
    module, _, flat = jitted.specialize(*args)
    exe = emulated_executable(module)
    got, want = exe(*flat), evaluate(module, *flat)
    got, want = (list(v) if isinstance(v, (list, tuple)) else [v] for v in (got, want))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("name", ["mlp_sgd_step", "transformer_block_grad"])
def test_training_program_compiles_to_ptx(name):
    jitted, args = PROGRAMS[name]
    exe = hloscope.compile(jitted.lower(*args), backend="gpu")
    assert exe.report.kernels and ".entry" in exe.report.assembly
    if shutil.which("ptxas"):  # optional tool: where it is installed, it must accept every kernel
        ptxas = next(s for s in exe.report.stages if s.name == "ptxas")
        assert ptxas.status == "done" and "accepted" in (ptxas.note or ""), ptxas.note
