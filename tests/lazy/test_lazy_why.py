"""Why a lazy step compiled again: the cause with its line in step.why and lz.metrics(), and
how to avoid it."""

from __future__ import annotations

import numpy as np

import hloscope.lazy as lz
from hloscope.viz.lazy_steps import steps_timeline_html


def _train(steps: int, divisor) -> None:
    rng = np.random.default_rng(0)
    w = lz.tensor(rng.standard_normal((16, 4)).astype(np.float32), requires_grad=True)
    x = rng.standard_normal((32, 16)).astype(np.float32)
    y = rng.standard_normal((32, 4)).astype(np.float32)
    for step in range(steps):
        loss = np.mean((np.tanh(x @ w) - y) ** 2)
        loss.backward()
        with lz.no_grad():
            w -= 0.1 * w.grad / divisor(step)  # the 1/t schedule
        w.grad = None
        lz.mark_step()


def test_a_python_int_that_changes_every_step_recompiles_every_step_and_says_so():
    _train(5, lambda step: step + 1)  # a Python int: a constant of the graph
    m = lz.metrics()
    assert m["compiles"] == 5
    (cause, count), = m["cache_miss_causes"].items()
    assert count == 4 and cause.startswith("a Python number or static argument changed at test_lazy_why.py:")
    assert "lz.tensor(value)" in m["cache_miss_advice"][cause]
    steps = lz.steps()
    assert steps[0].why.compared_with is None
    why = steps[3].why
    assert why.compared_with == 2 and len(why.causes) == 1
    assert "divide: static arguments [3] -> [4]" in why.causes[0]
    assert "CompileCauses" in lz.metrics_report() and "4 x a Python number" in lz.metrics_report()
    assert "why it compiled" in steps_timeline_html(steps) and "static arguments [3] -&gt; [4]" in steps_timeline_html(steps)


def test_following_the_advice_compiles_once():
    _train(5, lambda step: float(step + 2))  # a float (not 0.0 or 1.0): device data, an input of one program
    m = lz.metrics()
    assert m["compiles"] == 1 and m["cache_hits"] == 4 and m["cache_miss_causes"] == {}


def test_a_batch_of_another_size_is_a_shape_cause():
    w = lz.tensor(np.ones((3, 2), np.float32))
    for rows in (8, 8, 5):
        out = np.tanh(np.ones((rows, 3), np.float32) @ w)
        lz.mark_step()
    assert out.numpy().shape == (5, 2)
    last = lz.steps()[-1]
    assert not last.cache_hit and last.why.compared_with == 1
    assert any("shape f32[8,3] -> f32[5,3]" in c for c in last.why.causes)
    assert "keep sizes fixed" in last.why.advice[0]
