"""Lowering rules for ufuncs and functions whose numpy meaning needs more than one HLO op:
integer powers, floor division and numpy's remainder, tests for nan/inf, inverse trig,
`np.where`, `np.clip` and `np.round`.
"""

from __future__ import annotations

import numpy as np

from .. import ops
from ..errors import unsupported
from ..tracer import Tracer
from .common import (all_weak, as_tracer, finish, is_static_scalar, prepare, registrar,
                     result_dtype, ufunc_dtypes, with_weak)
from .elementwise import to_bool

RULES: dict = {}
rule = registrar(RULES)


def _like(t, value):
    """`value` broadcast to t's shape and dtype."""
    return ops.full(t.shape, value, t.dtype)


def integer_pow(t: Tracer, k: int) -> Tracer:
    """t**k for a static k >= 0 by repeated squaring, as JAX's integer_pow (x*x*x, no power op)."""
    acc, base = None, t
    while k:
        if k & 1:
            acc = base if acc is None else ops.binary("multiply", acc, base)
        k >>= 1
        if k:
            base = ops.binary("multiply", base, base)
    return acc if acc is not None else _like(t, 1)  # k == 0: no factor at all


@rule(np.power)
def power(x, y):
    """x**y; a small static integer exponent becomes multiplies, anything else HLO power."""
    dts, (out,) = ufunc_dtypes(np.power, [x, y])
    if is_static_scalar(y) and float(y).is_integer() and abs(int(y)) <= 64:
        k = int(y)
        if k < 0 and dts[0].kind in "iu":
            raise ValueError("Integers to negative integer powers are not allowed.")
        (base,) = prepare([x], dts[:1])
        result = integer_pow(base, abs(k))
        result = ops.binary("divide", _like(base, 1), result) if k < 0 else result
        return finish(result, out, x, y)
    return finish(ops.binary("power", *prepare([x, y], dts)), out, x, y)


@rule(np.square)
def square(x):
    (dt,), (out,) = ufunc_dtypes(np.square, [x])
    t = as_tracer(x, dt)
    return finish(ops.binary("multiply", t, t), out, x)


@rule(np.reciprocal)
def reciprocal(x):
    (dt,), (out,) = ufunc_dtypes(np.reciprocal, [x])
    t = as_tracer(x, dt)
    return finish(ops.binary("divide", _like(t, 1), t), out, x)


@rule(np.floor_divide)
def floor_divide(x, y):
    """Rounds toward -inf: floor(x / y) for floats; integer division corrected by one where
    the signs differ and the division is inexact (HLO divide truncates toward zero)."""
    dts, (out,) = ufunc_dtypes(np.floor_divide, [x, y])
    a, b = prepare([x, y], dts)
    q = ops.binary("divide", a, b)
    if dts[0].kind == "f":
        return finish(ops.unary("floor", q), out, x, y)
    if dts[0].kind == "i":
        signs_differ = ops.compare(ops.unary("sign", a), ops.unary("sign", b), "NE")
        inexact = ops.compare(ops.binary("remainder", a, b), _like(a, 0), "NE")
        fix = ops.binary("and", signs_differ, inexact)
        q = ops.select(fix, ops.binary("subtract", q, _like(q, 1)), q)
    return finish(q, out, x, y)


@rule(np.remainder)
def remainder(x, y):
    """x % y with the sign of y, as numpy (HLO remainder takes the sign of x): where they
    differ and r != 0, add y."""
    dts, (out,) = ufunc_dtypes(np.remainder, [x, y])
    a, b = prepare([x, y], dts)
    r = ops.binary("remainder", a, b)
    if dts[0].kind in "if":
        zero = _like(r, 0)
        if is_static_scalar(y):  # the divisor's sign is known now
            wrong_sign = ops.compare(r, zero, "GT" if y < 0 else "LT")
        else:
            wrong_sign = ops.compare(ops.compare(r, zero, "LT"), ops.compare(b, zero, "LT"), "NE")
        fix = ops.binary("and", wrong_sign, ops.compare(r, zero, "NE"))
        r = ops.select(fix, ops.binary("add", r, b), r)
    return finish(r, out, x, y)


@rule(np.divmod)
def divmod_(x, y):
    return floor_divide(x, y), remainder(x, y)


def _float_rule(ufunc, build, doc: str):
    """A one-operand ufunc computed by `build(t)` in the dtype numpy picks."""

    def lower(x):
        (dt,), (out,) = ufunc_dtypes(ufunc, [x])
        return finish(build(as_tracer(x, dt)), out, x)

    lower.__doc__ = doc
    return lower


def _log_base(base):
    return lambda t: ops.binary("divide", ops.unary("log", t), _like(t, np.log(base)))


def _sqrt_one_minus_sq(t):
    one = _like(t, 1)
    return ops.unary("sqrt", ops.binary("multiply", ops.binary("subtract", one, t), ops.binary("add", one, t)))


RULES[np.exp2] = _float_rule(np.exp2, lambda t: ops.binary("power", _like(t, 2), t), "2**x")
RULES[np.log2] = _float_rule(np.log2, _log_base(2), "log(x) / log(2)")
RULES[np.log10] = _float_rule(np.log10, _log_base(10), "log(x) / log(10)")
RULES[np.arctan] = _float_rule(np.arctan, lambda t: ops.binary("atan2", t, _like(t, 1)), "atan2(x, 1)")
RULES[np.arcsin] = _float_rule(
    np.arcsin, lambda t: ops.binary("atan2", t, _sqrt_one_minus_sq(t)), "atan2(x, sqrt((1-x)(1+x)))")
RULES[np.arccos] = _float_rule(
    np.arccos, lambda t: ops.binary("atan2", _sqrt_one_minus_sq(t), t), "atan2(sqrt((1-x)(1+x)), x)")
RULES[np.sinh] = _float_rule(np.sinh, lambda t: ops.binary("multiply", ops.binary(
    "subtract", ops.unary("exponential-minus-one", t), ops.unary("exponential-minus-one", ops.unary(
        "negate", t))), _like(t, 0.5)), "(expm1(x) - expm1(-x)) / 2, exact near 0")
RULES[np.cosh] = _float_rule(np.cosh, lambda t: ops.binary("multiply", ops.binary(
    "add", ops.unary("exponential", t), ops.unary("exponential", ops.unary("negate", t))),
    _like(t, 0.5)), "(exp(x) + exp(-x)) / 2")


def _float_test(ufunc, build, other_kinds: bool):
    def lower(x):
        t = as_tracer(x)
        if t.dtype.kind != "f":
            return ops.full(t.shape, other_kinds, np.bool_)
        return build(t)

    lower.__doc__ = f"numpy.{ufunc.__name__}; always {other_kinds} for integers"
    return lower


RULES[np.isnan] = _float_test(np.isnan, lambda t: ops.compare(t, t, "NE"), False)
RULES[np.isinf] = _float_test(np.isinf, lambda t: ops.compare(ops.unary("abs", t), _like(t, np.inf), "EQ"), False)
RULES[np.isfinite] = _float_test(np.isfinite, lambda t: ops.unary("is-finite", t), True)


@rule(np.where)
def where(condition, x=None, y=None):
    """select(condition, x, y) after numpy's promotion and broadcasting."""
    if x is None or y is None:
        raise unsupported("np.where with one argument", "its result shape depends on the data")
    dt = result_dtype(x, y)
    c, a, b = prepare([to_bool(condition), x, y], [np.bool_, dt, dt])
    return with_weak(ops.select(c, a, b), all_weak(x, y))


@rule(np.clip)
def clip(a, a_min=None, a_max=None, out=None, *, min=None, max=None, **kwargs):
    """clamp(lo, x, hi); one bound alone is a maximum or a minimum."""
    lo = a_min if a_min is not None else min
    hi = a_max if a_max is not None else max
    bounds = [b for b in (lo, hi) if b is not None]
    dt = result_dtype(a, *bounds)
    ts = prepare([a, *bounds], [dt] * (1 + len(bounds)))
    if lo is not None and hi is not None:
        result = ops.emit("clamp", (ts[1], ts[0], ts[2]))
    elif bounds:
        result = ops.binary("maximum" if lo is not None else "minimum", ts[0], ts[1])
    else:
        result = ts[0]
    return with_weak(result, all_weak(a, *bounds))


@rule(np.round, np.around)
def round_(a, decimals=0, out=None):
    """Round half to even (numpy's rule); with decimals, rint(x * 10**d) / 10**d as numpy does."""
    t = as_tracer(a)
    if t.dtype.kind != "f":
        return t
    if decimals == 0:
        return ops.unary("round-nearest-even", t)
    scale = _like(t, 10.0 ** decimals)
    return ops.binary("divide", ops.unary("round-nearest-even", ops.binary("multiply", t, scale)), scale)
