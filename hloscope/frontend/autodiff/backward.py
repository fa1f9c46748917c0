"""Reverse mode: the backward sweep over the instructions a function emitted.

    cts = backward(frame, instructions, {output name: its cotangent})

Walks `instructions` last to first. Each one's cotangent (the sum of what its users sent
back) goes through its opcode's VJP rule, which emits the backward instructions and returns
one cotangent per operand. What is left in the table at the end are the cotangents of values
made before `instructions` (the function's inputs, and values it closed over).
"""

from __future__ import annotations

from ...ir.instruction import Instruction
from ..errors import UnsupportedError
from ..source import frame_info, located
from ..trace import Frame
from .cotangents import accumulate
from .registry import REFUSED, VJP_RULES, Node, is_float
from .scopes import emitting_for, emitting_own


class NotDifferentiableError(UnsupportedError):
    """An operation with no derivative rule (or one JAX does not differentiate either)."""


def backward(frame: Frame, instructions: list[Instruction], seeds: dict, transform: str) -> dict:
    cts = dict(seeds)
    for inst in reversed(instructions):
        ct = cts.pop(inst.name, None)
        if ct is None or not is_float(inst.shape) or inst.name in frame.lowering.gradient_stops:
            continue
        rule = VJP_RULES.get(inst.opcode)
        if rule is None:
            raise not_differentiable(inst, REFUSED.get(inst.opcode, ""))
        with emitting_for(frame, inst, transform):
            operand_cts = rule(Node(frame, inst, transform), ct)
        with emitting_own(frame, transform, "add_any", inst):
            for operand, operand_ct in zip(inst.operands, operand_cts):
                accumulate(cts, operand, operand_ct)
    return cts


def not_differentiable(inst: Instruction, why: str = "") -> NotDifferentiableError:
    """The error for `inst`, pointing at the user's line that made it (from its metadata)."""
    md = inst.metadata
    op = md.op_name.rsplit("/", 1)[-1] if md and md.op_name else inst.opcode
    source = frame_info(md.source_file, md.source_line, "") if md and md.source_file and md.source_line else None
    message = f"not differentiable: {op} (HLO {inst.opcode})" + (f": {why}" if why else "")
    return NotDifferentiableError(located(message, source))
