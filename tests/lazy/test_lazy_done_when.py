"""Issue 18's Done-when: the SGD loop matches float64 numpy, compiles at most twice and then
only hits the cache; print(loss) costs one implicit sync per step, with its line; a batch-size
change recompiles once and the diff names the shape that changed."""

from __future__ import annotations

import numpy as np

import hloscope.lazy as lz

from mlp_loops import STEPS, data, lazy_loop, numpy_loop

F32_TOL = dict(rtol=1e-5, atol=1e-5)


def test_sgd_loop_matches_float64_numpy_and_then_only_hits_the_cache():
    params, x, y = data()
    ours = lazy_loop(params, [(x, y)] * STEPS)
    reference = numpy_loop(params, [(x, y)] * STEPS)
    for name in ours:
        np.testing.assert_allclose(ours[name], reference[name], **F32_TOL)
    assert not np.allclose(ours["w1"], params["w1"], atol=1e-3), "the loop must have trained the weights"
    m = lz.metrics()
    assert m["compiles"] <= 2
    assert m["executions"] == STEPS
    assert m["cache_hits"] == STEPS - m["compiles"]
    assert m["implicit_syncs"] == 0
    steps = lz.steps()
    assert [s.cache_hit for s in steps] == [False] * m["compiles"] + [True] * (STEPS - m["compiles"])
    assert all(not s.implicit for s in steps)


def test_print_loss_before_mark_step_is_an_implicit_sync_every_step(capsys):
    params, x, y = data()
    ours = lazy_loop(params, [(x, y)] * STEPS, print_loss=True)
    printed = capsys.readouterr().out.split()
    assert len(printed) == STEPS
    m = lz.metrics()
    assert m["implicit_syncs"] == STEPS
    assert m["compiles"] <= 2 and m["executions"] == STEPS  # mark_step finds nothing left to run
    (where, count), = m["sync_lines"].items()
    assert count == STEPS
    assert where.startswith("mlp_loops.py:") and "print(loss)" in where
    assert all(s.implicit and "print(loss)" in s.source for s in lz.steps())
    assert "print(loss)" in lz.metrics_report()
    reference = numpy_loop(params, [(x, y)] * STEPS)
    np.testing.assert_allclose(ours["w2"], reference["w2"], **F32_TOL)
    # each printed loss is the value before that step's update
    first = np.mean((np.tanh(x.astype(np.float64) @ params["w1"] + params["b1"]) @ params["w2"] - y) ** 2)
    assert abs(float(printed[0]) - first) < 1e-5


def test_a_batch_size_change_recompiles_once_and_the_diff_names_the_shape():
    params, x, y = data(batch=32)
    _, x16, y16 = data(batch=16, seed=1)
    batches = [(x, y)] * 3 + [(x16, y16)] * 3
    ours = lazy_loop(params, batches)
    m = lz.metrics()
    assert m["compiles"] == 2 and m["cache_hits"] == 4
    steps = lz.steps()
    misses = [s for s in steps if not s.cache_hit]
    assert [s.index for s in misses] == [steps[0].index, steps[3].index]
    diff = lz.diff_steps(misses[0], misses[1])
    causes = diff.causes
    assert {c.kind for c in causes} == {"shape"}
    assert {(c.before.aval, c.after.aval) for c in causes if c.before and c.after} == {
        ("f32[32,8]", "f32[16,8]"), ("f32[32,1]", "f32[16,1]")}
    assert "shape f32[32,8] -> f32[16,8]" in diff.summary()
    np.testing.assert_allclose(ours["w1"], numpy_loop(params, batches)["w1"], **F32_TOL)


def test_a_learning_rate_that_changes_every_step_does_not_recompile():
    """A Python float operand is device data (as torch_xla treats non-special scalars)."""
    params, x, y = data()
    w = lz.tensor(params["w1"], requires_grad=True)
    xt = lz.tensor(x)
    expected = params["w1"].astype(np.float64)
    for step in range(5):
        lr = 0.1 / (1 + step)
        if step % 2:
            lr = np.float64(lr)  # a numpy scalar is data too (of its own dtype: a second graph)
        np.sum(xt @ w).backward()
        with lz.no_grad():
            w -= lr * w.grad
        w.grad = None
        lz.mark_step()
        expected = expected - lr * x.sum(axis=0)[:, None].astype(np.float64)
    np.testing.assert_allclose(w.numpy(), expected, **F32_TOL)
    assert lz.metrics()["compiles"] == 2 and lz.metrics()["cache_hits"] == 3


def test_an_integer_constant_is_part_of_the_key_and_the_diff_names_it():
    a = lz.tensor(np.arange(4, dtype=np.float32))
    for exponent in (2, 3):
        kept = a ** exponent
        lz.mark_step()
    np.testing.assert_allclose(kept.numpy(), np.arange(4) ** 3)
    first, second = lz.steps()
    assert not first.cache_hit and not second.cache_hit
    (change,) = lz.diff_steps(first, second).causes
    assert change.kind == "static" and "[2] -> [3]" in change.text()
