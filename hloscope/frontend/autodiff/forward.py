"""Forward mode: the tangent sweep, from the same VJP rules.

An instruction's VJP rule is linear in the cotangent: ct -> (J_1^T ct, ..., J_n^T ct). Emit it
for a placeholder cotangent u, then run the backward sweep over just those instructions, seeded
with the operands' tangents: the cotangent that reaches u is J_1 t_1 + ... + J_n t_n, the
result's tangent (the "transpose of the transpose"). Algebraic simplification and DCE remove
the placeholder and the dead half. An opcode can instead have a forward rule of its own
(JVP_RULES): `while`, whose reverse mode JAX refuses too.
"""

from __future__ import annotations

from ...ir.instruction import Instruction
from ..trace import Frame
from . import cotangents
from .backward import backward, not_differentiable
from .registry import JVP_RULES, VJP_RULES, Node, is_float
from .scopes import emitting_for


def forward(frame: Frame, instructions: list[Instruction], tangents: dict, transform: str) -> dict:
    """{name: tangent} for every instruction whose operands carry one (plus the seeds)."""
    tangents = dict(tangents)
    for inst in instructions:
        ins = [tangents.get(o) for o in inst.operands]
        if all(t is None for t in ins) or not is_float(inst.shape) or inst.name in frame.lowering.gradient_stops:
            continue
        with emitting_for(frame, inst, transform):
            tangent = tangent_of(Node(frame, inst, transform), ins, transform)
        if tangent is not None:
            tangents[inst.name] = tangent
    return tangents


def tangent_of(node: Node, ins: list, transform: str):
    own = JVP_RULES.get(node.inst.opcode)
    if own is not None:
        return own(node, ins)
    rule = VJP_RULES.get(node.inst.opcode)
    if rule is None:
        raise not_differentiable(node.inst)
    frame = node.frame
    placeholder = cotangents.zeros(node.inst.shape)
    start = len(frame.cb.instructions)
    operand_cts = rule(node, placeholder)
    emitted = frame.cb.instructions[start:]
    seeds: dict = {}
    for ct, tangent in zip(operand_cts, ins):
        _seed(seeds, ct, tangent)
    result = backward(frame, emitted, seeds, transform)
    return _collect(result, placeholder)


def _seed(seeds: dict, ct, tangent) -> None:
    """seeds[ct's instruction] += tangent, element by element for tuples."""
    if ct is None or tangent is None:
        return
    if isinstance(ct, list):
        for c, t in zip(ct, tangent):
            _seed(seeds, c, t)
        return
    cotangents.accumulate(seeds, ct.inst.name, tangent)


def _collect(result: dict, placeholder):
    if isinstance(placeholder, list):
        return [_collect(result, p) for p in placeholder]
    return result.get(placeholder.inst.name)
