"""Typed views of llvmlite values, where pyright cannot infer them from llvmlite's source.

llvmlite has no type stubs, so pyright reads its code, and two of its guesses are wrong:
IRBuilder's arithmetic and casts (add, mul, zext, bitcast, ...) are made by decorators it
cannot see through, so it types their results as None; and ir.Value, the base class of
every value, declares no `.type` (each subclass sets its own).
"""

from __future__ import annotations

from typing import Union, cast

from llvmlite import ir

Typed = Union[ir.Constant, ir.NamedValue]  # the values that carry a `.type`: constants, instructions, arguments


def built(value: object) -> ir.Value:
    """The result of an IRBuilder method that pyright types as None (see above)."""
    return cast(ir.Value, value)


def type_of(value: ir.Value) -> ir.Type:
    """The LLVM type of a register value."""
    return cast(Typed, value).type
