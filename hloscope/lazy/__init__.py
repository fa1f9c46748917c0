"""Lazy tensors and `mark_step`, as PyTorch/XLA runs a training loop (docs/lazy.md).

    import hloscope.lazy as lz
    w = lz.tensor(w0, requires_grad=True)     # device data; numpy functions record on it
    loss = np.mean((np.tanh(x @ w) - y) ** 2)
    loss.backward()                           # w.grad: recorded too
    with lz.no_grad():
        w -= 0.1 * w.grad                     # in place: input_output_alias in the step's HLO
    w.grad = None
    lz.mark_step()                            # cut, hash, compile on a miss (else a cache hit), run
    print(lz.metrics_report())                # compiles, cache hits, syncs with their lines, ...

Files: tensor.py (LazyTensor and recording), graph.py (the pending graph), infer.py (result
shapes at record time), replay.py (recorded calls re-applied to tracers), step.py (cut, key,
compile, run), autograd.py (backward), live.py (live tensors, no_grad), metrics.py,
history.py (the step records the explorer's lazy view shows: `hloscope.explore(lz.steps())`).
"""

from __future__ import annotations

from typing import Any

from . import history
from .diff import Change, StepDiff, diff_steps
from .history import StepHistory, StepRecord
from .live import no_grad
from .metrics import METRICS
from .metrics import report as _report
from .metrics import reset as _reset_metrics
from .step import cache_size, clear_cache, mark_step
from .tensor import LazyTensor, tensor


def metrics() -> dict[str, Any]:
    """The runtime's counters and timings (see metrics.py)."""
    return METRICS.as_dict()


def metrics_report() -> str:
    """The counters and timings as text, in torch_xla's style."""
    return _report(METRICS)


def reset_metrics() -> None:
    """Counters, timings and step records back to zero (the graph cache is kept)."""
    _reset_metrics()
    history.clear()


def steps() -> StepHistory:
    """The record of every step run so far, oldest first."""
    return history.steps()



__all__ = ["Change", "LazyTensor", "StepDiff", "StepHistory", "StepRecord", "diff_steps", "cache_size", "clear_cache", "mark_step", "metrics",
           "metrics_report", "no_grad", "reset_metrics", "steps", "tensor"]
