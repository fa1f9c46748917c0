"""Parsing constant literals: `constant(1.5)`, `constant({ {1, 2}, {3, 4} })`, `{...}`, tuples.

Values are read into a numpy array of the constant's element type and range-checked, as
XLA's parser does ("is out of range for literal's primitive type").
"""

from __future__ import annotations

import re

import numpy as np

from .attributes import Literal
from .dtypes import finfo, integer_range, real_part_type
from .nan_payloads import PAYLOAD, payload_problem, with_payload
from .scanner import Scanner
from .shape import ArrayShape, TupleShape

_SCALAR = re.compile(r"true|false|[-+]?(?:nan(?:\([^)]*\))?|inf|(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)")
_COMMENT = re.compile(r"/\*.*?\*/", re.S)
# A complex element is `(real, imag)`, as XLA prints c64 and c128 values.
_COMPLEX = re.compile(rf"\(\s*({_SCALAR.pattern})\s*,\s*({_SCALAR.pattern})\s*\)")


def parse_literal(s: Scanner, shape) -> Literal:
    """Read the literal of a `constant` of `shape` at the scanner's cursor."""
    if isinstance(shape, TupleShape):
        s.expect("(", "'(' to start a tuple literal")
        parts = []
        for i, element in enumerate(shape.elements):
            if i:
                s.expect(",")
            parts.append(parse_literal(s, element))
        s.expect(")")
        return Literal(tuple(parts))
    if not isinstance(shape, ArrayShape):
        s.fail(f"constants of shape {shape} are not supported")
    start = s.pos
    if s.accept("{...}"):
        return Literal(None, elided=True)
    if shape.element_type.is_complex:
        return _complex_literal(s, shape, start)
    if shape.rank == 0:
        m = s.match(_SCALAR)
        if not m:
            s.fail(f"expected a {shape.dtype} value, found {s.describe_here()}")
        return Literal(_to_array([m.group()], shape, s, start).reshape(()))
    tokens = _array_items(s, shape, start, _SCALAR, "values")
    return Literal(_to_array(tokens, shape, s, start).reshape(shape.dims))


def _array_items(s: Scanner, shape: ArrayShape, start: int, item: re.Pattern, what: str) -> list:
    """The items of a braced array literal, its nesting checked against the shape, one per element."""
    if not s.peek("{"):
        s.fail(f"expected '{{' to start the {shape.short()} literal, found {s.describe_here()}")
    text = _COMMENT.sub(" ", s.balanced())
    _check_nesting(text, shape, s, start)
    items = item.findall(text)
    if len(items) != shape.size:
        s.fail(f"literal has {len(items)} {what} but {shape.short()} needs {shape.size}", start)
    return items


_NESTING = re.compile(rf"\{{|\}}|\([^()]*\)|{_SCALAR.pattern}")


def _check_nesting(text: str, shape: ArrayShape, s: Scanner, pos: int) -> None:
    """Braces nest as the dimensions do, each group as long as its dimension (XLA's checks:
    `{1,2,3,4}` is no f32[2,2] and `{{1,2},{3,4}}` no f32[4])."""
    rank, counts = shape.rank, []
    for m in _NESTING.finditer(text):
        token = m.group()
        if token == "{":
            if len(counts) == rank:
                s.fail(f"expects nested array in rank {rank}, but sees larger", pos)
            if counts:
                counts[-1] += 1
            counts.append(0)
        elif token == "}":
            n = counts.pop()
            want = shape.dims[len(counts)]
            if n != want and rank > 1:  # (rank 1: the count of values says it, below)
                s.fail(f"expects {want} elements in dimension {len(counts)} of {shape.short()}, but sees {n}", pos)
        else:
            if len(counts) != rank:
                s.fail(f"expects nested array in rank {rank}, but sees {len(counts)}", pos)
            counts[-1] += 1


def _complex_literal(s: Scanner, shape: ArrayShape, start: int) -> Literal:
    """`(1, 2)` for a scalar, `{(1, 2), (3, 4)}` for an array; XLA takes no bare real here."""
    part = shape.with_dtype(real_part_type(shape.element_type).name)
    if shape.rank == 0:
        m = s.match(_COMPLEX)
        if not m:
            s.fail(f"expected a {shape.dtype} value such as (1, 2), found {s.describe_here()}")
        pairs = [(m.group(1), m.group(2))]
    else:
        pairs = _array_items(s, shape, start, _COMPLEX, "(real, imag) values")
    real = _to_array([p[0] for p in pairs], part, s, start, "real part ")
    imag = _to_array([p[1] for p in pairs], part, s, start, "imaginary part ")
    value = np.empty(len(pairs), shape.numpy_dtype)
    value.real, value.imag = real, imag  # not real + 1j*imag: inf * 1j would make a nan real part
    return Literal(value.reshape(shape.dims))


def _to_array(tokens: list[str], shape: ArrayShape, s: Scanner, pos: int, what: str = "") -> np.ndarray:
    dtype = shape.numpy_dtype
    kind = shape.element_type.kind
    if kind == "pred":
        return np.array([t == "true" or (t not in ("false",) and float(t) != 0) for t in tokens], np.bool_)
    if kind == "float":
        values = [_float(t, s, pos) for t in tokens]
        if shape.dtype == "f8e8m0fnu":  # no zero: XLA rounds a tiny positive up to the smallest, 2^-127
            values = [max(v, 2.0**-127) if 0 < v else v for v in values]
        _check_float_range(values, shape, s, pos, what)
        with np.errstate(over="ignore"):
            array = np.array(values, dtype=np.float64).astype(dtype)
        _set_payloads(array, tokens, shape, s, pos)
        return array
    low, high = integer_range(shape.element_type)
    if shape.element_type.bits == 64:
        low, high = -(1 << 63), (1 << 64) - 1  # XLA reads s64 and u64 from either range, wrapping
    values = []
    for t in tokens:
        try:
            v = int(t)
        except ValueError:
            s.fail(f"{t!r} is not an integer, but the constant is {shape.dtype}", pos)
        if not low <= v <= high:
            s.fail(f"value {v} is out of range for {shape.dtype}, namely [{low}, {high}]", pos)
        if kind == "unsigned" and v < 0:
            v += 1 << 64
        elif kind == "signed" and v >= 1 << 63:
            v -= 1 << 64
        values.append(v)
    return np.array(values, dtype=dtype)


def _check_float_range(values: list[float], shape: ArrayShape, s: Scanner, pos: int, what: str) -> None:
    """XLA's rule: a finite value that does not stay finite in the type is out of range (1e39
    in f32, 1000 in f8e4m3fn, -1 in f8e8m0fnu); one that rounds onto the largest is kept."""
    dtype = shape.numpy_dtype
    info = finfo(dtype)
    high = float(info.max)
    low = float(info.smallest_normal) if shape.dtype == "f8e8m0fnu" else -high  # e8m0: no sign, no zero
    with np.errstate(over="ignore", invalid="ignore"):
        for v in values:
            if v == v and abs(v) != float("inf") and (
                    not np.isfinite(np.array(v).astype(dtype).astype(np.float64)) or (v < low and low > 0)):
                s.fail(f"{what}value {v:g} is out of range for {shape.dtype}, namely [{low:g}, {high:g}]", pos)


def _float(token: str, s: Scanner, pos: int) -> float:
    if "nan" in token:
        return -float("nan") if token.startswith("-") else float("nan")
    value = float(token)
    if value in (float("inf"), -float("inf")) and "inf" not in token:
        s.fail(f"value {token} is out of range for double (+/-1.79769e+308), so for any float type", pos)
    return value


def _set_payloads(array: np.ndarray, tokens: list[str], shape: ArrayShape, s: Scanner, pos: int) -> None:
    """Give each `nan(0x..)` element its payload, as XLA does (checked against the type)."""
    for i, token in enumerate(tokens):
        m = PAYLOAD.fullmatch(token)
        if m is None:
            continue
        payload = int(m.group(1), 0)
        if (problem := payload_problem(array.dtype, shape.dtype, payload)) is not None:
            s.fail(f"{problem} (element {i} of the {shape.short()} constant)", pos)
        array.reshape(-1)[i] = with_payload(array.dtype, token.startswith("-"), payload)
