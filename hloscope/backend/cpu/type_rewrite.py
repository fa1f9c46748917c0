"""What the CPU's type rewrites share: complex values as pairs of reals (complex_as_pairs.py),
sub-byte integers and f8/f4 floats as the bytes numpy keeps them in (narrow_ints_as_bytes.py,
small_floats_as_bytes.py).

Each rewrites a module, computation by computation (callees first), into types the CPU
emitters know, over the very same buffers. A rewriter walks one computation and appends
instructions to `out`; what it leaves alone passes through, a fusion or call that touches a
rewritten type is replaced by its already rewritten body (a fused kernel's outputs must share
one shape, which rewritten and plain results no longer do).
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from ...ir.attributes import Literal, ProgramShape
from ...ir.computation import Computation
from ...ir.dtypes import element_type
from ...ir.instruction import Instruction
from ...ir.module import HloModule
from ...ir.shape import ArrayShape, Shape, TupleShape
from ..unsupported import unsupported

TARGET = "cpu"

# Ops that only move bytes: over the byte types they are the same op on the byte shape.
BYTE_MOVES = frozenset("parameter tuple get-tuple-element copy reshape transpose broadcast slice concatenate reverse "
                       "select dynamic-slice dynamic-update-slice".split())


def any_array(shape: Shape, test: Callable[[ArrayShape], bool]) -> bool:
    """Does any array in `shape` (a tuple's elements, at any depth) pass `test`?"""
    if isinstance(shape, TupleShape):
        return any(any_array(e, test) for e in shape.elements)
    return isinstance(shape, ArrayShape) and test(shape)


def map_arrays(shape: Shape, change: Callable[[ArrayShape], Shape]) -> Shape:
    """`shape` with `change` applied to every array in it (a tuple keeps its structure)."""
    if isinstance(shape, TupleShape):
        return TupleShape(tuple(map_arrays(e, change) for e in shape.elements))
    return change(shape) if isinstance(shape, ArrayShape) else shape


class TypeRewriter:
    """One computation's rewrite; subclasses say how in `rewrite(inst)`."""

    def __init__(self, comp: Computation, rewritten: dict[str, Computation]):
        self.comp, self.rewritten = comp, rewritten
        self.out: list[Instruction] = []

    def rewrite(self, inst: Instruction) -> None:
        raise NotImplementedError

    def computation(self) -> Computation:
        for inst in self.comp.instructions:
            self.rewrite(inst)
        return Computation(self.comp.name, tuple(self.out), self.comp.root, self.comp.execution_thread)

    def emit(self, name: str, opcode: str, shape: Shape, operands: tuple[str, ...], **attrs) -> str:
        self.out.append(Instruction(name, opcode, shape, operands, attrs))
        return name

    def inline(self, inst: Instruction) -> None:
        """A fusion or call is replaced by its rewritten body, its names prefixed by the call's."""
        callee = self.rewritten[inst.attr("calls") if inst.opcode == "fusion" else inst.attr("to_apply")]
        names = {p.name: inst.operands[p.parameter_number or 0] for p in callee.instructions if p.opcode == "parameter"}
        names[callee.root] = inst.name
        for i in callee.instructions:
            names.setdefault(i.name, f"{inst.name}.{i.name}")
        for i in callee.instructions:
            if i.opcode != "parameter":
                self.out.append(i.replace(name=names[i.name], operands=tuple(names[o] for o in i.operands)))


class BytesRewriter(TypeRewriter):
    """A rewrite of types kept one value a byte (sub-byte integers, f8/f4 floats). What
    touches none of them passes through; a fusion or call is inlined; ops that only move
    data take the byte shape; a constant is its bytes; `convert` and, where a subclass can,
    arithmetic (`compute`) are lowered by the subclass; any other op is refused by name."""

    types: frozenset[str] = frozenset()  # the dtypes rewritten

    def raw_shape(self, shape: Shape) -> Shape:
        """The shape of the bytes the values are kept in."""
        raise NotImplementedError

    def convert(self, inst: Instruction) -> None:
        raise NotImplementedError

    def compute(self, inst: Instruction) -> bool:
        """Lower an op on the values themselves; False when there is no rule for it."""
        return False

    def rewrite(self, inst: Instruction) -> None:
        shapes = [inst.shape, *(self.comp[o].shape for o in inst.operands)]
        if not any(any_array(s, lambda a: a.dtype in self.types) for s in shapes):
            self.out.append(inst)
        elif inst.opcode in ("fusion", "call"):
            self.inline(inst)
        elif inst.opcode in BYTE_MOVES:
            self.out.append(inst.replace(shape=self.raw_shape(inst.shape)))
        elif inst.opcode == "constant" and inst.literal is not None and isinstance(inst.literal.value, np.ndarray):
            byte = element_type(self.raw_shape(inst.shape).as_array().dtype).numpy
            raw = np.asarray(inst.literal.value).view(byte).copy()
            self.out.append(Instruction(inst.name, "constant", self.raw_shape(inst.shape), (), {}, inst.metadata,
                                        literal=Literal(raw)))
        elif inst.opcode == "convert":
            self.convert(inst)
        elif not self.compute(inst):
            dtype = next(s.dtype for s in shapes if isinstance(s, ArrayShape) and s.dtype in self.types)
            raise unsupported(TARGET, f"{inst.opcode} on {dtype}", inst.name)


def rewrite_computations(module: HloModule, rewriter: type[TypeRewriter]) -> list[Computation]:
    """Every computation of `module` rewritten, callees first (module order), each seeing its
    callees' rewritten bodies."""
    done: dict[str, Computation] = {}
    for comp in module.computations:
        done[comp.name] = rewriter(comp, done).computation()
    return list(done.values())


def with_computations(module: HloModule, computations: list[Computation]) -> HloModule:
    """`module` with these computations; its header's entry layout, where it has one, says
    the rewritten types (the executable keeps the original interface: it is the input's)."""
    attrs = dict(module.attrs)
    if "entry_computation_layout" in attrs:
        entry = next(c for c in computations if c.name == module.entry)
        attrs["entry_computation_layout"] = ProgramShape(entry.parameter_shapes, entry.result_shape)
    return HloModule(module.name, tuple(computations), module.entry, attrs, module.stack_frames)
