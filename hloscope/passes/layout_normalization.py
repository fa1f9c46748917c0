"""layout-normalization: every array in the default (row-major) layout, for the code
generators (XLA's LayoutNormalization, xla/service/layout_normalization.cc, does the same
for its GPU backend).

A layout says how an array's elements lie in memory; what an HLO program computes does not
depend on it, except through bitcast, which reinterprets the bytes. The kernels index each
buffer by its layout, but a loop's state, a tuple's elements, a get-tuple-element and a
call's parameters share or copy buffers byte for byte: where two of them disagree on the
layout, the same bytes stand for other elements. JAX puts layouts on many instructions (a
scan keeps its transposed `f32[20,4,16]{2,0,1}` in a while loop's state, the ENTRY result
is `{2,1,0}`), so the code generators get a program with one layout everywhere:

    before                                                  after
      t = f32[20,4,16]{2,0,1} transpose(a), dimensions=...    t = f32[20,4,16]{2,1,0} transpose(a), ...
      w = (s32[], f32[20,4,16]{2,0,1}) while(init), ...       w = (s32[], f32[20,4,16]{2,1,0}) while(init), ...
      ROOT r = f32[20,4,16]{2,1,0} get-tuple-element(w)       ROOT r = f32[20,4,16]{2,1,0} get-tuple-element(w)

- a bitcast between layouts becomes what it means: a transpose into the operand's memory
  order, a reshape to the result's dimensions in its memory order, and a transpose back;
- a copy that only changed the layout is its operand;
- the ENTRY's parameters and result too: arrays cross the boundary as numpy holds them,
  row-major, so nothing needs converting there either.

It runs first, before the pipeline the compile names (none included): the code generators
need it, so it is theirs (Target.required_passes), recorded like the pipeline's passes. Run
first, it also leaves the pipeline nothing layout-sensitive to get wrong: inlining a call or
merging fusions puts a bitcast next to an operand laid out differently from the parameter
it read, and its bytes would then mean other elements.
"""

from __future__ import annotations

from ..ir.attributes import ProgramShape
from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.module import HloModule
from ..ir.shape import ArrayShape, Shape, TupleShape, default_layout
from .naming import NameUniquer
from .pipeline import HloPass
from .record import DecisionLog
from .rewrite import Rewriter, map_computations


def in_default_layout(shape: Shape) -> Shape:
    """`shape` with every array in it laid out row-major (tiling and memory space dropped)."""
    if isinstance(shape, ArrayShape):
        return shape if shape.is_default_layout() else ArrayShape(shape.dtype, shape.dims, dynamic=shape.dynamic)
    if isinstance(shape, TupleShape):
        elements = tuple(in_default_layout(e) for e in shape.elements)
        return shape if elements == shape.elements else TupleShape(elements)
    return shape


def memory_order(shape: ArrayShape) -> tuple[int, ...]:
    """The dimensions from the most major in memory to the most minor."""
    return tuple(reversed(shape.layout))


def _transposed(rw: Rewriter, operand: str, shape: ArrayShape, order: tuple[int, ...]) -> tuple[str, ArrayShape]:
    """operand (of logical shape `shape`) with its dimensions in `order`; itself if in order."""
    if order == tuple(range(shape.rank)):
        return operand, shape
    out = ArrayShape(shape.dtype, tuple(shape.dims[d] for d in order))
    return rw.add("transpose", out, (operand,), {"dimensions": order}), out


def bitcast_as_data_movement(rw: Rewriter, inst: Instruction, operand: ArrayShape) -> str:
    """A bitcast between layouts, spelled logically: operand bytes in memory order, read as
    the result's dimensions in its memory order, then put back in logical order."""
    result = inst.array_shape
    source, in_memory = _transposed(rw, inst.operands[0], in_default_layout(operand), memory_order(operand))  # type: ignore[arg-type]
    result_order = memory_order(result)
    physical = ArrayShape(result.dtype, tuple(result.dims[d] for d in result_order))
    if physical.dims != in_memory.dims:
        source = rw.add("reshape", physical, (source,))
    back = tuple(result_order.index(d) for d in range(result.rank))
    return _transposed(rw, source, physical, back)[0]


class LayoutNormalization(HloPass):
    """Lays out every array of the program row-major (XLA's default layout): instruction
    shapes, called computations' parameters, the ENTRY's parameters and result. A bitcast
    that reinterprets one layout as another becomes the transposes and reshape it stands
    for; a copy that only changed the layout becomes its operand."""

    name = "layout-normalization"

    def run(self, module: HloModule, log: DecisionLog) -> HloModule:
        names = NameUniquer.for_module(module)
        out = map_computations(module, lambda c: self._normalize(c, names, log))
        layout = module.attrs.get("entry_computation_layout")
        if isinstance(layout, ProgramShape):
            normal = ProgramShape(tuple(in_default_layout(p) for p in layout.parameters), in_default_layout(layout.result))
            if normal != layout:
                out = out.replace(attrs={**out.attrs, "entry_computation_layout": normal})
        return out

    def _normalize(self, comp: Computation, names: NameUniquer, log: DecisionLog) -> Computation:
        if all(in_default_layout(i.shape) is i.shape for i in comp.instructions):
            return comp
        rw = Rewriter(comp, names)
        original = {i.name: i.shape for i in comp.instructions}
        for inst in rw.sweep():
            operand = original[rw.current.operands[0]] if rw.current and rw.current.operands else None
            changes_layout = operand is not None and operand != inst.shape
            if inst.opcode == "bitcast" and isinstance(operand, ArrayShape) and changes_layout and not (
                    operand.is_default_layout() and inst.array_shape.is_default_layout()):
                rw.replace(inst, bitcast_as_data_movement(rw, inst, operand))
                log.add("rewrote", inst.name, f"bitcast {operand} -> {inst.shape} reinterprets one layout as "
                        "another: the transposes and reshape it stands for", computation=comp.name)
            elif inst.opcode == "copy" and changes_layout:
                rw.replace(inst, inst.operands[0])
                log.add("removed", inst.name, f"copy {operand} -> {inst.shape} only changed the layout",
                        computation=comp.name)
            elif in_default_layout(inst.shape) is not inst.shape:
                rw.keep(inst.replace(shape=in_default_layout(inst.shape)))
                log.add("relaid", inst.name, f"{inst.shape} laid out row-major", computation=comp.name)
            else:
                rw.keep(inst)
        return rw.finish()
