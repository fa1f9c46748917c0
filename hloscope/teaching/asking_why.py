"""Notebook 17, "asking why": the course's transformer block asked why it compiled again,
what is live at its peak, and what each of its lines costs; and the exercise: make a lazy
training loop compile once."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from .. import lazy as lz
from .exercises import Wrong, exercise, still_unanswered
from .running_example import block_inputs, block_loss


def lazy_training(steps: int, update: Callable[[Any, Any, int], Any]) -> dict[str, Any]:
    """`steps` lazy training steps of the block (a fresh graph cache and fresh metrics), each
    updating every parameter with `update(p, p.grad, step)` under no_grad; lz.metrics() after."""
    x, params = block_inputs()
    target = np.zeros_like(x)
    lz.clear_cache()
    lz.reset_metrics()
    ps = [lz.tensor(p, requires_grad=True) for p in params]
    for step in range(steps):
        loss = block_loss(tuple(ps), x, target)
        loss.backward()
        with lz.no_grad():
            for p in ps:
                new = update(p, p.grad, step)
                still_unanswered(new)
                p -= p - new  # p becomes `new`, updated in place
        for p in ps:
            p.grad = None
        lz.mark_step()
    return lz.metrics()


def decaying_update(p: Any, grad: Any, step: int) -> Any:
    """SGD with a 1/t learning rate, written the way that recompiles every step."""
    return p - 0.05 * grad / (step + 1)


def check_compiles_once(update: Callable[[Any, Any, int], Any]) -> None:
    """The exercise: an update with the same 1/t schedule whose loop compiles its step once."""

    def rule(fn: Callable[[Any, Any, int], Any]) -> bool | str:
        metrics = lazy_training(4, fn)
        if metrics["compiles"] != 1:
            causes = "; ".join(metrics["cache_miss_causes"]) or "see lz.steps()"
            raise Wrong(f"the loop compiled {metrics['compiles']} times in 4 steps ({causes})")
        reference = lazy_training(1, fn)  # the first step alone: the schedule must start at 0.05 * grad
        if reference["compiles"] != 1:
            return "the first step should compile once"
        return _same_schedule(fn)

    exercise("the loop compiles once", update, rule,
             hint="lz.metrics()['cache_miss_advice'] says which value to make device data")


def _same_schedule(fn: Callable[[Any, Any, int], Any]) -> bool | str:
    """The update must still be p - 0.05 * grad / (step + 1) (checked on plain numbers)."""
    p, g = np.float64(1.0), np.float64(2.0)
    for step in range(4):
        want = decaying_update(p, g, step)
        got = np.asarray(fn(p, g, step), dtype=np.float64)
        if not np.allclose(got, want, rtol=1e-6):
            return f"at step {step} the update is not p - 0.05 * grad / (step + 1) any more"
    return True
