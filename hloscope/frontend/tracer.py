"""The Tracer: the stand-in for an array while a function is traced.

A Tracer holds an abstract value (shape and dtype, see abstract.py), the frame (computation)
it lives in, and the HLO instruction that computes it. It speaks numpy's dispatch protocols:
`np.sin(t)` reaches `__array_ufunc__`, `np.concatenate([t, u])` reaches `__array_function__`,
and operators and methods (`t @ w`, `t.sum(axis=1)`) call the same numpy functions. Each ends
in `registry.apply`, which looks up the lowering rule and emits HLO.

What a Tracer cannot do is produce a concrete value: `bool(t)` (an `if` on a traced value),
`float(t)` or `np.asarray(t)` raise ConcretizationError with the user's line and what to use
instead.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from .errors import ConcretizationError, unsupported
from .source import located

_CONTROL_FLOW_HINT = (
    "inside hloscope.jit, arrays are abstract (only shape and dtype are known), so Python "
    "cannot branch or loop on their values. Use np.where(cond, a, b) to choose elementwise, "
    "hloscope.cond(pred, true_fn, false_fn, *operands) to choose between computations, "
    "hloscope.fori_loop / hloscope.while_loop for loops, or mark the argument static with "
    "static_argnums"
)


def _apply(func, *args, **kwargs):
    from .registry import apply  # the registry imports the rules, which import this module

    return apply(func, args, kwargs)


def _operator(func, *args):
    from .registry import apply  # imported here for the same cycle as in _apply

    return apply(func, args, {}, operator=True)


def _unary(func):
    def method(self):
        return _operator(func, self)

    method.__name__ = func.__name__
    return method


def _binary(func, reflected=False):
    if reflected:
        def method(self, other):
            return _operator(func, other, self)
    else:
        def method(self, other):
            return _operator(func, self, other)
    method.__name__ = func.__name__
    return method


class Tracer:
    """An array being traced: abstract value + frame + the instruction that computes it."""

    __slots__ = ("frame", "inst", "aval")
    __array_priority__ = 1000  # numpy operators defer to us

    def __init__(self, frame, inst, aval):
        self.frame = frame
        self.inst = inst
        self.aval = aval

    # ---- what is known: shape and dtype ----
    shape = property(lambda self: self.aval.shape)
    dtype = property(lambda self: self.aval.dtype)
    ndim = property(lambda self: self.aval.ndim)
    size = property(lambda self: self.aval.size)
    key = property(lambda self: (id(self.frame), self.inst.name))
    T = property(lambda self: _apply(np.transpose, self))
    mT = property(lambda self: _apply(np.swapaxes, self, -1, -2))

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of a 0-d traced array")
        return self.shape[0]

    def __repr__(self) -> str:
        return f"Traced<{self.aval.short()}>({self.inst.name})"

    # ---- numpy's dispatch protocols ----
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        from .registry import apply_ufunc  # imported here for the same cycle as in _apply

        return apply_ufunc(ufunc, method, inputs, kwargs)

    def __array_function__(self, func, types, args, kwargs):
        from .registry import apply  # imported here for the same cycle as in _apply

        return apply(func, args, kwargs)

    def __array__(self, dtype=None, copy=None):
        raise ConcretizationError(located(
            f"a traced array ({self.aval.short()}) cannot be converted to a numpy array "
            "(np.asarray/np.array, or a library that calls them); to build an array from traced "
            "values use np.stack or hloscope.numpy.asarray; " + _CONTROL_FLOW_HINT))

    # ---- no concrete values ----
    def _concrete(self, what: str):
        raise ConcretizationError(located(
            f"{what} needs the value of a traced array ({self.aval.short()}); " + _CONTROL_FLOW_HINT))

    def __bool__(self):
        self._concrete("the condition of a Python if/while (or bool())")

    def __int__(self):
        self._concrete("int()")

    def __float__(self):
        self._concrete("float()")

    def __complex__(self):
        self._concrete("complex()")

    def __index__(self):
        self._concrete("using an array as a Python index or size")

    def item(self, *args):
        self._concrete(".item()")

    def tolist(self):
        self._concrete(".tolist()")

    def __iter__(self):
        if not self.shape:
            raise TypeError("iteration over a 0-d traced array")
        return (self[i] for i in range(self.shape[0]))

    def __getitem__(self, index):
        return _apply("getitem", self, index)

    def __setitem__(self, index, value):
        raise unsupported("assigning into a traced array (x[...] = v)",
                          "arrays are immutable in HLO; build the result with np.where, "
                          "np.concatenate or np.pad instead")

    # ---- operators ----
    __neg__, __pos__, __abs__, __invert__ = map(_unary, (np.negative, np.positive, np.abs, np.invert))
    __add__, __sub__, __mul__ = map(_binary, (np.add, np.subtract, np.multiply))
    __truediv__, __floordiv__, __mod__ = map(_binary, (np.true_divide, np.floor_divide, np.remainder))
    __pow__, __matmul__ = map(_binary, (np.power, np.matmul))
    __and__, __or__, __xor__ = map(_binary, (np.bitwise_and, np.bitwise_or, np.bitwise_xor))
    __lshift__, __rshift__ = map(_binary, (np.left_shift, np.right_shift))
    __radd__, __rsub__, __rmul__, __rtruediv__, __rfloordiv__, __rmod__, __rpow__, __rmatmul__ = (
        _binary(f, reflected=True) for f in (np.add, np.subtract, np.multiply, np.true_divide,
                                              np.floor_divide, np.remainder, np.power, np.matmul))
    __rand__, __ror__, __rxor__, __rlshift__, __rrshift__ = (
        _binary(f, reflected=True) for f in (np.bitwise_and, np.bitwise_or, np.bitwise_xor,
                                              np.left_shift, np.right_shift))
    __lt__, __le__, __gt__, __ge__ = map(_binary, (np.less, np.less_equal, np.greater, np.greater_equal))
    __eq__, __ne__ = map(_binary, (np.equal, np.not_equal))
    # == is elementwise, as for numpy arrays, so tracers are unhashable; typeshed declares
    # such classes (list, ndarray) this way, which the override rule does not know.
    __hash__: ClassVar[None] = None  # pyright: ignore[reportIncompatibleMethodOverride]

    # ---- methods, as on numpy arrays ----
    def sum(self, axis=None, dtype=None, keepdims=False):
        return _apply(np.sum, self, axis=axis, dtype=dtype, keepdims=keepdims)

    def prod(self, axis=None, dtype=None, keepdims=False):
        return _apply(np.prod, self, axis=axis, dtype=dtype, keepdims=keepdims)

    def mean(self, axis=None, dtype=None, keepdims=False):
        return _apply(np.mean, self, axis=axis, dtype=dtype, keepdims=keepdims)

    def var(self, axis=None, dtype=None, ddof=0, keepdims=False):
        return _apply(np.var, self, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims)

    def std(self, axis=None, dtype=None, ddof=0, keepdims=False):
        return _apply(np.std, self, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims)

    def max(self, axis=None, keepdims=False):
        return _apply(np.max, self, axis=axis, keepdims=keepdims)

    def min(self, axis=None, keepdims=False):
        return _apply(np.min, self, axis=axis, keepdims=keepdims)

    def any(self, axis=None, keepdims=False):
        return _apply(np.any, self, axis=axis, keepdims=keepdims)

    def all(self, axis=None, keepdims=False):
        return _apply(np.all, self, axis=axis, keepdims=keepdims)

    def argmax(self, axis=None, keepdims=False):
        return _apply(np.argmax, self, axis=axis, keepdims=keepdims)

    def argmin(self, axis=None, keepdims=False):
        return _apply(np.argmin, self, axis=axis, keepdims=keepdims)

    def cumsum(self, axis=None, dtype=None):
        return _apply(np.cumsum, self, axis=axis, dtype=dtype)

    def cumprod(self, axis=None, dtype=None):
        return _apply(np.cumprod, self, axis=axis, dtype=dtype)

    def reshape(self, *shape, order="C"):
        shape = shape[0] if len(shape) == 1 else shape
        return _apply(np.reshape, self, shape, order=order)

    def transpose(self, *axes):
        axes = axes[0] if len(axes) == 1 else (axes or None)
        return _apply(np.transpose, self, axes)

    def swapaxes(self, a, b):
        return _apply(np.swapaxes, self, a, b)

    def squeeze(self, axis=None):
        return _apply(np.squeeze, self, axis=axis)

    def ravel(self, order="C"):
        return _apply(np.ravel, self, order=order)

    flatten = ravel

    def astype(self, dtype, copy=True):
        return _apply(np.astype, self, dtype)

    def clip(self, min=None, max=None):
        return _apply(np.clip, self, min, max)

    def dot(self, other):
        return _apply(np.dot, self, other)

    def round(self, decimals=0):
        return _apply(np.round, self, decimals)

    def copy(self):
        return _apply(np.copy, self)

    def conj(self):
        return self
