"""Indices into arrays: multi-dimensional (one i64 per dimension) and linear (physical).

An array's layout (minor_to_major) decides where element (i0, i1, ...) lives: the linear
offset is the sum of i_k * stride_k, where the most minor dimension has stride 1. An `Index`
carries the multi-dimensional index and, when it is known for free (a loop over the flat
array), the linear one too, so an elementwise fusion over same-shaped arrays never divides
or multiplies: every operand is read at the same linear offset (XLA's IrArray::Index keeps
its `linear_` for the same reason).
"""

from __future__ import annotations

from math import prod
from typing import Sequence

from llvmlite import ir

from ..ir.shape import ArrayShape, default_layout
from .llvm_types import I64, emitted, no_signed_wrap


def physical_strides(dims: Sequence[int], layout: Sequence[int]) -> tuple[int, ...]:
    """Element stride of each logical dimension in an array with this minor_to_major layout."""
    strides = [0] * len(dims)
    step = 1
    for d in layout:
        strides[d] = step
        step *= dims[d]
    return tuple(strides)


def add(b: ir.IRBuilder, x: ir.Value, y: ir.Value) -> ir.Value:
    """x + y, folding constants so the emitted IR stays readable."""
    if isinstance(x, ir.Constant) and isinstance(y, ir.Constant):
        return I64(x.constant + y.constant)
    if isinstance(y, ir.Constant) and y.constant == 0:
        return x
    if isinstance(x, ir.Constant) and x.constant == 0:
        return y
    return no_signed_wrap(b, "add", x, y)


def mul(b: ir.IRBuilder, x: ir.Value, c: int) -> ir.Value:
    """x * c for a constant c, folded when possible."""
    if c == 1:
        return x
    if c == 0:
        return I64(0)
    if isinstance(x, ir.Constant):
        return I64(x.constant * c)
    return no_signed_wrap(b, "mul", x, I64(c))


def linearize(b: ir.IRBuilder, multi: Sequence[ir.Value], dims, layout) -> ir.Value:
    """The physical offset of `multi` in an array of `dims` stored in `layout`."""
    offset: ir.Value = I64(0)
    for i, size, stride in zip(multi, dims, physical_strides(dims, layout)):
        if size != 1:  # the index into a size-1 dimension is always 0
            offset = add(b, offset, mul(b, i, stride))
    return offset


def delinearize(b: ir.IRBuilder, linear: ir.Value, dims, layout) -> list[ir.Value]:
    """The multi-dimensional index of physical offset `linear` (divisions by constants)."""
    multi: list[ir.Value] = [I64(0)] * len(dims)
    rest = linear
    for pos, d in enumerate(layout):
        size = dims[d]
        if size == 1:
            continue
        is_last = all(dims[e] == 1 for e in layout[pos + 1 :])
        multi[d] = rest if is_last else emitted(b.urem(rest, I64(size)))
        if not is_last:
            rest = emitted(b.udiv(rest, I64(size)))
    return multi


def spread(b: ir.IRBuilder, linear: ir.Value, dims: Sequence[int], which: Sequence[int], multi: Sequence) -> list:
    """`multi` with the dimensions `which` (major to minor) set from `linear`, a row-major
    index over those dimensions alone (a row number of a reduction or a sort)."""
    multi = list(multi)
    rest = linear
    for pos, d in enumerate(reversed(which)):
        last = pos == len(which) - 1
        multi[d] = rest if last else b.urem(rest, I64(dims[d]))
        if not last:
            rest = b.udiv(rest, I64(dims[d]))
    return multi


class Index:
    """A position in an array of shape `shape`: its multi-index and maybe its linear offset.

    Either may be given; the other is computed on first use and kept. Callers that open an
    inner loop call `materialize` first, so nothing computed inside the loop is reused outside.
    """

    def __init__(self, shape: ArrayShape, multi: Sequence[ir.Value] | None = None, linear: ir.Value | None = None):
        self.shape = shape
        self._multi: list[ir.Value] | None = list(multi) if multi is not None else None
        self._linear: ir.Value | None = linear
        if multi is None and linear is None:
            raise ValueError("an Index needs a multi-index or a linear one")
        if shape.rank == 0:
            self._multi, self._linear = [], I64(0)

    @classmethod
    def scalar(cls, shape: ArrayShape) -> "Index":
        return cls(shape, multi=[])

    @property
    def has_linear(self) -> bool:
        return self._linear is not None

    def multi(self, b: ir.IRBuilder) -> list[ir.Value]:
        if self._multi is None:
            assert self._linear is not None, "__init__ requires a multi-index or a linear one"
            self._multi = delinearize(b, self._linear, self.shape.dims, self.shape.layout)
        return self._multi

    def linear(self, b: ir.IRBuilder) -> ir.Value:
        if self._linear is None:
            assert self._multi is not None, "__init__ requires a multi-index or a linear one"
            self._linear = linearize(b, self._multi, self.shape.dims, self.shape.layout)
        return self._linear

    def materialize(self, b: ir.IRBuilder) -> "Index":
        self.multi(b)
        return self

    def linear_for(self, b: ir.IRBuilder, shape: ArrayShape) -> ir.Value:
        """The physical offset of this position in another array with the same dimensions."""
        if self._linear is not None and same_physical(self.shape, shape):
            return self._linear
        return linearize(b, self.multi(b), shape.dims, shape.layout)

    def retyped(self, b: ir.IRBuilder, shape: ArrayShape) -> "Index":
        """The same position in an array with the same dimensions (an elementwise operand).

        The same object when the layouts agree, so per-index caches keep working.
        """
        if same_physical(self.shape, shape):
            return self
        return Index(shape, multi=self.multi(b))


def same_physical(a: ArrayShape, b: ArrayShape) -> bool:
    """Whether equal multi-indices have equal linear offsets in both arrays."""
    if a.dims != b.dims:
        return False
    nontrivial = [d for d in a.layout if a.dims[d] != 1]
    return nontrivial == [d for d in b.layout if b.dims[d] != 1]


def is_default_physical(shape: ArrayShape) -> bool:
    """Row-major up to size-1 dimensions: the physical order is numpy's C order."""
    return same_physical(shape, ArrayShape(shape.dtype, shape.dims, default_layout(shape.rank)))


def element_count(shape: ArrayShape) -> int:
    return prod(shape.dims)
