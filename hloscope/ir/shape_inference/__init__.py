"""Shape inference: the result shape of an HLO op from its operand shapes and attributes.

One rule per opcode, following XLA's `ShapeInference` (xla/service/shape_inference.cc).
The verifier compares each instruction's declared shape with the inferred one; the builder
uses the inferred shape when none is given.

    >>> from hloscope.ir.shape import array
    >>> print(infer_shape("dot", [array("f32", 8, 4), array("f32", 4, 3)],
    ...                   {"lhs_contracting_dims": (1,), "rhs_contracting_dims": (0,)}))
    f32[8,3]{1,0}

Some results are inputs of the op rather than consequences of it: the element type of a
`convert`, the dims of a `reshape` or `broadcast`, a `parameter`'s shape. For those, pass
the instruction's shape as `declared`; the rule checks it is consistent with the operands
and returns the shape it would accept (so the caller can compare, ignoring layout).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..opcodes import OPCODES
from ..shape import Shape
from . import collectives, control, convolution, data, elementwise, fft, indexing, linalg, reduce, scan, side_effects, topk
from .common import OpCall, ShapeRuleError, compatible, fmt, fmt_all

RULES = {**elementwise.RULES, **data.RULES, **reduce.RULES, **indexing.RULES, **control.RULES,
         **convolution.RULES, **topk.RULES, **fft.RULES,
         **collectives.RULES, **linalg.RULES, **side_effects.RULES, **scan.RULES}

__all__ = ["RULES", "ShapeRuleError", "compatible", "fmt", "fmt_all", "infer_shape"]


def infer_shape(
    opcode: str,
    operand_shapes: Sequence[Shape],
    attrs: Mapping[str, Any],
    module: Any = None,
    declared: Shape | None = None,
) -> Shape:
    """The result shape of `opcode` applied to operands of `operand_shapes`.

    module: an HloModule (or a mapping name -> Computation) to look up called computations.
    declared: the instruction's own shape, needed by ops whose result it determines.
    Raises ShapeRuleError (an HloVerifierError) saying what is inconsistent.
    """
    rule = RULES.get(opcode)
    if rule is None:
        known = "known to hloscope but has no shape rule" if opcode in OPCODES else "unknown"
        raise ShapeRuleError(f"opcode {opcode} is {known}")
    call = OpCall(opcode, tuple(operand_shapes), attrs, module, declared)
    try:
        return rule(call)
    except IndexError:
        # A rule read an operand that is not there: the operand count is wrong.
        raise ShapeRuleError(f"{opcode} got too few operands ({len(operand_shapes)})") from None
