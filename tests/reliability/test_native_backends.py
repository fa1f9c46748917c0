"""Random modules through the native backends: the CPU executable agrees with the evaluator,
the GPU backend's PTX is accepted by ptxas, and its kernels, run on the CPU emulator of the
GPU thread model (tests/gpu/emulator.py), agree with the evaluator too.

Both are written against `hloscope.compile(module, backend=...)` and skip, with the reason,
only while that entry point (or ptxas, or the GPU backend) is missing.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import generators
import numpy as np
import pytest
from fuzz_profile import fuzz_settings
from fuzz_values import assert_matches_evaluator
from hlo_strategies import hlo_cases
from hypothesis import given
from wrappers import inside_a_conditional

import hloscope

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "gpu"))
from emulator import emulated_executable  # noqa: E402

pytestmark = pytest.mark.fuzz


@fuzz_settings(scale=0.5)
@given(hlo_cases(smooth=True))
def test_cpu_executable_matches_the_evaluator(case):
    """Same results as the evaluator: ints and preds exactly, floats within NATIVE_TOLERANCE
    (the loosest float type in the module decides, as its rounding spreads downstream)."""
    args = case.arguments()
    got = hloscope.compile(case.module, backend="cpu")(*args)
    assert_matches_evaluator(case.module, args, got, where="cpu vs evaluator")


def _ptx_of(exe) -> str:
    """The PTX text a GPU executable was built from (its compile report keeps it)."""
    ptx = getattr(getattr(exe, "report", None), "ptx", None)
    assert isinstance(ptx, str) and ptx, "a GPU executable's report should keep its PTX text as report.ptx"
    return ptx


@fuzz_settings(scale=0.25)
@given(hlo_cases(smooth=True))
def test_gpu_ptx_is_accepted_by_ptxas(case):
    ptxas = shutil.which("ptxas")
    if ptxas is None:
        pytest.skip("ptxas is not on PATH (it is optional: the CUDA toolkit's)")
    exe = hloscope.compile(case.module, backend="gpu")
    ptx = _ptx_of(exe)
    target = re.search(r"^\s*\.target\s+(sm_\d+\w*)", ptx, re.M)
    arch = ["-arch", target.group(1)] if target else []
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "module.ptx"
        path.write_text(ptx)
        run = subprocess.run([ptxas, *arch, str(path), "-o", str(path.with_suffix(".cubin"))],
                             capture_output=True, text=True, timeout=60)  # fmt: skip
    assert run.returncode == 0, f"ptxas refused the PTX:\n{run.stderr}"


@fuzz_settings(scale=0.5)
@given(hlo_cases(smooth=True))
def test_gpu_kernels_match_the_evaluator_on_the_emulator(case):
    """The GPU kernels' index arithmetic, grid-stride loops, shuffles and barriers, and the
    executable's arena and copies, on random modules."""
    args = case.arguments()
    got = emulated_executable(case.module)(*args)
    assert_matches_evaluator(case.module, args, got, where="gpu (emulated) vs evaluator")


@fuzz_settings(scale=0.25)
@given(hlo_cases(smooth=True))
def test_kernels_inside_a_conditional_match_the_evaluator(case):
    """Both native backends, with the random computation as a branch."""
    module = inside_a_conditional(case.module)
    args = [*case.arguments(), np.bool_(case.seed % 2)]
    cpu = hloscope.compile(module, backend="cpu", cache=False)(*args)
    assert_matches_evaluator(module, args, cpu, where="cpu, in a branch")
    assert_matches_evaluator(module, args, emulated_executable(module)(*args), where="gpu (emulated), in a branch")


# ---- regressions ----


def test_regression_arena_space_outside_the_plan_does_not_overlap_it():
    """buffers.py gave values the memory plan did not place (a multi-output fusion's
    elements) arena space just past the largest offset placed so far, where values the plan
    placed later still lived: a 6-layer branchy module computed wrong values (found while
    checking benchmarks/large_graphs.py's branchy module against the evaluator)."""
    module = hloscope.parse_hlo(generators.make_branchy_module(180))
    rng = np.random.default_rng(0)
    args = [rng.uniform(-1, 1, (64, 128)).astype(np.float32), rng.uniform(-1, 1, 128).astype(np.float32),
            rng.uniform(-1, 1, (128, 128)).astype(np.float32) / 64]  # fmt: skip
    got = hloscope.compile(module, backend="cpu", cache=False)(*args)
    assert_matches_evaluator(module, args, got, where="branchy module")
