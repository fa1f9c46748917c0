"""Lowering rules for numpy's elementwise ufuncs: arithmetic, math functions, comparisons,
logic and bit operations.

Most ufuncs map to one HLO opcode and share one rule shape: resolve dtypes as numpy 2 does,
convert and broadcast the operands, emit the op, convert to numpy's output dtype. Those are
the rows of the tables below. Ufuncs whose numpy meaning differs from the HLO op (floor
division, a remainder with the divisor's sign, integer powers) have rules of their own in
arithmetic.py.
"""

from __future__ import annotations

import numpy as np

from .. import ops
from .common import as_tracer, finish, prepare, registrar, ufunc_dtypes

RULES: dict = {}
rule = registrar(RULES)

UNARY = {
    np.sin: "sine", np.cos: "cosine", np.tan: "tan", np.exp: "exponential",
    np.expm1: "exponential-minus-one", np.log: "log", np.log1p: "log-plus-one", np.tanh: "tanh",
    np.sqrt: "sqrt", np.cbrt: "cbrt", np.abs: "abs", np.fabs: "abs", np.negative: "negate",
    np.sign: "sign", np.rint: "round-nearest-even",
}
BINARY = {
    np.add: "add", np.subtract: "subtract", np.multiply: "multiply", np.true_divide: "divide",
    np.maximum: "maximum", np.minimum: "minimum", np.arctan2: "atan2", np.fmod: "remainder",
    np.bitwise_and: "and", np.bitwise_or: "or", np.bitwise_xor: "xor", np.left_shift: "shift-left",
}
COMPARE = {
    np.less: "LT", np.less_equal: "LE", np.greater: "GT", np.greater_equal: "GE",
    np.equal: "EQ", np.not_equal: "NE",
}
LOGICAL = {np.logical_and: "and", np.logical_or: "or", np.logical_xor: "xor"}
# On booleans numpy's add is `or` and multiply is `and`; HLO has no arithmetic on pred.
_ON_BOOL = {"add": "or", "multiply": "and", "maximum": "or", "minimum": "and", "abs": None}


def _unary_rule(ufunc, opcode: str):
    def lower(x):
        (dt,), (out,) = ufunc_dtypes(ufunc, [x])
        t = as_tracer(x, dt)
        code = _ON_BOOL.get(opcode, opcode) if dt == np.bool_ else opcode
        return finish(ops.unary(code, t) if code else t, out, x)

    lower.__doc__ = f"numpy.{getattr(ufunc, '__name__', ufunc)} -> HLO {opcode}"
    return lower


def _binary_rule(ufunc, opcode: str):
    def lower(x, y):
        dts, (out,) = ufunc_dtypes(ufunc, [x, y])
        a, b = prepare([x, y], dts)
        code = _ON_BOOL.get(opcode, opcode) if dts[0] == np.bool_ else opcode
        return finish(ops.binary(code, a, b), out, x, y)

    lower.__doc__ = f"numpy.{ufunc.__name__} -> HLO {opcode}"
    return lower


def _compare_rule(ufunc, direction: str):
    def lower(x, y):
        dts, _ = ufunc_dtypes(ufunc, [x, y])
        a, b = prepare([x, y], dts)
        return ops.compare(a, b, direction)

    lower.__doc__ = f"numpy.{ufunc.__name__} -> HLO compare, direction={direction}"
    return lower


def to_bool(x):
    """numpy's truth value of each element: x != 0 (no instruction for booleans)."""
    t = as_tracer(x)
    if t.dtype == np.bool_:
        return t
    return ops.compare(t, ops.full(t.shape, 0, t.dtype), "NE")


def _logical_rule(ufunc, opcode: str):
    def lower(x, y):
        a, b = prepare([to_bool(x), to_bool(y)], [np.bool_, np.bool_])
        return ops.binary(opcode, a, b)

    lower.__doc__ = f"numpy.{ufunc.__name__} -> HLO {opcode} on pred"
    return lower


# scipy.special ufuncs, matched by name (scipy is optional), and hloscope.numpy.erf/sigmoid.
SPECIAL = {"ufunc:erf": "erf", "ufunc:expit": "logistic"}


def _special_rule(opcode: str):
    def lower(x):
        t = as_tracer(x)
        dt = t.dtype if t.dtype.kind == "f" else np.dtype(np.float64)
        return finish(ops.unary(opcode, as_tracer(t, dt)), dt, x)

    lower.__doc__ = f"-> HLO {opcode} (integers computed in float64)"
    return lower


for _f, _code in SPECIAL.items():
    RULES[_f] = _special_rule(_code)
for _f, _code in UNARY.items():
    RULES[_f] = _unary_rule(_f, _code)
for _f, _code in BINARY.items():
    RULES[_f] = _binary_rule(_f, _code)
for _f, _code in COMPARE.items():
    RULES[_f] = _compare_rule(_f, _code)
for _f, _code in LOGICAL.items():
    RULES[_f] = _logical_rule(_f, _code)


@rule(np.logical_not)
def logical_not(x):
    """not(x != 0)"""
    return ops.unary("not", to_bool(x))


@rule(np.invert)
def invert(x):
    """~x: bitwise not (logical on booleans)."""
    (dt,), (out,) = ufunc_dtypes(np.invert, [x])
    return finish(ops.unary("not", as_tracer(x, dt)), out, x)


@rule(np.right_shift)
def right_shift(x, y):
    """Arithmetic shift for signed integers (keeps the sign), logical for unsigned."""
    dts, (out,) = ufunc_dtypes(np.right_shift, [x, y])
    code = "shift-right-arithmetic" if dts[0].kind == "i" else "shift-right-logical"
    return finish(ops.binary(code, *prepare([x, y], dts)), out, x, y)


@rule(np.positive)
def positive(x):
    return as_tracer(x)


def _rounding_rule(ufunc, opcode):
    def lower(x):
        (dt,), (out,) = ufunc_dtypes(ufunc, [x])
        t = as_tracer(x, dt)
        if dt.kind != "f":
            return finish(t, out, x)
        if opcode == "trunc":  # toward zero: floor above zero, ceil below
            zero = ops.full(t.shape, 0, dt)
            y = ops.select(ops.compare(t, zero, "LT"), ops.unary("ceil", t), ops.unary("floor", t))
        else:
            y = ops.unary(opcode, t)
        return finish(y, out, x)

    lower.__doc__ = f"numpy.{ufunc.__name__} -> HLO {opcode} (integers unchanged)"
    return lower


RULES[np.floor] = _rounding_rule(np.floor, "floor")
RULES[np.ceil] = _rounding_rule(np.ceil, "ceil")
RULES[np.trunc] = _rounding_rule(np.trunc, "trunc")
