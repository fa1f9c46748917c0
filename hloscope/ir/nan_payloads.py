"""NaN payloads: `nan(0x7f)` in a constant, as XLA reads and prints them.

A NaN's mantissa bits are its payload. XLA prints a NaN whose payload is the quiet NaN's (only
the mantissa's top bit) as `nan`, any other as `nan(0x<payload>)`, with `-` for the sign bit.
Types with a single NaN (the `fn` / `fnuz` f8 and f4 types) take no payload.

    >>> import ml_dtypes, numpy as np
    >>> x = with_payload(np.dtype(ml_dtypes.bfloat16), negative=True, payload=0x7f)
    >>> nan_text(x, np.dtype(ml_dtypes.bfloat16))
    '-nan(0x7f)'
"""

from __future__ import annotations

import re

import numpy as np

from .dtypes import finfo

PAYLOAD = re.compile(r"[-+]?nan\((0x[0-9a-fA-F]+|\d+)\)")


def payload_problem(dtype: np.dtype, name: str, payload: int) -> str | None:
    """Why `payload` cannot be a NaN payload of `dtype` (named `name` in XLA), or None."""
    if name.endswith(("fn", "fnuz", "fnu")):
        return f"{name} has a single NaN, so no NaN payload such as {payload:#x}"
    bits = finfo(dtype).nmant
    if not 0 < payload < 1 << bits:
        return f"NaN payload {payload:#x} does not fit {name}'s {bits}-bit mantissa (1 to {(1 << bits) - 1:#x})"
    return None


def with_payload(dtype: np.dtype, negative: bool, payload: int):
    """The NaN of `dtype` with this sign and payload (exponent all ones, mantissa = payload)."""
    bits = _bits(dtype)
    nmant = finfo(dtype).nmant
    width = dtype.itemsize * 8
    exponent_ones = ((1 << (width - 1 - nmant)) - 1) << nmant
    raw = (1 << (width - 1) if negative else 0) | exponent_ones | payload
    return np.array(raw, bits).view(dtype)[()]


def nan_text(x, dtype: np.dtype) -> str:
    """`nan` / `-nan` for the quiet NaN's payload, else `nan(0x..)`."""
    sign = "-" if np.signbit(x) else ""
    if dtype.name.endswith(("fn", "fnuz", "fnu")):  # one NaN, whatever its bits
        return f"{sign}nan"
    nmant = finfo(dtype).nmant
    payload = int(np.array(x, dtype).view(_bits(dtype))) & ((1 << nmant) - 1)
    return f"{sign}nan" if payload in (0, 1 << (nmant - 1)) else f"{sign}nan({payload:#x})"


def _bits(dtype: np.dtype) -> np.dtype:
    return np.dtype(f"uint{dtype.itemsize * 8}")
