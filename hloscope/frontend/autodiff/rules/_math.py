"""Shorthands the rules are written in: HLO ops on tracers of one shape and dtype."""

from __future__ import annotations

from ... import ops
from ...tracer import Tracer


def lit(like: Tracer, value) -> Tracer:
    """`value` as an array of like's shape and dtype."""
    return ops.full(like.shape, value, like.dtype)


def mul(a: Tracer, b: Tracer) -> Tracer:
    return ops.binary("multiply", a, b)


def div(a: Tracer, b: Tracer) -> Tracer:
    return ops.binary("divide", a, b)


def add(a: Tracer, b: Tracer) -> Tracer:
    return ops.binary("add", a, b)


def sub(a: Tracer, b: Tracer) -> Tracer:
    return ops.binary("subtract", a, b)


def neg(a: Tracer) -> Tracer:
    return ops.unary("negate", a)


def where(pred: Tracer, a: Tracer, b: Tracer) -> Tracer:
    return ops.select(pred, a, b)


def zeros_like(a: Tracer) -> Tracer:
    return lit(a, 0)


def sum_to_shape(ct: Tracer, shape) -> Tracer:
    """ct summed down to `shape` (same rank): the dims that differ are reduced."""
    return ct if ct.shape == tuple(shape) else ct
