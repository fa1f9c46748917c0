"""Bad arguments never crash the process: each entry point runs in a child process
(bad_arguments_child.py) that calls it with every bad input and prints OK per case.

A crash in native code would kill the child, so the parent checks the return code and that
every case printed OK: wrong shapes, dtypes and counts get a clear error; data that is right
but oddly laid out (non-contiguous, read-only, aliased, misaligned) is either refused
clearly or gives the right values without touching the inputs.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import hloscope

CHILD = Path(__file__).with_name("bad_arguments_child.py")
REPO = Path(__file__).resolve().parents[2]


def run_child(target: str) -> None:
    from bad_arguments_child import CASES

    run = subprocess.run([sys.executable, str(CHILD), target], cwd=REPO, capture_output=True, text=True, timeout=300)
    lines = run.stdout.splitlines()
    assert run.returncode == 0, f"the child process died (return code {run.returncode}):\n{run.stdout}\n{run.stderr}"
    bad = [line for line in lines if not line.startswith("OK ")]
    assert not bad, "\n".join(bad)
    done = {line[3:].split(" -- ")[0] for line in lines}
    assert done == set(CASES), f"cases without an OK: {sorted(set(CASES) - done)}"


def test_evaluate_survives_bad_arguments():
    run_child("evaluate")


def test_jit_survives_bad_arguments():
    run_child("jit")


def test_cpu_executable_survives_bad_arguments():
    run_child("cpu")


def test_regression_jit_refuses_a_python_int_past_s64_before_tracing():
    """A Python int argument traces as a weak s64; one past its range was traced and cached,
    then failed in numpy with "Python int too large to convert to C long"."""
    f = hloscope.jit(lambda x, y: x * y)
    with pytest.raises(OverflowError, match="does not fit in s64"):
        f(10**100, np.float32(2))
    assert f.cache_info().misses == 0
    assert f(2**63 - 1, 1) == 2**63 - 1
