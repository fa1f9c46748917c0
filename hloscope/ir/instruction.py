"""An HLO instruction: an immutable value whose operands are names.

Because an instruction never changes after it is made, a computation that holds it can be
kept as a snapshot for free, and what the printer shows is exactly what is stored. To
"change" an instruction, make a new one with `replace`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from ..errors import HloVerifierError
from .attributes import AttrValue, Literal, Metadata
from .opcodes import COMPUTATION_ATTRS
from .shape import ArrayShape, Shape


@dataclass(frozen=True)
class Instruction:
    """`name = shape opcode(operands), attrs...`.

    attrs holds the opcode's attributes in print order, as typed values (tuples of ints for
    `dimensions`, names for `to_apply`, `Raw` text for what hloscope does not interpret).
    Never mutate it: build a new instruction with `replace(attrs=...)`.
    """

    name: str
    opcode: str
    shape: Shape
    operands: tuple[str, ...] = ()
    attrs: dict[str, AttrValue] = field(default_factory=dict)
    metadata: Metadata | None = None
    parameter_number: int | None = None  # parameter(N)
    literal: Literal | None = None  # constant(...)
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "operands", tuple(self.operands))
        # Equal instructions must hash equal: hash the fields that identify one (a subset
        # of what == compares), once, since instructions are dict keys in every pass.
        object.__setattr__(self, "_hash", hash((self.name, self.opcode, self.shape, self.operands)))

    def __hash__(self) -> int:
        return self._hash

    def replace(self, **changes) -> "Instruction":
        """A copy with some fields changed (e.g. `inst.replace(operands=("a", "b"))`)."""
        return dataclasses.replace(self, **changes)

    def attr(self, key: str, default: Any = None) -> Any:
        """The attribute's value, or `default`.

        Typed Any on purpose: the key decides the value's type (see AttrValue), which a type
        checker cannot follow from a string; the caller knows what `dimensions` holds.
        """
        return self.attrs.get(key, default)

    @property
    def control_predecessors(self) -> tuple[str, ...]:
        """Names of the instructions that must run before this one without feeding it."""
        return _names("control-predecessors", self.attrs.get("control-predecessors", ()), self.name)

    def with_attrs(self, **updates: AttrValue | None) -> "Instruction":
        """A copy with attributes added or changed (a value of None removes it)."""
        attrs = dict(self.attrs)
        for k, v in updates.items():
            key = k.replace("__", "-")
            if v is None:
                attrs.pop(key, None)
            else:
                attrs[key] = v
        return self.replace(attrs=attrs)

    def called_computations(self) -> tuple[str, ...]:
        """Names of the computations this instruction calls, in attribute order."""
        names: list[str] = []
        for key, value in self.attrs.items():
            arity = COMPUTATION_ATTRS.get(key)
            if arity == 1:
                names.append(_name(key, value, self.name))
            elif arity == "list":
                names.extend(_names(key, value, self.name))
        return tuple(names)

    def rename_calls(self, mapping: dict[str, str]) -> "Instruction":
        """A copy whose called-computation names are mapped through `mapping`."""
        attrs = dict(self.attrs)
        for key, value in self.attrs.items():
            arity = COMPUTATION_ATTRS.get(key)
            if arity == 1:
                name = _name(key, value, self.name)
                attrs[key] = mapping.get(name, name)
            elif arity == "list":
                attrs[key] = tuple(mapping.get(v, v) for v in _names(key, value, self.name))
        return self.replace(attrs=attrs)

    @property
    def array_shape(self) -> ArrayShape:
        """This instruction's shape where it must be an array; HloVerifierError naming it if not."""
        return self.shape.as_array(self.name)

    @property
    def source_line(self) -> int | None:
        return self.metadata.source_line if self.metadata else None

    def __str__(self) -> str:
        # Imported here, not at the top: the printer imports this module (import cycle).
        from .printer import format_instruction

        return format_instruction(self)


def _is_names(value: object) -> TypeGuard[tuple[str, ...]]:
    return isinstance(value, tuple) and all(isinstance(v, str) for v in value)


def _names(key: str, value: object, instruction: str) -> tuple[str, ...]:
    """An attribute that names computations or instructions, checked to be a tuple of names."""
    if not _is_names(value):
        raise HloVerifierError(f"{instruction}: attribute {key} must be a tuple of names, not {value!r}",
                               instruction=instruction)
    return value


def _name(key: str, value: object, instruction: str) -> str:
    """An attribute that names one computation (`to_apply`), checked to be a name."""
    if not isinstance(value, str):
        raise HloVerifierError(f"{instruction}: attribute {key} must be a computation name, not {value!r}",
                               instruction=instruction)
    return value
