"""The shapes and dtypes of a call's results, found when the call is recorded.

A lazy tensor knows its shape and dtype at once (as torch_xla's do), and a call the tracer
cannot lower, or shapes that do not fit, fail at the user's line, not at the next
`mark_step`. Both come from tracing the one call on abstract inputs into a throwaway
computation; the answer depends only on the call's structure and the input avals, so it is
remembered (a training loop records the same calls every step).
"""

from __future__ import annotations

from typing import Any

from ..frontend.abstract import ShapedArray
from ..frontend.pytree import TreeDef, flatten
from ..frontend.trace import Frame, Lowering
from ..frontend.tracer import Tracer
from .graph import Call
from .replay import apply_call

Inferred = tuple[tuple[ShapedArray, ...], TreeDef]
_MEMO: dict[Any, Inferred] = {}
_MEMO_LIMIT = 4096


def result_avals(call: Call, key: Any, inputs: list[ShapedArray]) -> Inferred:
    """The avals of the call's array results (flattened) and how they nest (a tuple of
    results, or one)."""
    memo_key = (key, tuple(inputs))
    try:
        return _MEMO[memo_key]
    except KeyError:
        pass
    except TypeError:  # an unhashable static argument: infer every time
        return _trace_once(call, inputs)
    avals = _trace_once(call, inputs)
    if len(_MEMO) >= _MEMO_LIMIT:
        _MEMO.clear()
    _MEMO[memo_key] = avals
    return avals


def _trace_once(call: Call, inputs: list[ShapedArray]) -> Inferred:
    lowering = Lowering("lazy_infer")
    frame = Frame(lowering, lowering.computation_name("main"))
    params = [frame.parameter(a, f"in{i}") for i, a in enumerate(inputs)]
    with frame.active():
        out = apply_call(call, params)
    leaves, tree = flatten(out)
    if not leaves or not all(isinstance(x, Tracer) for x in leaves):
        raise TypeError(f"{call.name} on a lazy tensor returned something other than arrays, "
                        "which a lazy tensor cannot hold")
    return tuple(x.aval.strong() for x in leaves), tree
