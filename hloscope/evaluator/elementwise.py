"""Elementwise opcodes: tables from opcode to the numpy function for each element kind.

A `Rule` names the function for floats, integers (signed and unsigned) and pred; a missing
one means XLA rejects the opcode for that type. Where numpy's default differs from XLA
(division, shifts, NaN in max/min, rounding) the function lives in float_math.py or
int_math.py with the rule in its docstring.

f16 and bf16 are computed in f32 and rounded once per operation, as XLA's evaluator does
(`HloEvaluatorTypedVisitor<bfloat16, float>`), so every op rounds exactly once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

import numpy as np

from ..errors import NotSupportedError
from ..ir.dtypes import from_numpy
from ..ir.instruction import Instruction
from . import complex_math as cm
from . import float_math as fm
from . import int_math as im

if TYPE_CHECKING:  # annotations only: core imports the handler table, which imports this file
    from .core import Evaluator


@dataclass(frozen=True)
class Rule:
    """The numpy function that computes one opcode, per element kind."""

    float: Callable | None = None
    integer: Callable | None = None
    pred: Callable | None = None
    complex: Callable | None = None


UNARY: dict[str, Rule] = {
    "abs": Rule(np.abs, np.abs),
    "negate": Rule(np.negative, np.negative),
    "exponential": Rule(np.exp),
    "exponential-minus-one": Rule(np.expm1),
    "log": Rule(np.log),
    "log-plus-one": Rule(np.log1p),
    "sqrt": Rule(np.sqrt),
    "rsqrt": Rule(fm.rsqrt),
    "cbrt": Rule(np.cbrt),
    "tanh": Rule(np.tanh),
    "logistic": Rule(fm.logistic),
    "sine": Rule(np.sin),
    "cosine": Rule(np.cos),
    "tan": Rule(np.tan),
    "floor": Rule(np.floor),
    "ceil": Rule(np.ceil),
    "round-nearest-even": Rule(np.rint),
    "round-nearest-afz": Rule(fm.round_afz),
    "sign": Rule(fm.sign, np.sign),
    "not": Rule(None, np.invert, np.logical_not),
    "is-finite": Rule(np.isfinite),
    "erf": Rule(fm.erf),
    "popcnt": Rule(None, im.popcnt),
    "count-leading-zeros": Rule(None, im.count_leading_zeros),
}

# pred arithmetic behaves like int8(x) OP int8(y) != 0 (XLA's EmitPredBinaryOp).
BINARY: dict[str, Rule] = {
    "add": Rule(np.add, np.add, np.logical_or),
    "subtract": Rule(np.subtract, np.subtract),
    "multiply": Rule(np.multiply, np.multiply, np.logical_and),
    "divide": Rule(np.divide, im.divide),
    "remainder": Rule(np.fmod, im.remainder),
    "maximum": Rule(fm.maximum, np.maximum, np.logical_or),
    "minimum": Rule(fm.minimum, np.minimum, np.logical_and),
    "power": Rule(fm.power, im.power, lambda a, b: a | ~b),
    "atan2": Rule(np.arctan2),
    "and": Rule(None, np.bitwise_and, np.logical_and),
    "or": Rule(None, np.bitwise_or, np.logical_or),
    "xor": Rule(None, np.bitwise_xor, np.logical_xor),
    "shift-left": Rule(None, im.shift_left),
    "shift-right-logical": Rule(None, im.shift_right_logical),
    "shift-right-arithmetic": Rule(None, im.shift_right_arithmetic),
}


# The complex functions: numpy's ufuncs where they agree with XLA, complex_math.py's otherwise.
_COMPLEX = {
    **{op: UNARY[op].float for op in
       "negate exponential exponential-minus-one log log-plus-one sqrt tanh sine cosine tan".split()},
    **{op: BINARY[op].float for op in "add subtract multiply divide".split()},
    "abs": np.abs,
    "sign": cm.sign,
    "rsqrt": cm.rsqrt,
    "logistic": cm.logistic,
    "power": np.power,
}
for _op, _fn in _COMPLEX.items():
    _table = UNARY if _op in UNARY else BINARY
    _r = _table[_op]
    _table[_op] = Rule(_r.float, _r.integer, _r.pred, _fn)


def function_for(opcode: str, rule: Rule, dtype: np.dtype) -> Callable:
    """The numpy function `rule` names for `dtype`'s element kind; NotSupportedError if none."""
    kind = from_numpy(dtype).kind
    fn = {"pred": rule.pred, "float": rule.float, "complex": rule.complex}.get(kind, rule.integer)
    if fn is None:
        raise NotSupportedError(f"not supported: {opcode} on {from_numpy(dtype).name}")
    return fn


def apply_elementwise(fn: Callable, ops: list[np.ndarray]) -> np.ndarray:
    """fn(*ops), with 16-, 8- and 4-bit floats computed in f32 and rounded back once, and
    sub-byte integers computed in 32 bits and wrapped back to their width."""
    dtype = ops[-1].dtype
    element = from_numpy(dtype)
    if element.kind == "float" and element.bits <= 16:
        wide = np.dtype(np.float32)
    elif element.is_integer and element.bits < 8:
        wide = np.dtype(np.int32 if element.kind == "signed" else np.uint32)
    else:
        return fn(*ops)
    result = np.asarray(fn(*(o.astype(wide) if o.dtype == dtype else o for o in ops)))
    return result.astype(dtype) if result.dtype == wide else result


def _table_handler(table: dict[str, Rule]):
    def handle(ev: Evaluator, inst: Instruction, ops: list):
        fn = function_for(inst.opcode, table[inst.opcode], ops[-1].dtype)
        return apply_elementwise(fn, ops)

    handle.__doc__ = "Elementwise op computed by the function its Rule names for the element kind."
    return handle


def handle_select(ev: Evaluator, inst: Instruction, ops: list):
    """select(pred, on_true, on_false), elementwise (a scalar pred broadcasts)."""
    pred, on_true, on_false = ops
    return np.where(pred, on_true, on_false)


def handle_clamp(ev: Evaluator, inst: Instruction, ops: list):
    """clamp(lo, x, hi) = min(hi, max(x, lo)); lo and hi may be scalars. NaN propagates."""
    lo, x, hi = ops
    kind = from_numpy(x.dtype).kind
    if kind == "float":
        return fm.clamp(lo, x, hi)
    return im.clamp(lo, x, hi)


HANDLERS = {
    **{op: _table_handler(UNARY) for op in UNARY},
    **{op: _table_handler(BINARY) for op in BINARY},
    "select": handle_select,
    "clamp": handle_clamp,
    **cm.HANDLERS,
}
