"""What MLIR text is made of, as the StableHLO reader keeps it: types, attributes, operations
in regions in functions in a module. Nothing here knows what an operation means; the reader
(reader.py) fills these in and the legalization (legalize.py) gives them meaning.

Every operation keeps the line it was written on and its location (`loc(...)`), so each HLO
instruction made from it can point back at both: the MLIR line and the user's source line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Union

# MLIR's element types in HLO's spelling: i32 -> s32, ui8 -> u8, i1 -> pred, f8E4M3FN -> f8e4m3fn.
_ELEMENTS = {"i1": "pred", "f16": "f16", "bf16": "bf16", "f32": "f32", "f64": "f64",
             **{f"i{n}": f"s{n}" for n in (2, 4, 8, 16, 32, 64)}, **{f"ui{n}": f"u{n}" for n in (2, 4, 8, 16, 32, 64)},
             **{f"si{n}": f"s{n}" for n in (2, 4, 8, 16, 32, 64)},
             "complex<f32>": "c64", "complex<f64>": "c128",
             "index": "s64"}  # index: only in attributes (a layout's `tensor<2xindex>`)
_FLOAT8 = ("f8E5M2", "f8E4M3", "f8E4M3FN", "f8E4M3B11FNUZ", "f8E3M4", "f8E5M2FNUZ", "f8E4M3FNUZ", "f8E8M0FNU",
           "f4E2M1FN")
_ELEMENTS.update({name: name.lower() for name in _FLOAT8})


def hlo_element(mlir_name: str) -> str | None:
    """The HLO element type spelled `mlir_name` in MLIR, or None when HLO has none."""
    return _ELEMENTS.get(mlir_name)


@dataclass(frozen=True)
class TensorType:
    """`tensor<4x8xf32>`: a static shape and an element type (in HLO's spelling)."""

    element: str
    dims: tuple[int, ...]

    def hlo(self) -> str:
        return f"{self.element}[{','.join(map(str, self.dims))}]"

    @property
    def rank(self) -> int:
        return len(self.dims)

    def scalar(self) -> TensorType:
        return TensorType(self.element, ())


@dataclass(frozen=True)
class TupleType:
    items: tuple[Type, ...]

    def hlo(self) -> str:
        return "(" + ", ".join(t.hlo() for t in self.items) + ")"


@dataclass(frozen=True)
class TokenType:
    def hlo(self) -> str:
        return "token[]"


Type = Union[TensorType, TupleType, TokenType]


@dataclass(frozen=True)
class Dense:
    """`dense<...> : tensor<...>`: the values as written (a nested list, one splat value, or
    a hex string of the raw bytes) and the tensor type they fill."""

    values: Any
    type: TensorType


@dataclass(frozen=True)
class Enum:
    """An enumeration's case, such as `#stablehlo<precision DEFAULT>` or `LT`."""

    value: str


@dataclass(frozen=True)
class Symbol:
    """`@name`: a reference to a function."""

    name: str


@dataclass
class Block:
    arguments: list[tuple[str, Type]]
    operations: list[Operation]


@dataclass
class MlirRegion:
    blocks: list[Block]

    @property
    def block(self) -> Block:
        return self.blocks[0]


@dataclass
class Operation:
    """One MLIR operation. `results` are the SSA names it defines (`%1#0`, `%1#1` for
    `%1:2 = ...`); `attributes` hold both properties (`<{...}>`) and attributes (`{...}`),
    and, for ops printed in their custom form, what that form writes inline (dims = [...])."""

    name: str  # with its dialect: "stablehlo.add", "func.call", "func.return"
    results: list[str]
    operands: list[str]
    operand_types: list[Type]
    result_types: list[Type]
    attributes: dict[str, Any] = field(default_factory=dict)
    regions: list[MlirRegion] = field(default_factory=list)
    line: int = 0  # 1-based, in the MLIR text
    column: int = 0
    location: Any = None  # the parsed `loc(...)`, resolved by locations.py

    @property
    def short_name(self) -> str:
        return self.name.partition(".")[2] or self.name


@dataclass
class Function:
    name: str
    arguments: list[tuple[str, Type]]
    result_types: list[Type]
    body: Block
    public: bool
    line: int
    location: Any = None


@dataclass
class MlirModule:
    """A module: its functions (the entry point is `main`), its dialect and printed form
    ("StableHLO" or "MHLO"; "pretty" or "generic"), and its location aliases (`#loc3 = ...`)."""

    name: str
    functions: dict[str, Function]
    dialect: str
    form: str
    text: str
    location_aliases: dict[str, Any] = field(default_factory=dict)

    @property
    def entry(self) -> Function:
        if "main" in self.functions:
            return self.functions["main"]
        public = [f for f in self.functions.values() if f.public]
        return public[0] if public else next(iter(self.functions.values()))

    def operation_count(self) -> int:
        def count(block: Block) -> int:
            return sum(1 + sum(count(b) for r in op.regions for b in r.blocks) for op in block.operations)

        return sum(count(f.body) for f in self.functions.values())
