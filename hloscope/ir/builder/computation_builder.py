"""ComputationBuilder: appends instructions to one computation, inferring and checking shapes.

The generic `op` is the one way in; the per-opcode conveniences (`add`, `dot`, `reduce`...)
live in `ops.OpMethods` and all end in `op`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np

from ...errors import HloVerifierError
from ..attributes import Literal, Metadata
from ..computation import Computation
from ..dtypes import element_type, from_numpy
from ..instruction import Instruction
from ..opcodes import COMPUTATION_ATTRS
from ..parser import parse_shape
from ..shape import ArrayShape, Shape
from ..shape_inference import ShapeRuleError, compatible, fmt, fmt_all, infer_shape
from .ops import CompRef, Handle, OpMethods

if TYPE_CHECKING:  # annotations only: module_builder imports this file to hand out builders
    from .module_builder import ModuleBuilder

__all__ = ["CompRef", "ComputationBuilder", "Handle", "as_shape"]


def as_shape(shape: Shape | str) -> Shape:
    """A Shape, also from its text (`"f32[4,8]"`)."""
    return parse_shape(shape) if isinstance(shape, str) else shape


class ComputationBuilder(OpMethods):
    """Appends instructions to one computation; every method returns the new instruction."""

    def __init__(self, module: ModuleBuilder, name: str):
        self.module = module
        self.name = name
        self.instructions: list[Instruction] = []
        self.metadata: Metadata | None = None  # default metadata for new instructions
        self._by_name: dict[str, Instruction] = {}
        self._superseded: dict[str, Instruction] = {}  # name -> the instruction `supersede` replaced
        self._parameters = 0

    def __enter__(self) -> "ComputationBuilder":
        return self

    def __exit__(self, *exc) -> bool:
        return False

    # ---- the generic op ----
    def op(
        self,
        opcode: str,
        operands: Iterable[Handle] = (),
        shape: Shape | str | None = None,
        metadata: Metadata | dict | None = None,
        name: str | None = None,
        **attrs,
    ) -> Instruction:
        """Add `opcode(operands)` with `attrs`; the shape is inferred unless given (then checked)."""
        names = tuple(self._operand(o) for o in operands)
        shapes = [self._by_name[n].shape for n in names]
        shape = None if shape is None else as_shape(shape)
        attrs = self._attrs(attrs)
        where = f"{opcode}({fmt_all(shapes)})"
        try:
            inferred = infer_shape(opcode, shapes, attrs, self.module.computations, declared=shape)
        except ShapeRuleError as e:
            raise ShapeRuleError(f"{where}: {e}", self.name) from None
        if shape is not None and not compatible(inferred, shape):
            raise ShapeRuleError(
                f"{where}: declared shape {fmt(shape)} but inferred {fmt(inferred)}", self.name
            )
        inst = Instruction(
            self._name(opcode, name),
            opcode,
            shape or inferred,
            names,
            attrs,
            self._metadata(metadata),
        )
        return self._add(inst)

    def _attrs(self, attrs: dict) -> dict:
        """Keyword spellings to XLA's (control_predecessors -> control-predecessors); computations to names."""
        out = {}
        for key, value in attrs.items():
            key = key.replace("control_predecessors", "control-predecessors")
            if key == "control-predecessors":
                value = tuple(self._operand(v) for v in value)
            elif COMPUTATION_ATTRS.get(key) == 1:
                value = self.module.ref(value)
            elif COMPUTATION_ATTRS.get(key) == "list":
                value = tuple(self.module.ref(v) for v in value)
            out[key] = value
        return out

    def _operand(self, handle: Handle) -> str:
        name = handle.name if isinstance(handle, Instruction) else handle
        inst = self._by_name.get(name)
        if inst is None or (isinstance(handle, Instruction) and inst is not handle
                            and self._superseded.get(name) is not handle):
            raise HloVerifierError(f"{name} is not an instruction of this computation", self.name)
        return name

    def _name(self, opcode: str, name: str | None) -> str:
        return self.module.names.next(opcode) if name is None else self.module.names.keep_or_rename(name)

    def _metadata(self, metadata: Metadata | dict | None) -> Metadata | None:
        if isinstance(metadata, dict):
            return Metadata(tuple(metadata.items()))
        return metadata if metadata is not None else self.metadata

    def supersede(self, old: Instruction, since: int) -> Instruction:
        """Let the instructions appended from position `since` on take `old`'s place: they move
        to just before it, and the last of them (a value of old's shape) takes old's name, so
        every reader of old reads it. For a rewrite that must not run both (a loop re-run to
        save what it computes replaces the loop that ran first)."""
        *helpers, value = self.instructions[since:]
        if value.shape != old.shape:
            raise HloVerifierError(f"{value.name} cannot replace {old.name}: {fmt(value.shape)} is not "
                                   f"{fmt(old.shape)}", self.name)
        at = next(i for i, inst in enumerate(self.instructions) if inst is old)
        renamed = value.replace(name=old.name)
        between = self.instructions[at + 1:since]
        self.instructions[at:] = [*helpers, renamed, *between]
        del self._by_name[value.name]
        self._by_name[old.name] = renamed
        self._superseded[old.name] = old
        return renamed

    def _add(self, inst: Instruction) -> Instruction:
        self.instructions.append(inst)
        self._by_name[inst.name] = inst
        return inst

    def build(self, root: Handle | None = None) -> Computation:
        """The computation, with `root` (default: the last instruction) as ROOT; registered in the module."""
        if not self.instructions:
            raise HloVerifierError("a computation needs at least one instruction", self.name)
        root_name = self._operand(root) if root is not None else self.instructions[-1].name
        comp = Computation(self.name, tuple(self.instructions), root_name)
        self.module.computations[self.name] = comp
        return comp

    # ---- leaves ----
    def parameter(
        self, shape: Shape | str, name: str | None = None, number: int | None = None,
        metadata: Metadata | dict | None = None,
    ) -> Instruction:
        """The next parameter (numbered in call order unless `number` is given)."""
        shape = as_shape(shape)
        number = self._parameters if number is None else number
        self._parameters = max(self._parameters, number + 1)
        inst = Instruction(
            self._name("parameter", name),
            "parameter",
            shape,
            (),
            {},
            self._metadata(metadata),
            number,
        )
        return self._add(inst)

    def constant(self, value, dtype=None, name: str | None = None,
                 metadata: Metadata | dict | None = None) -> Instruction:
        """A constant from a numpy/Python value; dtype an HLO name (`"f32"`) or numpy dtype.

        Without dtype, numpy's rules apply: a Python float becomes f64, an int s64.
        """
        np_dtype = element_type(dtype).numpy if isinstance(dtype, str) else dtype
        arr = np.asarray(value, dtype=np_dtype)
        shape = ArrayShape(from_numpy(arr.dtype).name, arr.shape)
        inst = Instruction(
            self._name("constant", name),
            "constant",
            shape,
            (),
            {},
            self._metadata(metadata),
            literal=Literal(arr.copy()),
        )
        return self._add(inst)

    def _shape(self, handle: Handle) -> Shape:
        return self._by_name[self._operand(handle)].shape
