"""The module evaluated in float64: the yardstick that f32 rounding is measured against.

    wide = widened_module(module)          every f16 / bf16 / f32 shape made f64 (or NotWidenable)
    outputs = evaluate_widened(module, *args)

XLA's own tests compare a backend with the evaluator within an ErrorSpec, and JAX's with a
per-dtype tolerance; both are fixed numbers. To tell a summation order from a bug the check
needs to know how far an f32 evaluation itself is from the exact result, so it runs the same
program once more in f64, where rounding is ~2^-29 times smaller.

Caveats: widening keeps the program's meaning only where values, not bits, matter.
- bitcast-convert reads a float's bits and rng draws from a type's bit stream: such modules
  are refused (NotWidenable) and the caller judges against the f32 evaluation instead.
- converts between two narrow float types become f64 -> f64 (no rounding), so a bf16
  intermediate shows up as the f32 evaluation's error, as it should.
- converts to integers, roundings and comparisons can decide differently when an f32 value
  sits on an edge (a floor of 6.9999999 vs 7.0): rounding_decisions lists them, and where
  the f32 evaluation is then far from the f64 one, the error model judges against the f32
  evaluation instead.
- constants keep their printed value (0.1, not f32's 0.100000001490116): a half-ulp
  difference, which is part of what an f32 evaluation is off by.
"""

from __future__ import annotations

import re

import numpy as np

from ..errors import HloscopeError
from ..ir.dtypes import ELEMENT_TYPES
from ..ir.module import HloModule
from ..ir.parser import parse_hlo
from ..ir.shape import ArrayShape
from .api import evaluate

NARROW_FLOATS = ("f16", "bf16", "f32")
_NARROW_NUMPY_NAMES = {ELEMENT_TYPES[name].numpy_name.rpartition(".")[2] for name in NARROW_FLOATS}
_NARROW_SHAPE = re.compile(r"\b(?:f16|bf16|f32)(?=\[)")
# opcodes whose result depends on a float's bits or width, not only on its value
BIT_LEVEL = {
    "bitcast-convert": "bitcast-convert reads a float's bits",
    "rng": "rng draws random bits of the result type",
    "rng-bit-generator": "rng-bit-generator draws random bits",
    "custom-call": "a custom-call's meaning is unknown",
}


# opcodes that can decide differently in f64 when an f32 value sits on an edge
DECISIONS = {"compare", "floor", "ceil", "round-nearest-afz", "round-nearest-even", "sign", "sort", "convert"}


def rounding_decisions(module: HloModule) -> list[str]:
    """Instructions that turn a float into a discrete choice (a comparison, a rounding to an
    integer, a float-to-integer convert, a sort): where f32 and f64 may decide differently."""
    found = []
    for comp, inst in module.all_instructions():
        if inst.opcode not in DECISIONS or not inst.operands:
            continue
        operand, result = comp.operands_of(inst)[0].shape, inst.shape
        if not isinstance(operand, ArrayShape) or operand.dtype not in NARROW_FLOATS:
            continue
        if inst.opcode == "convert" and isinstance(result, ArrayShape) and ELEMENT_TYPES[result.dtype].is_float:
            continue  # float to float: a rounding, not a decision
        found.append(f"{inst.opcode} {inst.name}")
    return found


class NotWidenable(HloscopeError, ValueError):
    """A module whose f64 evaluation would not mean the same program (the reason says why)."""


def widened_module(module: HloModule) -> HloModule:
    """`module` with every f16, bf16 and f32 shape made f64; NotWidenable when that changes
    what the program means, or when it has no narrow floats to widen."""
    for _, inst in module.all_instructions():
        if inst.opcode in BIT_LEVEL:
            raise NotWidenable(f"{BIT_LEVEL[inst.opcode]} ({inst.name})")
    text = module.to_text(metadata=False)
    wide, count = _NARROW_SHAPE.subn("f64", text)
    if count == 0:
        raise NotWidenable("no f16, bf16 or f32 values to widen")
    return parse_hlo(wide)


def evaluate_widened(module: HloModule, *args):
    """evaluate(module, *args) with every narrow float (parameters included) in f64.

    Raises NotWidenable, or the evaluator's own errors for an op it cannot run in f64."""
    wide = widened_module(module)
    return evaluate(wide, *(_widen(a) for a in args))


def _widen(value):
    if isinstance(value, tuple):
        return tuple(_widen(v) for v in value)
    a = np.asarray(value)
    return a.astype(np.float64) if is_narrow_float(a.dtype) else a


def is_narrow_float(dtype) -> bool:
    """f16, bf16 or f32 (bf16 is ml_dtypes' type, which numpy does not call a float)."""
    return np.dtype(dtype).name in _NARROW_NUMPY_NAMES
