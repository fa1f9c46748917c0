"""A computation of the module re-emitted into the frame being traced (its body "inlined").

Derivatives of control flow need the forward computation again inside a new branch or loop
body: `inline` replays its instructions on new arguments. Tuples stay lists of values (a
`get-tuple-element` of one is just the element), so the replayed instructions are the
array operations the backward sweep differentiates.
"""

from __future__ import annotations

from typing import Sequence

from ...ir.instruction import Instruction
from ..trace import tracing_frame
from ..tracer import Tracer


def inline(module_builder, computation: str, args: Sequence):
    """Emit `computation` with parameter k bound to args[k] (a tracer, or a list for a tuple);
    its root's value: a tracer, or a list for a tuple root."""
    frame = tracing_frame("inlining a computation")
    comp = module_builder.computations[str(computation)]
    env: dict = {}
    for inst in comp.instructions:
        if inst.opcode == "parameter":
            env[inst.name] = args[inst.parameter_number or 0]
        elif inst.opcode == "get-tuple-element" and isinstance(env[inst.operands[0]], list):
            env[inst.name] = env[inst.operands[0]][inst.attrs["index"]]
        elif inst.opcode == "tuple":
            env[inst.name] = [env[o] for o in inst.operands]
        elif inst.opcode == "constant" and inst.literal is not None:
            env[inst.name] = frame.wrap(frame.cb.constant(inst.literal.value, inst.shape.numpy_dtype,
                                                          metadata=inst.metadata))
        else:
            operands = [as_operand(frame, env[o]) for o in inst.operands]
            made = frame.emit_inst(inst.opcode, operands, inst.shape, metadata=inst.metadata, **inst.attrs)
            env[inst.name] = value_of(frame, made)
    return env[comp.root]


def inline_scalar_computation(module_builder, computation: str, args: Sequence) -> Tracer:
    return inline(module_builder, computation, list(args))


def as_operand(frame, value) -> Tracer:
    """A value as one operand: a list becomes a `tuple` instruction."""
    if isinstance(value, list):
        parts = [as_operand(frame, v) for v in value]
        return value_of(frame, frame.emit_inst("tuple", parts))
    return value


def value_of(frame, inst: Instruction) -> Tracer:
    """A tracer for an instruction of any shape (a tuple-shaped one has no abstract value)."""
    return frame.wrap(inst) if not inst.shape.is_tuple else Tracer(frame, inst, None)


def leaves_of(value) -> list:
    """The array values of a (nested) list, depth first."""
    if isinstance(value, list):
        return [leaf for v in value for leaf in leaves_of(v)]
    return [value]


def rebuild(like_shape, leaves: list):
    """Leaves back into the nesting of a (tuple) shape."""
    it = iter(leaves)

    def build(shape):
        if shape.is_tuple:
            return [build(s) for s in shape.elements]
        return next(it)

    return build(like_shape)


def tuple_leaves(value, frame) -> list:
    """A tuple-valued tracer (or list) as its array leaves, with get-tuple-element where needed."""
    if isinstance(value, list):
        return [leaf for v in value for leaf in tuple_leaves(v, frame)]
    if value.inst.shape.is_tuple:
        out = []
        for i in range(len(value.inst.shape.elements)):
            out += tuple_leaves(value_of(frame, frame.cb.get_tuple_element(value.inst, i)), frame)
        return out
    return [value]
