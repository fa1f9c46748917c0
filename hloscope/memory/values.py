"""What each instruction does to memory: allocate a buffer, alias one, or reuse one in place.

XLA's dataflow analysis (xla/service/hlo_dataflow_analysis.cc) says which instructions
*define* a value and which only pass one through. Here, per instruction:

- a `parameter` or `constant` defines a buffer that comes from outside (or is static data);
- `tuple`, `get-tuple-element`, `bitcast`, a `reshape` that is a bitcast and `opt-barrier`
  define nothing: they *alias* their operand's buffer (a tuple aliases all of them);
- everything else defines a new buffer of its shape's size (a tuple-shaped result, like a
  multi-output fusion's, is counted as one buffer holding all its elements).

An elementwise instruction (or a loop fusion that reads an operand only elementwise) may
write its result *in place* into an operand's buffer when that operand dies there and has
the same size (XLA's CanShareOperandBufferWithUser): `y = exp(x)` needs no second array.
"""

from __future__ import annotations

from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.module import HloModule
from ..ir.opcodes import is_elementwise
from ..ir.shape import ArrayShape, Shape, TupleShape

ALIASING = frozenset({"tuple", "get-tuple-element", "bitcast", "opt-barrier"})
OUTSIDE = frozenset({"parameter", "constant"})


def shape_bytes(shape: Shape) -> int:
    """Bytes of a buffer of this shape (a tuple's elements stored together, no index table)."""
    if isinstance(shape, TupleShape):
        return sum(shape_bytes(s) for s in shape.elements)
    return shape.byte_size


def is_bitcast_reshape(inst: Instruction, operand_shape: Shape) -> bool:
    """A reshape between default (row-major) layouts moves no data: it is a bitcast."""
    return (inst.opcode == "reshape" and isinstance(operand_shape, ArrayShape)
            and operand_shape.is_default_layout() and inst.shape.is_default_layout()
            and operand_shape.dtype == inst.shape.dtype)


def aliases(inst: Instruction, comp: Computation) -> bool:
    """Whether `inst` only passes its operand's buffer through."""
    if inst.opcode in ALIASING:
        return True
    return inst.opcode == "reshape" and is_bitcast_reshape(inst, comp[inst.operands[0]].shape)


def alias_sources(inst: Instruction, comp: Computation) -> list[str]:
    """The operands whose buffers an aliasing instruction points into (a get-tuple-element of
    a `tuple` instruction points at that element's operand)."""
    if inst.opcode == "get-tuple-element":
        tup = comp[inst.operands[0]]
        if tup.opcode == "tuple":
            return [tup.operands[inst.attrs["index"]]]
    return list(dict.fromkeys(inst.operands))


def may_reuse_operand(inst: Instruction, index: int, comp: Computation, module: HloModule | None) -> bool:
    """Can `inst` write its result over operand `index` (same index in, same index out)?"""
    operand = comp[inst.operands[index]].shape
    if not isinstance(inst.shape, ArrayShape) or not isinstance(operand, ArrayShape):
        return False
    same = (operand.dims, operand.layout, shape_bytes(operand)) == (inst.shape.dims, inst.shape.layout,
                                                                  shape_bytes(inst.shape))
    if not same or inst.opcode == "copy":  # a copy exists to make a second buffer (XLA never shares it)
        return False
    if is_elementwise(inst.opcode):
        return True
    if inst.opcode == "fusion" and inst.attr("kind") == "kLoop" and module is not None:
        fused = module.computation(inst.attr("calls"))
        return reads_elementwise(fused, index)
    return False


def reads_elementwise(fused: Computation, number: int) -> bool:
    """Whether parameter `number` reaches the root only through elementwise ops of the
    root's dimensions: then output element i depends on input element i alone."""
    params = [p for p in fused.parameters if p.parameter_number == number]
    root_dims = getattr(fused.result_shape, "dims", None)
    if any(p.shape.layout != fused.result_shape.layout for p in params):
        return False
    todo = [p.name for p in params]
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        for user in fused.users(name):
            inst = fused[user]
            if not is_elementwise(inst.opcode) or getattr(inst.shape, "dims", None) != root_dims:
                return False
            if user not in seen:
                seen.add(user)
                todo.append(user)
    return bool(params)
