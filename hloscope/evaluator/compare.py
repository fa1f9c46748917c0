"""`compare`: six directions and four comparison types.

FLOAT is IEEE comparison (every comparison with NaN is false, except NE which is true).
TOTALORDER orders floats as -NaN < -inf < ... < -0 < +0 < ... < inf < NaN by mapping each
float's bit pattern to an integer with the same order (XLA's comparison_util). SIGNED and
UNSIGNED read an integer's bits as that kind. Without `type`, the default for the element
type applies (FLOAT for floats, SIGNED or UNSIGNED for integers).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..ir.dtypes import from_numpy
from ..ir.instruction import Instruction
from ..ir.opcodes import comparison_type

if TYPE_CHECKING:  # annotations only: core imports the handler table, which imports this file
    from .core import Evaluator

DIRECTIONS = {
    "EQ": np.equal,
    "NE": np.not_equal,
    "LT": np.less,
    "LE": np.less_equal,
    "GT": np.greater,
    "GE": np.greater_equal,
}


def total_order_key(x: np.ndarray) -> np.ndarray:
    """Signed integers that order like the floats in TOTALORDER.

    Negative floats have the sign bit set; flipping their other bits reverses their order,
    so -0.0 becomes -1 (just below +0.0 at 0) and -NaN lands below -inf.
    """
    signed = np.dtype(f"i{x.dtype.itemsize}")
    bits = np.ascontiguousarray(x).view(signed)
    return np.where(bits < 0, bits ^ signed.type(np.iinfo(signed).max), bits)


def comparable(x: np.ndarray, kind: str) -> np.ndarray:
    """x as values whose numpy order is the comparison `kind` (FLOAT, TOTALORDER, ...)."""
    element = from_numpy(x.dtype)
    if kind == "TOTALORDER" and element.kind == "float" and element.bits < 16:
        x = x.astype(np.float32)  # exact, and f32's bit order is the same total order
    if kind == "TOTALORDER" and element.kind == "float":
        return total_order_key(x)
    if element.is_float and element.bits <= 16:
        return x.astype(np.float32)  # exact, and numpy compares bf16 and f8 reliably this way
    if element.is_integer and element.bits < 8:
        x = x.astype(np.int8 if element.kind == "signed" else np.uint8)  # exact; ml_dtypes' ints have no views
    if kind == "UNSIGNED" and element.kind == "signed":
        return x.astype(f"u{x.dtype.itemsize}")
    if kind == "SIGNED" and element.kind == "unsigned":
        return x.astype(f"i{x.dtype.itemsize}")
    return x


def handle_compare(ev: Evaluator, inst: Instruction, ops: list):
    """compare(a, b), direction=D[, type=T] -> pred."""
    a, b = ops
    kind = comparison_type(inst) or "FLOAT"
    result = DIRECTIONS[inst.attr("direction")](comparable(a, kind), comparable(b, kind))
    return np.asarray(result, dtype=np.bool_)


HANDLERS = {"compare": handle_compare}
