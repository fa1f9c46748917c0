"""The plan of a reduction, for every target's reduction kernels.

    reduce_parts  a reduce-rooted fusion's root split into heroes (reduces over the same
                  input and dimensions, XLA's "hero"), side outputs computed in the same
                  loops (softmax's exp, written while it is summed) and other outputs
    loop_plan     the input's dimensions split at the most minor reduced one: outer, reduced,
                  inner (a row reduction has no inner dimensions, a column reduction does)
    store_sides   the side outputs written at a position of the reduce's input
"""

from __future__ import annotations

from typing import NamedTuple

from ..ir.instruction import Instruction
from ..ir.shape import ArrayShape
from .buffers import ArrayStorage
from .index import Index
from .kernel_io import element_outputs
from .kernel_spec import KernelSpec
from .llvm_types import storage_type, store


class ReduceParts(NamedTuple):
    """A reduce-rooted computation's root elements, each with its output buffers: heroes are
    reduces over the same input dims and dimensions; side outputs are elements with the
    reduce input's dimensions (computed in the same loops); others get loops of their own."""

    heroes: list[tuple[Instruction, list[ArrayStorage]]]
    sides: list[tuple[str, list[ArrayStorage]]]
    others: list[tuple[str, list[ArrayStorage]]]


def reduce_parts(spec: KernelSpec) -> ReduceParts | None:
    """The ReduceParts of the root, or None if it is not reduce-rooted."""
    comp = spec.comp
    root = comp.root_instruction
    elements = list(root.operands) if root.opcode == "tuple" else [root.name]
    heroes = [comp[e] for e in elements if comp[e].opcode == "reduce"]
    if not heroes:
        return None
    first = heroes[0]
    in_dims = comp[first.operands[0]].array_shape.dims
    hero_names = {h.name for h in heroes if comp[h.operands[0]].array_shape.dims == in_dims
                  and h.attr("dimensions") == first.attr("dimensions")}
    parts = ReduceParts([], [], [])
    for name, outs in element_outputs(comp, spec.outputs):
        shape = comp[name].shape
        if name in hero_names:
            parts.heroes.append((comp[name], outs))
        elif isinstance(shape, ArrayShape) and shape.dims == in_dims:
            parts.sides.append((name, outs))
        else:
            parts.others.append((name, outs))
    return parts


def loop_plan(in_shape: ArrayShape, reduced: set) -> dict:
    """Kept dimensions split at the most minor reduced one: outer, reduced, inner (all major
    to minor, size-1 dimensions left out: their index is always 0)."""
    order = [d for d in reversed(in_shape.layout) if in_shape.dims[d] != 1]
    red = [d for d in order if d in reduced]
    last = order.index(red[-1]) if red else len(order) - 1
    return {
        "outer": [d for d in order[: last + 1] if d not in reduced],
        "reduced": red,
        "inner": order[last + 1 :],
    }


def store_sides(em, kf, sides, index: Index) -> None:
    """Write the elementwise side outputs of a reduce fusion at `index` (softmax's exp)."""
    b = em.b
    for name, outs in sides:
        out = outs[0]
        ptr = b.gep(kf.pointer(out), [index.linear_for(b, out.shape)], inbounds=True,
                    source_etype=storage_type(out.shape.dtype))
        store(b, em.value(name, index.retyped(b, out.shape)), ptr, out.shape.dtype)
