"""Typed attribute values: windows, slices, padding, metadata, literals and raw text.

Each value prints itself in XLA's text syntax, so the printer only has to join them.
Attributes that hloscope does not interpret (sharding, backend_config, frontend_attributes,
anything unknown) are kept as `Raw` text and printed back unchanged, never dropped.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Union

import numpy as np

from .aliasing import BufferDonor, InputOutputAlias
from .conv_dims import ConvDimLabels
from .dtypes import from_numpy
from .nan_payloads import nan_text
from .replica_groups import ReplicaGroups, SourceTargetPairs
from .shape import Shape


@dataclass(frozen=True)
class Raw:
    """Attribute text kept verbatim (e.g. `{replicated}` or a JSON backend_config)."""

    text: str

    def __str__(self) -> str:
        return self.text

    def json(self):
        """The value parsed as JSON (backend_config is JSON on CPU and GPU); None if it is not."""
        try:
            return json.loads(self.text)
        except ValueError:
            return None


@dataclass(frozen=True)
class SliceDim:
    """`[start:limit:stride]` for one dimension."""

    start: int
    limit: int
    stride: int = 1

    def __str__(self) -> str:
        return f"[{self.start}:{self.limit}:{self.stride}]"


def format_slice(dims: tuple[SliceDim, ...]) -> str:
    return "{" + ", ".join(map(str, dims)) + "}"


@dataclass(frozen=True)
class PadDim:
    """Low, high and interior padding of one dimension (`lo_hi_interior`)."""

    low: int
    high: int
    interior: int = 0

    def __str__(self) -> str:
        return f"{self.low}_{self.high}_{self.interior}" if self.interior else f"{self.low}_{self.high}"


def format_padding(dims: tuple[PadDim, ...]) -> str:
    return "x".join(map(str, dims)) if dims else "{}"


@dataclass(frozen=True)
class WindowDim:
    """One dimension of a reduce-window/select-and-scatter window."""

    size: int
    stride: int = 1
    pad_low: int = 0
    pad_high: int = 0
    lhs_dilate: int = 1
    rhs_dilate: int = 1
    reversal: bool = False


def format_window(dims: tuple[WindowDim, ...]) -> str:
    """XLA's window syntax; fields equal to their default are left out, as XLA does."""
    if not dims:
        return "{}"
    parts = ["size=" + "x".join(str(d.size) for d in dims)]
    if any(d.stride != 1 for d in dims):
        parts.append("stride=" + "x".join(str(d.stride) for d in dims))
    if any(d.pad_low or d.pad_high for d in dims):
        parts.append("pad=" + "x".join(f"{d.pad_low}_{d.pad_high}" for d in dims))
    if any(d.lhs_dilate != 1 for d in dims):
        parts.append("lhs_dilate=" + "x".join(str(d.lhs_dilate) for d in dims))
    if any(d.rhs_dilate != 1 for d in dims):
        parts.append("rhs_dilate=" + "x".join(str(d.rhs_dilate) for d in dims))
    if any(d.reversal for d in dims):
        parts.append("rhs_reversal=" + "x".join(str(int(d.reversal)) for d in dims))
    return "{" + " ".join(parts) + "}"


# A metadata field: quoted text, a number, or anything else kept verbatim.
MetadataValue = Union[str, int, Raw]


@dataclass(frozen=True)
class Metadata:
    """`metadata={op_name="..." source_file="..." source_line=N ...}`, fields in order.

    `fields` is a tuple of (key, value) with str values for quoted fields and int for numbers,
    so unknown metadata keys survive a round trip too.
    """

    fields: tuple[tuple[str, MetadataValue], ...] = ()

    def get(self, key: str, default: MetadataValue | None = None) -> MetadataValue | None:
        for k, v in self.fields:
            if k == key:
                return v
        return default

    @property
    def op_name(self) -> str | None:
        return _text(self.get("op_name"))

    @property
    def source_file(self) -> str | None:
        return _text(self.get("source_file"))

    @property
    def source_line(self) -> int | None:
        line = self.get("source_line")
        return line if isinstance(line, int) else None

    def __str__(self) -> str:
        parts = []
        for k, v in self.fields:
            parts.append(f"{k}={quote(v)}" if isinstance(v, str) else f"{k}={v}")
        return "{" + " ".join(parts) + "}"


def _text(value: MetadataValue | None) -> str | None:
    """A quoted metadata field's text; None when the field is missing or not a string."""
    return value if isinstance(value, str) else None


def quote(text: str) -> str:
    """An HLO string literal (C-style escapes, as XLA's CEscape)."""
    body = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + body.replace("\n", "\\n").replace("\t", "\\t").replace("\r", "\\r") + '"'


@dataclass(frozen=True, eq=False)
class Literal:
    """A constant's value: a numpy array of the constant's element type (or a tuple of them).

    `elided` marks XLA's `{...}`: the dump left the values out, so they are unknown.
    """

    value: np.ndarray | tuple[Literal, ...] | None  # None only when elided
    elided: bool = False

    def __eq__(self, other) -> bool:
        if not isinstance(other, Literal) or self.elided != other.elided:
            return False
        a, b = self.value, other.value
        if isinstance(a, tuple) or isinstance(b, tuple):
            return a == b
        if a is None or b is None:
            return a is b
        return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b, equal_nan=True)

    def __hash__(self) -> int:
        if isinstance(self.value, np.ndarray):
            return hash((self.value.shape, str(self.value.dtype), self.value.tobytes()))
        return hash(self.elided)


def format_float(x, dtype: np.dtype) -> str:
    """Shortest text that reads back as the same value of `dtype` (XLA's RoundTripFpToString)."""
    if np.isnan(x):
        return nan_text(x, dtype)
    if np.isinf(x):
        return "-inf" if x < 0 else "inf"
    text = str(dtype.type(x)) if dtype != np.float64 else repr(float(x))
    if text.endswith(".0"):
        text = text[:-2]
    return text


def format_scalar(x, dtype: np.dtype) -> str:
    if dtype == np.bool_:
        return "true" if x else "false"
    kind = from_numpy(dtype).kind
    if kind in ("signed", "unsigned"):
        return str(int(x))
    if kind == "complex":
        part = np.dtype(np.float32 if dtype == np.complex64 else np.float64)
        return f"({format_float(x.real, part)}, {format_float(x.imag, part)})"
    return format_float(x, dtype)


def format_literal(lit: Literal) -> str:
    """The constant's text: `1.5`, `{1, 2, 3}`, `{ {1, 2}, {3, 4} }`, `(1, {2})` or `{...}`."""
    if lit.elided:
        return "{...}"
    if isinstance(lit.value, tuple):
        return "(" + ", ".join(format_literal(v) for v in lit.value) + ")"
    arr = lit.value
    if arr is None:  # only an elided literal has no value, and that returned above
        raise ValueError("a literal that is not elided has no value")
    if arr.ndim == 0:
        return format_scalar(arr[()], arr.dtype)
    flat = [format_scalar(v, arr.dtype) for v in arr.reshape(-1)]
    return _nest(flat, arr.shape)


def _nest(flat: list[str], dims: tuple[int, ...]) -> str:
    if len(dims) == 1:
        return "{" + ", ".join(flat) + "}"
    step = len(flat) // dims[0] if dims[0] else 0
    rows = [_nest(flat[i * step : (i + 1) * step], dims[1:]) for i in range(dims[0])]
    return "{ " + ", ".join(rows) + " }" if rows else "{}"


# What an instruction's attribute holds; the key decides which: `dimensions` a tuple of ints,
# `to_apply` a computation name, `branch_computations` and `control-predecessors` tuples of
# names, `index` an int, `is_stable` a bool, `slice`/`padding`/`window` their dimension
# tuples, `dim_labels` a ConvDimLabels (printed by its __str__), and `Raw` text for everything hloscope keeps without interpreting.
AttrValue = Union[
    str, int, bool, Raw,
    tuple[int, ...], tuple[str, ...], tuple[SliceDim, ...], tuple[PadDim, ...], tuple[WindowDim, ...],
    ConvDimLabels, ReplicaGroups, SourceTargetPairs,
]


@dataclass(frozen=True)
class ProgramShape:
    """`(param shapes) -> result shape`, as in `entry_computation_layout={...}`."""

    parameters: tuple[Shape, ...]
    result: Shape

    def __str__(self) -> str:
        return "{(" + ", ".join(map(str, self.parameters)) + ")->" + str(self.result) + "}"


# What a module header attribute holds: the entry's layout, is_scheduled, the aliasing of
# outputs to parameters, or verbatim text.
ModuleAttrValue = Union[ProgramShape, bool, InputOutputAlias, BufferDonor, Raw]
