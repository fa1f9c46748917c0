"""Argument checks: nothing reaches native code unless its count, shape and dtype match.

A wrong argument is an EvaluationError naming the parameter and both shapes, raised before
the native call, so a mistake can never become a crash or a read past a buffer's end.
Accepted without complaint: read-only arrays (inputs are never written), numpy scalars and
0-d arrays, and non-contiguous arrays (copied into a contiguous one of the same dtype). The
dtype is never converted: an f64 array passed for an f32 parameter is an error, not a cast.
"""

from __future__ import annotations

import numpy as np

from ..errors import EvaluationError
from .signature import Signature


def check_arguments(signature: Signature, args: tuple) -> list[np.ndarray]:
    """The arguments as C-contiguous arrays, or EvaluationError."""
    params = signature.params
    if len(args) != len(params):
        names = ", ".join(f"{p.name}: {p.describe()}" for p in params)
        raise EvaluationError(f"expected {len(params)} argument(s) ({names}), got {len(args)}")
    out = []
    for i, (spec, arg) in enumerate(zip(params, args)):
        if (type(arg) is np.ndarray and arg.dtype == spec.dtype and arg.shape == spec.dims
                and arg.flags.c_contiguous):
            out.append(arg)  # the common case, checked in one line
        else:
            out.append(_check_one(i, spec, arg))
    return out


def _check_one(i: int, spec, arg) -> np.ndarray:
    arr = arg if isinstance(arg, np.ndarray) else np.asarray(arg)
    if arr.dtype != spec.dtype:
        hint = "" if isinstance(arg, np.ndarray) else " (Python numbers become int64/float64: pass a numpy array)"
        raise EvaluationError(
            f"argument {i} ({spec.name}): expected dtype {spec.dtype} with shape {list(spec.dims)}, "
            f"got dtype {arr.dtype} with shape {list(arr.shape)}{hint}"
        )
    if arr.shape != spec.dims:
        raise EvaluationError(
            f"argument {i} ({spec.name}): expected shape {list(spec.dims)} ({spec.dtype}), got shape {list(arr.shape)}"
        )
    if not arr.flags.c_contiguous:
        arr = np.ascontiguousarray(arr)  # a copy of the same dtype; native code reads row-major
    return arr
