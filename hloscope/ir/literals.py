"""Parsing constant literals: `constant(1.5)`, `constant({ {1, 2}, {3, 4} })`, `{...}`, tuples.

Values are read into a numpy array of the constant's element type and range-checked, as
XLA's parser does ("is out of range for literal's primitive type").
"""

from __future__ import annotations

import re

import numpy as np

from .attributes import Literal
from .scanner import Scanner
from .shape import ArrayShape, TupleShape

_SCALAR = re.compile(r"true|false|[-+]?(?:nan(?:\([^)]*\))?|inf|(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)")
_COMMENT = re.compile(r"/\*.*?\*/", re.S)


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
    if shape.rank == 0:
        m = s.match(_SCALAR)
        if not m:
            s.fail(f"expected a {shape.dtype} value, found {s.describe_here()}")
        return Literal(_to_array([m.group()], shape, s, start).reshape(()))
    if not s.peek("{"):
        s.fail(f"expected '{{' to start the {shape.short()} literal, found {s.describe_here()}")
    text = _COMMENT.sub(" ", s.balanced())
    tokens = _SCALAR.findall(text)
    if len(tokens) != shape.size:
        s.fail(f"literal has {len(tokens)} values but {shape.short()} needs {shape.size}", start)
    return Literal(_to_array(tokens, shape, s, start).reshape(shape.dims))


def _to_array(tokens: list[str], shape: ArrayShape, s: Scanner, pos: int) -> np.ndarray:
    dtype = shape.numpy_dtype
    kind = shape.element_type.kind
    if kind == "pred":
        return np.array([t == "true" or (t not in ("false",) and float(t) != 0) for t in tokens], np.bool_)
    if kind == "float":
        values = [_float(t) for t in tokens]
        with np.errstate(over="ignore"):
            return np.array(values, dtype=np.float64).astype(dtype)
    info = np.iinfo(dtype)
    values = []
    for t in tokens:
        try:
            v = int(t)
        except ValueError:
            s.fail(f"{t!r} is not an integer, but the constant is {shape.dtype}", pos)
        if not info.min <= v <= info.max:
            s.fail(f"{v} is out of range for {shape.dtype}", pos)
        values.append(v)
    return np.array(values, dtype=dtype)


def _float(token: str) -> float:
    if "nan" in token:
        return -float("nan") if token.startswith("-") else float("nan")
    return float(token)
