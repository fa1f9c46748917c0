"""The entry computation's interface in numpy terms: parameter and result shapes and dtypes.

Arrays cross the boundary row-major, as numpy holds them, whatever layout the HLO declares:
the code generators lay every array out so (passes/layout_normalization.py)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..ir.module import HloModule
from ..ir.shape import ArrayShape, TupleShape


@dataclass(frozen=True)
class ArraySpec:
    """One parameter or result array."""

    name: str
    dtype: np.dtype
    dims: tuple[int, ...]
    nbytes: int

    @classmethod
    def of(cls, name: str, shape: ArrayShape) -> "ArraySpec":
        return cls(name, shape.numpy_dtype, shape.dims, shape.byte_size)

    def describe(self) -> str:
        return f"{self.dtype}{list(self.dims)}"


@dataclass(frozen=True)
class Signature:
    """Parameters in order, results flattened in order, and the result's tuple nesting."""

    params: tuple[ArraySpec, ...]
    results: tuple[ArraySpec, ...]
    nesting: object  # None for an array result, else a tuple tree of result indices

    @classmethod
    def of(cls, module: HloModule) -> "Signature":
        entry = module.entry_computation
        params = tuple(ArraySpec.of(p.name, p.array_shape) for p in entry.parameters)  # lowering refuses tuples
        results: list[ArraySpec] = []

        def walk(shape):
            if isinstance(shape, TupleShape):
                return tuple(walk(e) for e in shape.elements)
            results.append(ArraySpec.of(f"result {len(results)}", shape))
            return len(results) - 1

        nesting = walk(entry.root_instruction.shape)
        return cls(params, tuple(results), None if isinstance(nesting, int) else nesting)

    def pack(self, arrays: list):
        """The flat results arranged as the ROOT's tuple shape (or the single array)."""
        if self.nesting is None:
            return arrays[0]
        return _build(self.nesting, arrays)


def _build(node, arrays: list):
    # A module-level function, not a recursive closure: a closure that refers to itself is a
    # reference cycle, which would keep the results alive until the garbage collector runs.
    return tuple(_build(n, arrays) for n in node) if isinstance(node, tuple) else arrays[node]
