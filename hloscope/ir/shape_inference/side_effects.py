"""Shape rules for the ops that order or carry effects: domain, add-dependency, infeed,
outfeed and rng-get-and-update-state (XLA's ShapeInference and HloVerifier)."""

from __future__ import annotations

from ..shape import ArrayShape, Shape, TokenShape, TupleShape
from .common import OpCall, check, compatible, fmt


def domain(op: OpCall) -> Shape:
    """A marker between sharding domains: its operand, unchanged."""
    return op.operands[0]


def add_dependency(op: OpCall) -> Shape:
    """add-dependency(value, token): the value, ordered after the token."""
    check(isinstance(op.operands[1], TokenShape), f"add-dependency operand 1 must be a token, got {fmt(op.operands[1])}")
    return op.operands[0]


def infeed(op: OpCall) -> Shape:
    """infeed(token) -> (data, token[]): the data's shape is what it declares."""
    check(isinstance(op.operands[0], TokenShape), f"infeed takes a token, got {fmt(op.operands[0])}")
    declared = op.need_declared()
    ok = isinstance(declared, TupleShape) and len(declared.elements) == 2 and isinstance(declared.elements[1], TokenShape)
    check(ok, f"infeed must declare (data, token[]), not {fmt(declared)}")
    return declared


def outfeed(op: OpCall) -> Shape:
    """outfeed(data, token) -> token[]."""
    check(isinstance(op.operands[1], TokenShape), f"outfeed operand 1 must be a token, got {fmt(op.operands[1])}")
    return TokenShape()


def rng_get_and_update_state(op: OpCall) -> Shape:
    declared = op.need_declared()
    check(compatible(declared, ArrayShape("u64", (2,))), f"rng-get-and-update-state gives u64[2], not {fmt(declared)}")
    return declared


RULES = {
    "domain": domain,
    "add-dependency": add_dependency,
    "infeed": infeed,
    "outfeed": outfeed,
    "rng-get-and-update-state": rng_get_and_update_state,
}
