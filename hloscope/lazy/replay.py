"""Re-applying recorded calls to tracers: how a step's graph becomes HLO.

A recorded call is a numpy call with Slots where its lazy inputs were. Given values for the
inputs (tracers, inside hloscope's trace), `apply_call` makes the same numpy call again, so
the tracer's lowering rules emit the HLO; `run_node` does it for one node of a graph, with the
user's line of the original call as the instructions' source (frontend/source.written_at).
"""

from __future__ import annotations

from typing import Any, Mapping

from ..frontend.pytree import flatten
from ..frontend.source import written_at
from .graph import Call, InputSlot, PendingOp


def fill(template: Any, values: list) -> Any:
    """`template` with every InputSlot(i) replaced by values[i] (through tuples, lists, dicts)."""
    if isinstance(template, InputSlot):
        return values[template.index]
    if isinstance(template, tuple):
        return tuple(fill(t, values) for t in template)
    if isinstance(template, list):
        return [fill(t, values) for t in template]
    if isinstance(template, dict):
        return {k: fill(v, values) for k, v in template.items()}
    return template


def apply_call(call: Call, values: list) -> Any:
    """The numpy call again, on `values` (tracers during a step's trace)."""
    args = fill(call.args, values)
    kwargs = fill(call.kwargs, values)
    if call.kind == "ufunc":
        return getattr(call.func, call.method)(*args, **kwargs)
    if call.kind == "function":
        return call.func(*args, **kwargs)
    if call.kind == "getitem":
        return args[0][args[1]]
    raise ValueError(f"a {call.kind} call is replayed by its node (see autograd.py)")


def run_node(op: PendingOp, env: Mapping[int, list]) -> list:
    """The flat outputs of `op`, its inputs read from `env` (node uid -> flat outputs)."""
    with written_at(op.source):
        if op.replay is not None:
            out = op.replay(op, env)
        else:
            out = apply_call(op.call, [env[r.node.uid][r.index] for r in op.inputs])
    return flatten(out)[0]
