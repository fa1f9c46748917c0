"""Shapes: arrays with a layout (`f32[8,128]{1,0}`), tuples of shapes, and tokens.

Shapes are immutable values. An array's layout is XLA's minor_to_major list: `{1,0}` is
row-major for rank 2. A missing layout means the default (descending) one, which is what
XLA fills in too, so `f32[2,3]` and `f32[2,3]{1,0}` are equal shapes.

`Shape` is the union of the three. Code that knows which case it holds (an `add` has an
array shape, a `tuple` a tuple shape) narrows once with `shape.as_array(name)` or
`shape.as_tuple(name)`: each returns the shape itself typed as that case, or raises
HloVerifierError naming the instruction (`add.3 has shape (f32[2], s32[]) where an array
shape is expected`). `inst.array_shape` is the short form for an instruction's own shape.
Use `isinstance` instead where both cases are legal and the code branches on them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import prod
from typing import Union

import numpy as np

from ..errors import HloVerifierError
from .dtypes import ElementType, element_type, from_numpy


def _not_a(expected: str, shape: "Shape", instruction: str | None) -> HloVerifierError:
    """The error for a shape that is not the case the code expected, naming its owner."""
    owner = f"{instruction} has shape" if instruction else "got shape"
    return HloVerifierError(f"{owner} {shape} where {expected} shape is expected", instruction=instruction)


def default_layout(rank: int) -> tuple[int, ...]:
    """XLA's default minor_to_major layout: the last dimension is the most minor."""
    return tuple(range(rank - 1, -1, -1))


@dataclass(frozen=True)
class ArrayShape:
    """An array of `dtype` with dimensions `dims` stored in `layout` (minor_to_major)."""

    dtype: str
    dims: tuple[int, ...]
    layout: tuple[int, ...] = None  # type: ignore[assignment]
    layout_extra: str = ""  # tiling, memory space, ... after ':' kept verbatim
    dynamic: tuple[bool, ...] = ()  # `<=N` bounded-dynamic dimensions

    def __post_init__(self):
        object.__setattr__(self, "dims", tuple(int(d) for d in self.dims))
        if self.layout is None:
            object.__setattr__(self, "layout", default_layout(len(self.dims)))
        else:
            object.__setattr__(self, "layout", tuple(int(d) for d in self.layout))
        if self.dynamic and not any(self.dynamic):
            object.__setattr__(self, "dynamic", ())

    is_tuple = False
    is_array = True

    def as_array(self, instruction: str | None = None) -> "ArrayShape":
        """This shape, typed as an array (see the module docstring)."""
        return self

    def as_tuple(self, instruction: str | None = None) -> "TupleShape":
        """Raises HloVerifierError naming `instruction`: an array is not a tuple."""
        raise _not_a("a tuple", self, instruction)

    @property
    def element_type(self) -> ElementType:
        return element_type(self.dtype)

    @property
    def numpy_dtype(self) -> np.dtype:
        return element_type(self.dtype).numpy

    @property
    def rank(self) -> int:
        return len(self.dims)

    @property
    def size(self) -> int:
        """Number of elements."""
        return prod(self.dims)

    @property
    def byte_size(self) -> int:
        return self.size * element_type(self.dtype).byte_size

    def with_dtype(self, dtype: str) -> "ArrayShape":
        return ArrayShape(dtype, self.dims, self.layout, self.layout_extra, self.dynamic)

    def with_dims(self, dims) -> "ArrayShape":
        """Same element type, new dimensions, default layout."""
        return ArrayShape(self.dtype, tuple(dims))

    def is_default_layout(self) -> bool:
        return self.layout == default_layout(self.rank) and not self.layout_extra

    def same_dims_and_type(self, other: "Shape") -> bool:
        """Equal ignoring layouts (what XLA's ShapeUtil::Compatible checks)."""
        return isinstance(other, ArrayShape) and other.dtype == self.dtype and other.dims == self.dims

    def __str__(self) -> str:
        if self.dynamic:
            dims = ",".join(f"<={d}" if dyn else str(d) for d, dyn in zip(self.dims, self.dynamic))
        else:
            dims = ",".join(map(str, self.dims))
        text = f"{self.dtype}[{dims}]"
        if self.dims or self.layout_extra:
            extra = f":{self.layout_extra}" if self.layout_extra else ""
            text += "{" + ",".join(map(str, self.layout)) + extra + "}"
        return text

    def short(self) -> str:
        """Without the layout, e.g. `f32[8,128]`, for labels."""
        return f"{self.dtype}[{','.join(map(str, self.dims))}]"


@dataclass(frozen=True)
class TupleShape:
    """A tuple of shapes (which may themselves be tuples)."""

    elements: tuple["Shape", ...] = field(default_factory=tuple)

    is_tuple = True
    is_array = False

    def as_array(self, instruction: str | None = None) -> ArrayShape:
        """Raises HloVerifierError naming `instruction`: a tuple is not an array."""
        raise _not_a("an array", self, instruction)

    def as_tuple(self, instruction: str | None = None) -> "TupleShape":
        """This shape, typed as a tuple (see the module docstring)."""
        return self

    def __post_init__(self):
        object.__setattr__(self, "elements", tuple(self.elements))

    @property
    def byte_size(self) -> int:
        """The tuple's own index table: one pointer per element, as in XLA."""
        return 8 * len(self.elements)

    def leaves(self) -> list[ArrayShape | TokenShape]:
        """The non-tuple shapes inside, depth first (tokens included: narrow with as_array)."""
        out: list[ArrayShape | TokenShape] = []
        for e in self.elements:
            out.extend(e.leaves() if isinstance(e, TupleShape) else [e])
        return out

    def __str__(self) -> str:
        return "(" + ", ".join(map(str, self.elements)) + ")"

    short = __str__


@dataclass(frozen=True)
class TokenShape:
    """`token[]`: orders side effects; carries no data."""

    is_tuple = False
    is_array = False
    byte_size = 0

    def as_array(self, instruction: str | None = None) -> ArrayShape:
        """Raises HloVerifierError naming `instruction`: a token is not an array."""
        raise _not_a("an array", self, instruction)

    def as_tuple(self, instruction: str | None = None) -> TupleShape:
        """Raises HloVerifierError naming `instruction`: a token is not a tuple."""
        raise _not_a("a tuple", self, instruction)

    def __str__(self) -> str:
        return "token[]"

    short = __str__


Shape = Union[ArrayShape, TupleShape, TokenShape]


def scalar(dtype: str) -> ArrayShape:
    return ArrayShape(dtype, ())


def array(dtype: str, *dims: int) -> ArrayShape:
    return ArrayShape(dtype, tuple(dims))


def shape_of(value) -> Shape:
    """The HLO shape of a numpy array (or tuple of arrays)."""
    if isinstance(value, tuple):
        return TupleShape(tuple(shape_of(v) for v in value))
    arr = np.asarray(value)
    return ArrayShape(from_numpy(arr.dtype).name, arr.shape)
