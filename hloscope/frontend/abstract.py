"""Abstract values: what the tracer knows about an array while tracing (shape and dtype).

As in JAX's autodidax, a traced value carries no data, only a `ShapedArray`. The one extra
fact is *weakness*: a Python scalar (`2.0`, `3`, `True`) has no dtype of its own, so numpy 2
(NEP 50) lets the other operand decide: `f32 array + 2.0` stays f32. A traced Python scalar
argument, and any result computed only from weak values, stays weak in the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ..ir.dtypes import from_numpy, is_native
from ..ir.shape import ArrayShape

# The Python type numpy's dtype resolution (`ufunc.resolve_dtypes`) accepts in place of a weak
# value's dtype. bool is the bottom of numpy's type lattice, so a weak bool promotes exactly
# like a bool array and keeps its dtype (resolve_dtypes does not take the type `bool`).
_WEAK_TYPE = {"i": int, "u": int, "f": float}


@dataclass(frozen=True)
class ShapedArray:
    """An array's abstract value: `shape`, numpy `dtype`, and whether it is weakly typed."""

    shape: tuple[int, ...]
    dtype: np.dtype
    weak: bool = False

    def __post_init__(self):
        object.__setattr__(self, "shape", tuple(int(d) for d in self.shape))
        object.__setattr__(self, "dtype", np.dtype(self.dtype))

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def hlo_dtype(self) -> str:
        """The HLO element type name (`f32`, `s64`, `pred`)."""
        return from_numpy(self.dtype).name

    def hlo_shape(self) -> ArrayShape:
        return ArrayShape(self.hlo_dtype, self.shape)

    def strong(self) -> "ShapedArray":
        return replace(self, weak=False) if self.weak else self

    def weak_as(self, weak: bool) -> "ShapedArray":
        return replace(self, weak=weak) if self.weak != weak else self

    def dtype_key(self):
        """The dtype, or for a weak value the Python type that stands for it in numpy's rules."""
        return _WEAK_TYPE.get(self.dtype.kind, self.dtype) if self.weak else self.dtype

    def short(self) -> str:
        """`f32[3,4]`, with a trailing `~` marking a weak type (printed in trace listings)."""
        return f"{self.hlo_dtype}[{','.join(map(str, self.shape))}]" + ("~" if self.weak else "")

    __str__ = short


def supported_dtype(dtype) -> bool:
    """Whether arrays of `dtype` can be traced (HLO has an element type for it that the
    tracer's rules handle: complex, f8 and int4 are IR and evaluator only so far)."""
    try:
        return is_native(from_numpy(dtype).name)
    except TypeError:
        return False


def abstractify(value) -> ShapedArray:
    """The abstract value of a concrete jit argument: a numpy array or scalar, or a Python scalar.

    Python bool/int/float arguments are weak (numpy 2 treats them so in arithmetic);
    anything else raises TypeError.
    """
    if isinstance(value, (bool, int, float)) and not isinstance(value, np.generic):
        dtype = np.result_type(type(value))  # bool, int64, float64: numpy's defaults
        if isinstance(value, int) and not -(2**63) <= value < 2**63:  # refuse now, not after tracing
            raise OverflowError(f"a Python int of {value.bit_length()} bits does not fit in s64, the type it traces as")
        return ShapedArray((), dtype, weak=True)
    if isinstance(value, (np.ndarray, np.generic)):
        if not supported_dtype(value.dtype):
            raise TypeError(f"arrays of dtype {value.dtype} cannot be traced by hloscope.jit")
        return ShapedArray(np.shape(value), value.dtype)
    raise TypeError(f"{type(value).__name__} is not an array type")


def python_scalar(value) -> bool:
    """A Python bool, int or float (not a numpy scalar): weakly typed in numpy 2."""
    return isinstance(value, (bool, int, float)) and not isinstance(value, np.generic)
