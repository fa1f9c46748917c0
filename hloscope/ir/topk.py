"""What a top-k instruction asks for, in either of XLA's two spellings.

    topk(x), k=5, largest=true                                    the HLO op (what jax lowers to)
    custom-call(x), custom_call_target="TopK",                    XLA's optimized form (CPU):
        called_computations={%compare-greater-than}               k is the result's last dim,
                                                                  the comparator says the order

Both give the k largest (or smallest) elements of each row (the last dimension) with their
s32 positions, in order, ties by position (a stable sort's first k). Floats are ordered as
XLA's comparator orders them, by total order: -NaN < -inf < ... < -0 < +0 < ... < inf < +NaN.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .instruction import Instruction
from .shape import ArrayShape, TupleShape

if TYPE_CHECKING:  # annotations only
    from .computation import Computation

TOPK_TARGET = "TopK"


@dataclass(frozen=True)
class TopK:
    k: int
    largest: bool


def is_topk(inst: Instruction) -> bool:
    """The topk op, or the custom-call XLA's passes make of it."""
    return inst.opcode == "topk" or (inst.opcode == "custom-call" and inst.attr("custom_call_target") == TOPK_TARGET)


def topk_of(inst: Instruction, comparator: Computation | None) -> TopK:
    """k and the order of a top-k instruction; `comparator` is the custom-call's called
    computation (None for the topk op, or a custom-call without one: XLA's default, largest)."""
    if inst.opcode == "topk":
        return TopK(int(inst.attr("k")), bool(inst.attr("largest", True)))
    shape = inst.shape
    if not (isinstance(shape, TupleShape) and shape.elements and isinstance(shape.elements[0], ArrayShape)):
        raise ValueError(f"custom-call TopK {inst.name} must return (values, indices), not {shape}")
    values = shape.elements[0]
    if values.rank == 0:
        raise ValueError(f"custom-call TopK {inst.name} must return arrays of rank >= 1, not {values}")
    largest = True if comparator is None else comparator_largest(comparator, inst.name)
    return TopK(values.dims[-1], largest)


def comparator_largest(comp: Computation, where: str) -> bool:
    """True when the comparator's root puts the bigger lhs first (`compare(f(lhs), f(rhs)),
    direction=GT`, as XLA's TopkRewriter makes it), False for LT; refused otherwise."""
    root = comp.root_instruction
    direction = root.attr("direction") if root.opcode == "compare" else None
    lhs_rhs = tuple(_parameters_reached(comp, o) for o in root.operands) if direction else ()
    if direction in ("GT", "LT") and lhs_rhs in (({0}, {1}), ({1}, {0})):
        return (direction == "GT") == (lhs_rhs == ({0}, {1}))
    raise ValueError(f"custom-call TopK {where}: comparator {comp.name} is not a greater-than or "
                     f"less-than of its first two parameters")


def _parameters_reached(comp: Computation, name: str) -> set[int]:
    """The parameter numbers `name` depends on."""
    seen, todo, found = set(), [name], set()
    while todo:
        inst = comp[todo.pop()]
        if inst.name in seen:
            continue
        seen.add(inst.name)
        if inst.opcode == "parameter":
            found.add(inst.parameter_number)
        todo += list(inst.operands)
    return found
