"""A fori_loop reversed by grad runs its forward iterations once: the loop that keeps each
iteration's carry takes the place of the loop the function ran, in the forward pass, and its
stacks are the activations the backward loop reads."""

from __future__ import annotations

import numpy as np

import hloscope
from hloscope.memory.saved_activations import saved_activations
from hloscope.memory.training_parts import classify


def loss(x, w):
    def body(i, c):
        return np.tanh(c @ w) + c

    return np.sum(hloscope.fori_loop(0, 5, body, x) ** 2)


X = np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4)
W = np.linspace(-0.5, 0.5, 16, dtype=np.float32).reshape(4, 4)


def _whiles(module):
    return [i for i in module.entry_computation.instructions if i.opcode == "while"]


def _op_name(inst):
    return inst.metadata.op_name if inst.metadata else ""


def test_the_forward_loop_runs_once_and_belongs_to_the_forward_pass():
    module = hloscope.jit(hloscope.grad(loss, argnums=(0, 1))).lower(X, W)
    whiles = _whiles(module)
    assert len(whiles) == 2  # the saving forward loop and the backward loop: no second forward run
    forward, backward = sorted(whiles, key=lambda i: "transpose(" in _op_name(i))
    assert "/jvp(loss)/" in _op_name(forward) and "transpose(jvp(loss))" in _op_name(backward)


def test_the_gradient_through_the_loop_matches_finite_differences():
    g = hloscope.jit(hloscope.grad(loss, argnums=(0, 1)))(X, W)
    x64, w64 = X.astype(np.float64), W.astype(np.float64)

    def f64(x, w):
        c = x
        for _ in range(5):
            c = np.tanh(c @ w) + c
        return np.sum(c ** 2)

    for k, (arg, grad) in enumerate(zip((x64, w64), g)):
        numeric = np.zeros_like(arg)
        for idx in np.ndindex(arg.shape):
            step = np.zeros_like(arg)
            step[idx] = 1e-6
            args = [x64, w64]
            args[k] = arg + step
            up = f64(*args)
            args[k] = arg - step
            numeric[idx] = (up - f64(*args)) / 2e-6
        np.testing.assert_allclose(grad, numeric, rtol=2e-4, atol=2e-4)


def test_the_saved_carries_are_saved_activations_of_the_compiled_step():
    report = hloscope.jit(hloscope.grad(loss, argnums=(0, 1))).compile(X, W).report
    module, plan = report.module, report.memory_plan
    parts = classify(module)
    loops = {i.name: parts[i.name].part for i in _whiles(module)}
    assert sorted(loops.values()) == ["backward", "forward"]
    saved = saved_activations(module, plan)
    stacks = [a for a in saved if loops.get(a.value) == "forward"]
    assert 5 * X.nbytes in [a.size for a in stacks]  # five iterations' carries of f32[3,4]
    assert all(parts[r].part == "backward" for a in stacks for r in a.readers)
