"""What every shape rule shares: the error type, the call being inferred, and small checks.

A rule receives an `OpCall` (opcode, operand shapes, attributes, the declared result shape
if there is one, and a way to look up called computations) and returns the result shape,
or raises `ShapeRuleError` with a message that says what is wrong in terms of the operands.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn, Protocol, Union

from ...errors import HloVerifierError
from ..attributes import AttrValue
from ..computation import Computation
from ..shape import ArrayShape, Shape, TokenShape, TupleShape

_MISSING = object()


class ShapeRuleError(HloVerifierError):
    """A shape rule failed. The verifier and the builder add where it happened."""


def fail(message: str) -> NoReturn:
    raise ShapeRuleError(message)


def check(condition: bool, message: str) -> None:
    """Raise ShapeRuleError(message) unless `condition` holds."""
    if not condition:
        raise ShapeRuleError(message)


def fmt(shape: Shape) -> str:
    """A shape without layouts (`f32[2,3]`, `(f32[2], s32[])`), as errors show it."""
    if isinstance(shape, TupleShape):
        return "(" + ", ".join(fmt(e) for e in shape.elements) + ")"
    if isinstance(shape, ArrayShape):
        return shape.short()
    return str(shape)


def fmt_all(shapes: Iterable[Shape]) -> str:
    return ", ".join(fmt(s) for s in shapes)


def compatible(a: Shape, b: Shape) -> bool:
    """Equal ignoring layouts: same element types and dimensions, tuples element by element."""
    if isinstance(a, ArrayShape):
        return a.same_dims_and_type(b)
    if isinstance(a, TupleShape):
        return (
            isinstance(b, TupleShape)
            and len(a.elements) == len(b.elements)
            and all(compatible(x, y) for x, y in zip(a.elements, b.elements))
        )
    return isinstance(a, TokenShape) and isinstance(b, TokenShape)


def tuple_or_single(shapes: Sequence[Shape]) -> Shape:
    """One result as itself, several as a tuple (variadic reduce, sort, scatter)."""
    return shapes[0] if len(shapes) == 1 else TupleShape(tuple(shapes))


def check_dims(dims: tuple[int, ...], rank: int, what: str) -> None:
    """Each dimension number in [0, rank) and none repeated."""
    for d in dims:
        check(0 <= d < rank, f"{what} {d} is out of range for rank {rank}")
    check(len(set(dims)) == len(dims), f"{what} {list(dims)} repeat a dimension")


class HasComputations(Protocol):
    """What an HloModule offers a shape rule: its computations by name."""

    def computation(self, name: str) -> Computation: ...


# Where a rule looks up called computations: a module, or the builder's name -> Computation
# mapping while a module is still being built.
Computations = Union[HasComputations, Mapping[str, Computation]]


@dataclass(frozen=True)
class OpCall:
    """One instruction to infer: everything a shape rule may look at."""

    opcode: str
    operands: tuple[Shape, ...]
    attrs: Mapping[str, AttrValue]
    module: Computations | None = None
    declared: Shape | None = None

    def attr(self, key: str, default: Any = _MISSING) -> Any:
        """An attribute's value; a missing required one is a ShapeRuleError naming it.

        Typed Any as Instruction.attr is: the key decides the value's type.
        """
        if key in self.attrs:
            return self.attrs[key]
        if default is _MISSING:
            fail(f"{self.opcode} needs the attribute {key}")
        return default

    def array(self, i: int, role: str = "") -> ArrayShape:
        """Operand i, which must be an array."""
        shape = self.operands[i]
        if not isinstance(shape, ArrayShape):
            fail(f"{role or f'operand {i}'} must be an array, got {fmt(shape)}")
        return shape

    def arrays(self, start: int = 0, stop: int | None = None) -> list[ArrayShape]:
        return [self.array(i) for i in range(start, len(self.operands) if stop is None else stop)]

    def need_declared(self) -> Shape:
        """The declared result shape, for ops whose result cannot be inferred from operands."""
        if self.declared is None:
            fail(f"{self.opcode} needs its result shape to be given")
        return self.declared

    def declared_array(self) -> ArrayShape:
        shape = self.need_declared()
        if not isinstance(shape, ArrayShape):
            fail(f"{self.opcode} must produce an array, not {fmt(shape)}")
        return shape

    def computation(self, key: str) -> Computation:
        """The computation named by attribute `key` (`to_apply`, `body`, ...)."""
        return self.lookup(self.attr(key))

    def lookup(self, name: str) -> Computation:
        if self.module is None:
            fail(f"{self.opcode} calls computation {name}, but no module was given to look it up")
        try:
            if isinstance(self.module, Mapping):
                return self.module[name]
            return self.module.computation(name)
        except KeyError:
            fail(f"computation {name} does not exist")


def signature(comp: Computation) -> tuple[tuple[Shape, ...], Shape]:
    """(parameter shapes, result shape) of a computation, as a ShapeRuleError if it is broken."""
    try:
        return comp.parameter_shapes, comp.result_shape
    except (KeyError, TypeError):
        fail(f"computation {comp.name} is malformed (missing root or parameter numbers)")


def check_params(comp: Computation, expected: Sequence[Shape], role: str) -> Shape:
    """Check `comp` takes exactly `expected` (ignoring layouts); return its result shape."""
    params, result = signature(comp)
    check(
        len(params) == len(expected),
        f"{role} {comp.name} takes {len(params)} parameters, expected {len(expected)} "
        f"({fmt_all(expected)})",
    )
    for i, (got, want) in enumerate(zip(params, expected)):
        check(
            compatible(got, want),
            f"{role} {comp.name} parameter {i} is {fmt(got)}, expected {fmt(want)}",
        )
    return result
