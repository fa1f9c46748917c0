"""Element types: XLA's primitive types, their text spellings and their numpy equivalents.

bf16 has no numpy type of its own; `ml_dtypes` (the package JAX uses for the same job)
provides one, so literals and evaluator results keep XLA's exact bf16 rounding.
"""

from __future__ import annotations

from dataclasses import dataclass

import ml_dtypes
import numpy as np


@dataclass(frozen=True)
class ElementType:
    """One XLA primitive type: its HLO spelling, numpy dtype, width and kind."""

    name: str
    numpy: np.dtype
    bits: int
    kind: str  # "pred", "signed", "unsigned" or "float"

    @property
    def is_float(self) -> bool:
        return self.kind == "float"

    @property
    def is_integer(self) -> bool:
        return self.kind in ("signed", "unsigned")

    @property
    def is_signed(self) -> bool:
        return self.kind in ("signed", "float")

    @property
    def byte_size(self) -> int:
        return max(1, self.bits // 8)


def _t(name: str, dtype, bits: int, kind: str) -> ElementType:
    return ElementType(name, np.dtype(dtype), bits, kind)


ELEMENT_TYPES: dict[str, ElementType] = {
    t.name: t
    for t in (
        _t("pred", np.bool_, 8, "pred"),
        _t("s8", np.int8, 8, "signed"),
        _t("s16", np.int16, 16, "signed"),
        _t("s32", np.int32, 32, "signed"),
        _t("s64", np.int64, 64, "signed"),
        _t("u8", np.uint8, 8, "unsigned"),
        _t("u16", np.uint16, 16, "unsigned"),
        _t("u32", np.uint32, 32, "unsigned"),
        _t("u64", np.uint64, 64, "unsigned"),
        _t("f16", np.float16, 16, "float"),
        _t("bf16", ml_dtypes.bfloat16, 16, "float"),
        _t("f32", np.float32, 32, "float"),
        _t("f64", np.float64, 64, "float"),
    )
}

_BY_NUMPY = {t.numpy: t for t in ELEMENT_TYPES.values()}


def element_type(name: str) -> ElementType:
    """The ElementType spelled `name` in HLO text (`f32`, `pred`, ...)."""
    try:
        return ELEMENT_TYPES[name]
    except KeyError:
        raise ValueError(f"unknown element type {name!r}") from None


def from_numpy(dtype) -> ElementType:
    """The ElementType of a numpy dtype, e.g. float32 -> f32."""
    dt = np.dtype(dtype)
    try:
        return _BY_NUMPY[dt]
    except KeyError:
        raise TypeError(f"numpy dtype {dt} has no XLA element type") from None
