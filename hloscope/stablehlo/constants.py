"""`dense<...>` constants as numpy arrays, and as HLO literal text.

MLIR writes a constant's values three ways: one value for a splat (`dense<0.0>`), nested lists
(`dense<[[1, 2], [3, 4]]>`), or the raw little-endian bytes in hex (`dense<"0x0000803F...">`,
for large constants). Floats that are not finite are written as their bit pattern
(`dense<0xFF800000> : tensor<f32>` is -inf).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..ir.attributes import Literal, format_literal
from ..ir.dtypes import element_type
from .syntax import Dense


class HexBits(int):
    """A number written in hex: a float element's bit pattern rather than its value."""


def dense_array(dense: Dense) -> np.ndarray:
    """The constant's values, shaped and typed as its tensor type says."""
    kind = element_type(dense.type.element)
    dtype = kind.numpy
    shape = dense.type.dims
    values = dense.values
    count = int(np.prod(shape, dtype=np.int64))
    if isinstance(values, str):
        raw = bytes.fromhex(values[2:] if values.lower().startswith("0x") else values)
        flat = np.frombuffer(raw, dtype=dtype)
        if flat.size == 1 and count != 1:
            return np.full(shape, flat[0], dtype=dtype)
        if flat.size != count:
            raise ValueError(f"the hex constant holds {flat.size} elements where its type has {count}")
        return flat.reshape(shape).copy()
    if not isinstance(values, list):
        return np.full(shape, _element(values, kind.name), dtype=dtype)
    flat_values = [_element(v, kind.name) for v in _flatten(values)]
    array = np.array(flat_values, dtype=dtype)
    if array.size != count:
        raise ValueError(f"the constant holds {array.size} values where its type has {count}")
    return array.reshape(shape)


def is_splat(dense: Dense) -> bool:
    return not isinstance(dense.values, (list, str)) or (isinstance(dense.values, str) and
                                                         len(dense.values) - 2 <= 2 * _bytes_per_element(dense))


def literal_text(array: np.ndarray) -> str:
    """HLO's literal text for `array` (`1.5`, `{1, 2}`, `{ {1, 2}, {3, 4} }`)."""
    return format_literal(Literal(array))


def _bytes_per_element(dense: Dense) -> int:
    return element_type(dense.type.element).numpy.itemsize


def _flatten(values: list) -> list:
    out: list = []
    for v in values:
        if isinstance(v, list):
            out.extend(_flatten(v))
        else:
            out.append(v)
    return out


def _element(value: Any, element: str) -> Any:
    """One element. A float (or a complex number's part) written in hex is its bit pattern,
    which f8 and f4 types use for every value they print that way."""
    kind = element_type(element)
    if kind.is_complex:
        part = "f32" if kind.name == "c64" else "f64"
        if isinstance(value, complex):
            return value
        if isinstance(value, tuple):
            return complex(_element(value[0], part), _element(value[1], part))
        return _element(value, part)
    if isinstance(value, HexBits) and kind.is_float:
        bits = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[kind.numpy.itemsize]
        return np.array(int(value), dtype=bits).view(kind.numpy)[()]
    return value
