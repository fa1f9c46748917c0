"""Random layouts: a module with every array of its instructions laid out in a random valid
layout (any permutation of the dimensions as minor_to_major), where that leaves its meaning
alone. Only bitcast reads its operand's layout (it reinterprets bytes), so a bitcast and its
operands keep theirs; everything else HLO computes is the same in any layout, which is what
the compiled code must honour (tests/reliability/test_random_layouts.py)."""

from __future__ import annotations

import numpy as np

from hloscope.ir.module import HloModule
from hloscope.ir.shape import ArrayShape, Shape, TupleShape


def relaid(shape: Shape, rng: np.random.Generator) -> Shape:
    """`shape` with each array in a random layout."""
    if isinstance(shape, ArrayShape):
        if shape.rank < 2:
            return shape
        return ArrayShape(shape.dtype, shape.dims, tuple(int(d) for d in rng.permutation(shape.rank)),
                          dynamic=shape.dynamic)
    if isinstance(shape, TupleShape):
        return TupleShape(tuple(relaid(e, rng) for e in shape.elements))
    return shape


def with_random_layouts(module: HloModule, seed: int) -> HloModule:
    """`module` with random layouts on every instruction a layout cannot change the meaning of."""
    rng = np.random.default_rng(seed)
    computations = []
    for comp in module.computations:
        fixed = {o for i in comp.instructions if i.opcode == "bitcast" for o in (i.name, *i.operands)}
        new = [i if i.name in fixed else i.replace(shape=relaid(i.shape, rng)) for i in comp.instructions]
        computations.append(comp.replace(instructions=new, root=comp.root))
    attrs = {k: v for k, v in module.attrs.items() if k != "entry_computation_layout"}
    return module.replace(computations=tuple(computations), attrs=attrs)


def non_default_layouts(module: HloModule) -> int:
    """How many instructions have an array in a layout other than the default."""
    def odd(shape: Shape) -> bool:
        if isinstance(shape, ArrayShape):
            return not shape.is_default_layout()
        return isinstance(shape, TupleShape) and any(odd(e) for e in shape.elements)

    return sum(1 for _, i in module.all_instructions() if odd(i.shape))
