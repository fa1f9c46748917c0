"""VJP rules of the elementwise ops: d(op)/d(operand) times the cotangent, as in calculus.

Rounding and sign have derivative zero almost everywhere (JAX's choice too); comparisons and
bit operations make integers and booleans, which carry no cotangent at all.
"""

from __future__ import annotations

import math

import numpy as np

from ... import ops
from ..registry import vjp_rule
from ._math import add, div, lit, mul, neg, sub, where


@vjp_rule("add")
def _add(node, ct):
    return [ct, ct]


@vjp_rule("subtract")
def _subtract(node, ct):
    return [ct, neg(ct)]


@vjp_rule("negate")
def _negate(node, ct):
    return [neg(ct)]


@vjp_rule("multiply")
def _multiply(node, ct):
    x, y = node.operands
    return [mul(ct, y), mul(ct, x)]


@vjp_rule("divide")
def _divide(node, ct):
    x, y = node.operands
    ct_x = div(ct, y)
    return [ct_x, neg(mul(ct_x, node.out))]  # d(x/y)/dy = -(x/y)/y


@vjp_rule("maximum", "minimum")
def _extremum(node, ct):
    """The cotangent goes to the operand that won; a tie splits it evenly (as JAX does)."""
    x, y = node.operands
    direction = "GT" if node.inst.opcode == "maximum" else "LT"
    zero, half = lit(ct, 0), mul(ct, lit(ct, 0.5))
    tie = ops.compare(x, y, "EQ")
    x_wins = ops.compare(x, y, direction)
    ct_x = where(tie, half, where(x_wins, ct, zero))
    ct_y = where(tie, half, where(x_wins, zero, ct))
    return [ct_x, ct_y]


@vjp_rule("power")
def _power(node, ct):
    x, y = node.operands
    out = node.out
    # d/dx = y * x^(y-1), written as y * out / x away from x = 0
    safe_x = where(ops.compare(x, lit(x, 0), "EQ"), lit(x, 1), x)
    d_x = where(ops.compare(x, lit(x, 0), "EQ"),
                mul(y, ops.binary("power", x, sub(y, lit(y, 1)))), div(mul(y, out), safe_x))
    # d/dy = log(x) * out, zero where x = 0 (JAX's convention)
    positive = where(ops.compare(x, lit(x, 0), "GT"), x, lit(x, 1))
    d_y = where(ops.compare(x, lit(x, 0), "EQ"), lit(y, 0), mul(ops.unary("log", positive), out))
    return [mul(ct, d_x), mul(ct, d_y)]


@vjp_rule("atan2")
def _atan2(node, ct):
    x, y = node.operands  # atan2(x, y) = atan(x / y)
    denominator = add(mul(x, x), mul(y, y))
    return [mul(ct, div(y, denominator)), mul(ct, div(neg(x), denominator))]


@vjp_rule("remainder")
def _remainder(node, ct):
    x, y = node.operands  # fmod: x - trunc(x / y) * y
    q = div(x, y)
    trunc = where(ops.compare(q, lit(q, 0), "LT"), ops.unary("ceil", q), ops.unary("floor", q))
    return [ct, neg(mul(ct, trunc))]


def _unary(opcode: str, derivative):
    """Register the rule ct * derivative(x, out) for a one-operand op."""

    @vjp_rule(opcode)
    def rule(node, ct):
        (x,) = node.operands
        return [mul(ct, derivative(x, node.out))]

    return rule


_unary("exponential", lambda x, out: out)
_unary("exponential-minus-one", lambda x, out: add(out, lit(out, 1)))
_unary("log", lambda x, out: div(lit(x, 1), x))
_unary("log-plus-one", lambda x, out: div(lit(x, 1), add(x, lit(x, 1))))
_unary("sine", lambda x, out: ops.unary("cosine", x))
_unary("cosine", lambda x, out: neg(ops.unary("sine", x)))
_unary("tan", lambda x, out: add(lit(out, 1), mul(out, out)))
_unary("tanh", lambda x, out: sub(lit(out, 1), mul(out, out)))
_unary("logistic", lambda x, out: mul(out, sub(lit(out, 1), out)))
_unary("sqrt", lambda x, out: div(lit(out, 0.5), out))
_unary("rsqrt", lambda x, out: div(mul(lit(out, -0.5), out), x))
_unary("cbrt", lambda x, out: div(out, mul(lit(x, 3), x)))
_unary("abs", lambda x, out: ops.unary("sign", x))
_unary("erf", lambda x, out: mul(lit(x, 2 / math.sqrt(math.pi)), ops.unary("exponential", neg(mul(x, x)))))


@vjp_rule("sign", "floor", "ceil", "round-nearest-even", "round-nearest-afz")
def _flat(node, ct):
    return [None]


@vjp_rule("convert")
def _convert(node, ct):
    (x,) = node.operands
    return [ops.convert(ct, x.dtype)] if np.dtype(x.dtype).kind in "fc" else [None]


@vjp_rule("copy")
def _copy(node, ct):
    return [ct]


@vjp_rule("select")
def _select(node, ct):
    pred, a, b = node.operands
    if pred.shape != ct.shape:  # a scalar predicate chooses whole arrays
        pred = ops.broadcast_in_dim(pred, ct.shape, ())
    zero = lit(ct, 0)
    return [None, where(pred, ct, zero), where(pred, zero, ct)]


@vjp_rule("clamp")
def _clamp(node, ct):
    lo, x, hi = node.operands
    zero = lit(ct, 0)
    lo_b = lo if lo.shape == x.shape else ops.broadcast_in_dim(lo, x.shape, ())
    hi_b = hi if hi.shape == x.shape else ops.broadcast_in_dim(hi, x.shape, ())
    below, above = ops.compare(x, lo_b, "LT"), ops.compare(x, hi_b, "GT")
    ct_x = where(below, zero, where(above, zero, ct))
    ct_lo, ct_hi = where(below, ct, zero), where(above, ct, zero)
    if lo.shape != x.shape:
        ct_lo = _sum_all(ct_lo)
    if hi.shape != x.shape:
        ct_hi = _sum_all(ct_hi)
    return [ct_lo, ct_x, ct_hi]


def _sum_all(x):
    from .reductions import sum_over

    return sum_over(x, tuple(range(x.ndim)))


@vjp_rule("constant", "iota", "parameter", "rng", "rng-bit-generator")
def _leaf(node, ct):
    return []
