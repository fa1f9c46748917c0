"""`topk` and XLA's `custom-call(...), custom_call_target="TopK"`; any other custom-call target
is refused by name.

The k largest (or smallest) of each row along the last dimension, with their s32 positions:
a stable argsort of keys whose ascending order is the wanted order, cut to k. Floats order by
XLA's total order (the comparator XLA's TopkDecomposer and TopkRewriter use), so NaN is the
largest value, -NaN the smallest and -0 < +0; equal keys keep their positions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..errors import NotSupportedError
from ..ir.custom_calls import is_sharding_annotation, refusal
from ..ir.dtypes import from_numpy
from ..ir.instruction import Instruction
from ..ir.topk import is_topk, topk_of
from .compare import total_order_key

if TYPE_CHECKING:  # annotations only: core imports the handler table, which imports this file
    from .core import Evaluator


def top_k(x: np.ndarray, k: int, largest: bool) -> tuple[np.ndarray, np.ndarray]:
    """(values, s32 indices) of the k first elements of each last-axis row in the order."""
    element = from_numpy(x.dtype)
    keys = total_order_key(x) if element.is_float else x.astype(np.uint8) if x.dtype == np.bool_ else x
    if largest:
        keys = ~keys  # reverses any integer order exactly, so ties still go by position
    order = np.argsort(keys, axis=-1, kind="stable")[..., :k]
    return np.take_along_axis(x, order, axis=-1), order.astype(np.int32)


def handle_topk(ev: Evaluator, inst: Instruction, ops: list):
    """topk(x), k, largest; or custom-call TopK (k from its result, the order from its comparator)."""
    if is_sharding_annotation(inst):  # JAX's sharding marks compute nothing on one device
        return ops[0]
    if not is_topk(inst):
        raise NotSupportedError(refusal(inst))
    called = inst.attr("called_computations") or ()
    comparator = ev.computation(called[0]) if inst.opcode == "custom-call" and called else None
    try:
        spec = topk_of(inst, comparator)
    except ValueError as e:
        raise NotSupportedError(f"not supported: {e}") from None
    return top_k(ops[0], spec.k, spec.largest)


HANDLERS = {"topk": handle_topk, "custom-call": handle_topk}
