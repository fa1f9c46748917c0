"""Kernel times on the CPU (backend/cpu/profiling.py, step_clock.py): `exe.profile` and
`exe.kernel_times` measured inside an instrumented variant of the native code.

No timing goals (the house rule): the checks are structure (one entry per kernel of the
record, in its order, with its instruction), numbers equal to the normal executable's, and
loose sanity relations between times measured on the same run.
"""

from __future__ import annotations

import time

import numpy as np
import pytest

import hloscope
from backend_helpers import compile_text
from hloscope.backend.cpu import entry
from test_entry_steps import ARGS, PROGRAM


def _matmul_tanh_sum(x, w):
    return np.tanh(x @ w).sum(axis=1)


def _softmax(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _compile(fn, *args, **options):
    return hloscope.compile(hloscope.jit(fn).lower(*args), backend="cpu", cache=False, **options)


def _call_ms(exe, args, repeat: int = 20) -> float:
    exe(*args)
    start = time.perf_counter()
    for _ in range(repeat):
        exe(*args)
    return (time.perf_counter() - start) * 1e3 / repeat


def _check_structure(exe, times) -> None:
    """Record names and instructions, in the record's order, every time >= 0."""
    record = [(k.name, k.instruction) for k in exe.report.kernels]
    got = [(t.kernel, t.instruction) for t in times]
    assert got == [pair for pair in record if pair in set(got)]
    assert all(t.ms >= 0 for t in times)


def test_profile_of_a_few_big_kernels():
    rng = np.random.default_rng(0)
    x, w = (rng.standard_normal((512, 512)).astype(np.float32) for _ in range(2))
    exe = _compile(_matmul_tanh_sum, x, w)
    times = exe.kernel_times(x, w, repeat=10)
    _check_structure(exe, times)
    assert [t.kernel for t in times] == [k.name for k in exe.report.kernels]  # every kernel runs
    profile = exe.profile(x, w, repeat=10)
    assert [name for name, _ in profile] == [t.kernel for t in times]
    assert all(isinstance(ms, float) and ms >= 0 for _, ms in profile)
    # Loose sanity relations, not goals: the kernels' sum is within the instrumented calls
    # it was measured in, and near a call of the normal executable (the best of three tries:
    # a busy machine can stall any one measurement).
    program = exe.profiled_program()
    same_runs, call_ms = program.run((x, w), 10)
    assert sum(t.ms for t in same_runs) <= 3 * call_ms + 1.0
    assert any(sum(t.ms for t in program.run((x, w), 10)[0]) <= 3 * _call_ms(exe, (x, w), 10) + 1.0
               for _ in range(3))
    np.testing.assert_array_equal(exe.profiled_program().executable(x, w), exe(x, w))


def test_a_big_kernel_takes_longer_than_a_tiny_one():
    x = np.ones((512, 512), np.float32)
    s = np.float32(2)
    exe = _compile(lambda x, s: (x @ x, s + s), x, s)
    by_instruction = {t.instruction: t.ms for t in exe.kernel_times(x, s, repeat=5)}
    dot = next(ms for name, ms in by_instruction.items() if name.startswith("dot"))
    add = next(ms for name, ms in by_instruction.items() if name.startswith("add"))
    assert dot > add  # 134 MFLOP against one addition


@pytest.mark.parametrize("per_function", [3, 128])
def test_control_flow_and_step_functions(monkeypatch, per_function):
    """Kernels in a loop body, a condition and branches are timed inside them (a branch not
    taken: 0); step functions change nothing."""
    monkeypatch.setattr(entry, "STEPS_PER_FUNCTION", per_function)
    exe = compile_text(PROGRAM, pipeline="none")
    times = exe.kernel_times(*ARGS, repeat=3)
    _check_structure(exe, times)
    assert [t.kernel for t in times] == [k.name for k in exe.report.kernels]
    ms = {t.kernel: t.ms for t in times}
    assert ms["j"] > 0 and ms["s"] > 0  # the loop body's counter; branch 1's reduce (taken: i = 1)
    assert ms["n"] == 0 and ms["e"] == 0  # branches 0 and 2 (not taken)
    for got, want in zip(exe.profiled_program().executable(*ARGS), exe(*ARGS)):
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("library", [False, True])
def test_a_shared_call_is_shared_out(library):
    """A row chain (library=False) or row program runs softmax's kernels in one call: each
    gets a share, all name the call, and the shares add up to it."""
    x = np.random.default_rng(1).standard_normal((256, 1024)).astype(np.float32)
    exe = _compile(_softmax, x, library=library)
    times = exe.kernel_times(x, repeat=5)
    _check_structure(exe, times)
    shared = [t for t in times if t.step]
    assert len(shared) >= 2 and len({t.step for t in shared}) == 1
    program = exe.profiled_program()
    step = next(s for s in program.steps if s.step.name == shared[0].step)
    assert [k.name for k in step.kernels] == [t.kernel for t in shared]
    np.testing.assert_allclose(program.executable(x), exe(x), rtol=0, atol=0)


def test_the_normal_executable_and_caches_stay_as_they_were():
    x = np.ones((64, 64), np.float32)
    module = hloscope.jit(_softmax).lower(x)
    exe = hloscope.compile(module, backend="cpu")
    before = exe.native
    exe.profile(x, repeat=2)
    assert exe.native is before and exe.report.made() is exe
    assert "hloscope_step_ns" not in exe.report.optimized_llvm_ir
    again = hloscope.compile(module, backend="cpu")
    assert "hloscope_step_ns" not in again.report.optimized_llvm_ir
    assert exe.profiled_program() is exe.profiled_program()  # built once
