"""Element types: XLA's primitive types, their text spellings and their numpy equivalents.

bf16, the f8/f4 floats and the sub-byte integers (s1..s4, u1..u4) have no numpy types of their
own; `ml_dtypes` (the package JAX uses for the same job) provides them, so literals and
evaluator results keep XLA's exact rounding. The list is XLA's PrimitiveType
(xla/xla_data.proto) as jaxlib 0.10.2's parser accepts it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np


def ml_dtypes():
    """The ml_dtypes module, imported on first need: importing it takes about half a second,
    as long as the rest of hloscope, and most programs never use its types."""
    import ml_dtypes

    return ml_dtypes


def finfo(dtype):
    """numpy's finfo for its own float types, ml_dtypes' (which knows bf16 and f8/f4 too)
    for the others."""
    dt = np.dtype(dtype)
    return np.finfo(dt) if dt.name in ("float16", "float32", "float64") else ml_dtypes().finfo(dt)


@dataclass(frozen=True)
class ElementType:
    """One XLA primitive type: its HLO spelling, numpy dtype, width and kind."""

    name: str
    numpy_name: str  # numpy's name for the dtype ("float32"), or ml_dtypes' ("ml_dtypes.bfloat16")
    bits: int
    kind: str  # "pred", "signed", "unsigned", "float" or "complex"

    @cached_property
    def numpy(self) -> np.dtype:
        """The numpy dtype (one of ml_dtypes' for bf16, f8/f4 and the sub-byte integers)."""
        module, _, attr = self.numpy_name.rpartition(".")
        return np.dtype(getattr(ml_dtypes(), attr) if module == "ml_dtypes" else attr)

    @property
    def is_float(self) -> bool:
        return self.kind == "float"

    @property
    def is_complex(self) -> bool:
        return self.kind == "complex"

    @property
    def is_integer(self) -> bool:
        return self.kind in ("signed", "unsigned")

    @property
    def is_signed(self) -> bool:
        return self.kind in ("signed", "float", "complex")

    @property
    def byte_size(self) -> int:
        return max(1, self.bits // 8)


def _t(name: str, dtype, bits: int, kind: str) -> ElementType:
    return ElementType(name, dtype if isinstance(dtype, str) else np.dtype(dtype).name, bits, kind)


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
        _t("bf16", "ml_dtypes.bfloat16", 16, "float"),
        _t("f32", np.float32, 32, "float"),
        _t("f64", np.float64, 64, "float"),
        _t("c64", np.complex64, 64, "complex"),
        _t("c128", np.complex128, 128, "complex"),
        _t("s1", "ml_dtypes.int1", 1, "signed"),
        _t("s2", "ml_dtypes.int2", 2, "signed"),
        _t("s4", "ml_dtypes.int4", 4, "signed"),
        _t("u1", "ml_dtypes.uint1", 1, "unsigned"),
        _t("u2", "ml_dtypes.uint2", 2, "unsigned"),
        _t("u4", "ml_dtypes.uint4", 4, "unsigned"),
        _t("f8e5m2", "ml_dtypes.float8_e5m2", 8, "float"),
        _t("f8e4m3", "ml_dtypes.float8_e4m3", 8, "float"),
        _t("f8e4m3fn", "ml_dtypes.float8_e4m3fn", 8, "float"),
        _t("f8e4m3b11fnuz", "ml_dtypes.float8_e4m3b11fnuz", 8, "float"),
        _t("f8e3m4", "ml_dtypes.float8_e3m4", 8, "float"),
        _t("f8e5m2fnuz", "ml_dtypes.float8_e5m2fnuz", 8, "float"),
        _t("f8e4m3fnuz", "ml_dtypes.float8_e4m3fnuz", 8, "float"),
        _t("f8e8m0fnu", "ml_dtypes.float8_e8m0fnu", 8, "float"),
        _t("f4e2m1fn", "ml_dtypes.float4_e2m1fn", 4, "float"),
    )
}

_BY_NUMPY_NAME = {t.numpy_name: t for t in ELEMENT_TYPES.values()}


def element_type(name: str) -> ElementType:
    """The ElementType spelled `name` in HLO text (`f32`, `pred`, ...)."""
    try:
        return ELEMENT_TYPES[name]
    except KeyError:
        raise ValueError(f"unknown element type {name!r}") from None


def from_numpy(dtype) -> ElementType:
    """The ElementType of a numpy dtype, e.g. float32 -> f32."""
    dt = np.dtype(dtype)
    key = f"ml_dtypes.{dt.name}" if dt.type.__module__.split(".")[0] == "ml_dtypes" else dt.name
    found = _BY_NUMPY_NAME.get(key)
    if found is None or found.numpy != dt:
        raise TypeError(f"numpy dtype {dt} has no XLA element type")
    return found


# The types the code generators handle as themselves. The newer ones (complex, f8/f4,
# sub-byte integers) the CPU backend first rewrites into these (backend/cpu/*_as_*.py);
# the GPU backend refuses them by name.
NATIVE_TYPES = frozenset("pred s8 s16 s32 s64 u8 u16 u32 u64 f16 bf16 f32 f64".split())


def is_native(name: str) -> bool:
    """Whether the code-generating backends handle element type `name`."""
    return name in NATIVE_TYPES


def iinfo(dtype):
    """numpy's iinfo for its own integer types, ml_dtypes' (which knows the sub-byte ones
    too) for the others."""
    dt = np.dtype(dtype)
    return ml_dtypes().iinfo(dt) if dt.type.__module__.split(".")[0] == "ml_dtypes" else np.iinfo(dt)


def integer_range(et: ElementType) -> tuple[int, int]:
    """(min, max) of an integer type, sub-byte ones included."""
    info = iinfo(et.numpy)
    return int(info.min), int(info.max)


def real_part_type(et: ElementType) -> ElementType:
    """c64 -> f32, c128 -> f64; other types are their own real part."""
    return {"c64": ELEMENT_TYPES["f32"], "c128": ELEMENT_TYPES["f64"]}.get(et.name, et)


def complex_of(et: ElementType) -> ElementType | None:
    """f32 -> c64, f64 -> c128; None for a type no complex type is built from."""
    name = {"f32": "c64", "f64": "c128"}.get(et.name)
    return ELEMENT_TYPES[name] if name else None
