"""Shape rules for top-k: `topk(x), k=K` and XLA's `custom-call(x), custom_call_target="TopK"`.

Both take an array of rank >= 1 and return (values, s32 indices), each x's shape with the
last dimension cut to k (XLA's ShapeInference::InferTopKShape); 0 <= k <= that dimension.
Any other custom-call returns what it declares.
"""

from __future__ import annotations

from ..shape import ArrayShape, Shape, TupleShape
from ..topk import TOPK_TARGET
from .common import OpCall, check, fmt
from .control import declared


def topk_shape(x: ArrayShape, k: int, what: str) -> Shape:
    check(x.rank >= 1, f"{what} needs an operand of rank >= 1, got {fmt(x)}")
    n = x.dims[-1]
    check(0 <= k <= n, f"{what} k={k} is out of range for the last dimension of {fmt(x)} (0..{n})")
    dims = (*x.dims[:-1], k)
    return TupleShape((x.with_dims(dims), ArrayShape("s32", dims)))


def topk(op: OpCall) -> Shape:
    check(len(op.operands) == 1, f"topk takes one operand, got {len(op.operands)}")
    k = op.attr("k")
    check(isinstance(k, int) and not isinstance(k, bool), f"topk k must be an integer, got {k}")
    return topk_shape(op.array(0, "topk operand"), k, "topk")


def custom_call(op: OpCall) -> Shape:
    """A TopK custom-call is checked like topk, with k read from its declared values."""
    out = declared(op)
    if op.attr("custom_call_target", None) != TOPK_TARGET:
        return out
    what = "custom-call TopK"
    check(len(op.operands) == 1, f"{what} takes one operand, got {len(op.operands)}")
    ok = isinstance(out, TupleShape) and len(out.elements) == 2 and isinstance(out.elements[0], ArrayShape)
    check(ok, f"{what} must return (values, s32 indices), not {fmt(out)}")
    assert isinstance(out, TupleShape)
    values = out.elements[0]
    assert isinstance(values, ArrayShape)
    check(values.rank >= 1, f"{what} must return arrays of rank >= 1, not {fmt(out)}")
    return topk_shape(op.array(0, f"{what} operand"), values.dims[-1], what)


RULES = {"topk": topk, "custom-call": custom_call}
