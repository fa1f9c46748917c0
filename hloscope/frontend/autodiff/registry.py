"""The differentiation rules: one VJP rule per HLO opcode the tracer emits.

A rule gets the forward instruction (as a `Node`: its operands and result as tracers of the
frame being traced) and the cotangent of its result, and returns one cotangent per operand
(None: zero, or an operand that is not differentiable, such as an index). Cotangents of a
tuple-shaped value are lists, one entry per element.

Why VJP rules and not JAX's JVP + transpose pair: the tracer records HLO directly (there is
no separate linear IR to transpose), so one rule per op is the whole story, and forward mode
comes from the same rule (forward.py transposes it). An op with no rule is refused by name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from ...ir.instruction import Instruction
from ...ir.shape import ArrayShape, Shape, TupleShape
from ..trace import Frame
from ..tracer import Tracer

Cotangent = "Tracer | list | None"
VJP_RULES: dict[str, Callable] = {}
JVP_RULES: dict[str, Callable] = {}  # forward rules of their own (while); others transpose the VJP


def vjp_rule(*opcodes: str):
    """Register `fn(node, ct) -> [operand cotangents]` for `opcodes`."""

    def register(fn):
        for opcode in opcodes:
            VJP_RULES[opcode] = fn
        return fn

    return register


def jvp_rule(*opcodes: str):
    """Register `fn(node, tangents) -> tangent of the result` for `opcodes`."""

    def register(fn):
        for opcode in opcodes:
            JVP_RULES[opcode] = fn
        return fn

    return register


@dataclass
class Node:
    """One forward instruction, seen from a rule: its operands and result as tracers."""

    frame: Frame
    inst: Instruction
    transform: str = ""  # the sweep's scope name (transpose(jvp(f)), jvp(f)), for nested sweeps

    def value(self, name: str) -> Tracer:
        """The array value `name` of this frame as a tracer."""
        return self.frame.wrap(self.frame.cb._by_name[name])

    def operand(self, i: int) -> Tracer:
        return self.value(self.inst.operands[i])

    @property
    def operands(self) -> list[Tracer]:
        return [self.operand(i) for i in range(len(self.inst.operands))]

    @property
    def out(self) -> Tracer:
        return self.frame.wrap(self.inst)

    def attr(self, key: str, default=None):
        value = self.inst.attrs.get(key)
        return default if value is None else value


def is_float(shape: Shape) -> bool:
    """Whether a value of `shape` carries derivatives (floating point, or a tuple holding some)."""
    if isinstance(shape, TupleShape):
        return any(is_float(s) for s in shape.elements)
    return isinstance(shape, ArrayShape) and np.dtype(shape.numpy_dtype).kind in "fc"
