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
    if inst.opcode != "reshape" or not isinstance(operand_shape, ArrayShape):
        return False
    shape = inst.array_shape  # a reshape always produces an array
    return operand_shape.is_default_layout() and shape.is_default_layout() and operand_shape.dtype == shape.dtype


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
            return [tup.operands[inst.attr("index")]]
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
    root = fused.result_shape
    if not isinstance(root, ArrayShape):  # a multi-output root: no element-for-element map
        return False
    if any(not isinstance(p.shape, ArrayShape) or p.shape.layout != root.layout for p in params):
        return False
    todo = [p.name for p in params]
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        for user in fused.users(name):
            inst = fused[user]
            shape = inst.shape
            if not is_elementwise(inst.opcode) or not isinstance(shape, ArrayShape) or shape.dims != root.dims:
                return False
            if user not in seen:
                seen.add(user)
                todo.append(user)
    return bool(params)
