"""`LazyTensor`: an array that records the numpy calls made on it instead of running them.

numpy's dispatch protocols bring every call here: `np.tanh(t)` reaches `__array_ufunc__`,
`np.mean(t)` `__array_function__`, operators and methods call the same numpy functions, and
`t[i]` records a getitem. Each call becomes one `PendingOp` of the pending graph (graph.py), with
its result's shape and dtype found at once (infer.py). Reading a value (`.numpy()`,
`.item()`, `float()`, `print`, `bool()`) runs the pending graph first: an implicit sync
(step.py), counted with the user's line.

PyTorch's autograd idioms: `requires_grad=True` on a leaf, `loss.backward()` fills `.grad`
(accumulating, as torch does), `w.grad = None`, and in-place updates under `lz.no_grad()`.
"""

from __future__ import annotations

import operator
import time
from typing import Any, ClassVar

import numpy as np

from ..errors import UnsupportedError
from ..frontend.pytree import unflatten
from ..frontend.source import user_frame
from . import step
from .graph import Call, Data, InputSlot, PendingOp, Ref, call_key
from .infer import result_avals
from .live import grad_enabled, register
from .metrics import METRICS

_SHAPE_FUNCTIONS = {np.shape: lambda t: t.shape, np.ndim: lambda t: t.ndim, np.size: lambda t: t.size}


def tensor(array: Any, requires_grad: bool = False, dtype: Any = None) -> "LazyTensor":
    """A lazy tensor holding a copy of `array` as device data (the caller's array is never
    written). `requires_grad=True` makes it a leaf whose `.grad` backward() fills."""
    data = np.array(array, dtype=dtype, copy=True, order="C")
    if requires_grad and data.dtype.kind not in "fc":
        raise TypeError(f"only floating-point tensors can require gradients (this one is {data.dtype})")
    METRICS.to_device(data.nbytes)
    t = LazyTensor(Ref(Data(data, user_frame())))
    t.requires_grad = requires_grad
    return t


class LazyTensor:
    """See the module docstring."""

    __slots__ = ("_ref", "_origin", "_history", "_grad", "requires_grad", "is_leaf", "_order", "__weakref__")
    __array_priority__ = 1000  # numpy operators defer to us

    def __init__(self, ref: Ref, requires_grad: bool = False, is_leaf: bool = True):
        self._ref = ref
        self._origin: Data | None = None  # the device data this tensor held before an in-place update
        self._history: Ref | None = None  # how a non-leaf was computed, kept for backward() after a step
        self._grad: LazyTensor | None = None
        self.requires_grad = requires_grad
        self.is_leaf = is_leaf
        self._order = register(self)

    # ---- what is known without running anything ----
    shape = property(lambda self: self._ref.aval.shape)
    dtype = property(lambda self: self._ref.aval.dtype)
    ndim = property(lambda self: len(self._ref.aval.shape))
    size = property(lambda self: self._ref.aval.size)
    T = property(lambda self: record("function", np.transpose, (self,), {}))

    @property
    def pending(self) -> bool:
        """Whether this tensor's value waits on operations not yet run."""
        return self._ref.pending

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of a 0-d lazy tensor")
        return self.shape[0]

    def __iter__(self):
        if not self.shape:
            raise TypeError("iteration over a 0-d lazy tensor")
        return (self[i] for i in range(self.shape[0]))

    # ---- gradients ----
    @property
    def grad(self) -> "LazyTensor | None":
        return self._grad

    @grad.setter
    def grad(self, value: "LazyTensor | None") -> None:
        if value is not None and not isinstance(value, LazyTensor):
            raise TypeError(f"a .grad must be a lazy tensor or None, not a {type(value).__name__}")
        if value is not None and (value.shape != self.shape or value.dtype != self.dtype):
            raise ValueError(f"a .grad must match its tensor: {value._ref.aval.short()} for {self._ref.aval.short()}")
        self._grad = value

    def backward(self, gradient: "LazyTensor | None" = None) -> None:
        """Accumulate d(self)/d(leaf) into `.grad` of every leaf that requires grad and that
        this tensor depends on (recorded; computed at the next step)."""
        from .autograd import backward  # autograd builds tensors: imported on use

        backward(self, gradient)

    def detach(self) -> "LazyTensor":
        """The same value, cut from the autograd graph."""
        out = record("function", np.copy, (self,), {}, differentiable=False)
        out.requires_grad = False
        return out

    def requires_grad_(self, requires_grad: bool = True) -> "LazyTensor":
        if not self.is_leaf:
            raise RuntimeError("requires_grad can only be set on a leaf tensor")
        if requires_grad and self.dtype.kind not in "fc":
            raise TypeError(f"only floating-point tensors can require gradients (this one is {self.dtype})")
        self.requires_grad = requires_grad
        return self

    def zero_(self) -> "LazyTensor":
        return self._inplace(lambda a, _: np.zeros_like(a), None, "zero_")

    # ---- reading values: these run the pending graph ----
    def _value(self, what: str) -> np.ndarray:
        if self._ref.pending:
            step.sync(implicit=True, what=what, source=user_frame())
        node = self._ref.node
        assert isinstance(node, Data), "a step leaves every live tensor's value as device data"
        METRICS.from_device(node.array.nbytes)
        return node.array

    def numpy(self) -> np.ndarray:
        """A copy of the value on the host (the device buffer may be updated in place later)."""
        return self._value(".numpy()").copy()

    def item(self) -> Any:
        return self._value(".item()").item()

    def tolist(self) -> Any:
        return self._value(".tolist()").tolist()

    def __array__(self, dtype=None, copy=None) -> np.ndarray:
        return np.array(self._value("np.asarray()"), dtype=dtype, copy=True)

    def __float__(self) -> float:
        return float(self._value("float()"))

    def __int__(self) -> int:
        return int(self._value("int()"))

    def __bool__(self) -> bool:
        return bool(self._value("bool() (an if or while on a tensor)"))

    def __index__(self) -> int:
        value = self._value("use as an index")
        if value.dtype.kind not in "iub" or value.ndim:
            raise TypeError(f"only integer scalar tensors can be used as an index, not {self._ref.aval.short()}")
        return int(value)

    def __repr__(self) -> str:
        return f"lazy_tensor({np.array2string(self._value('repr()'), separator=', ')}, dtype={self.dtype})"

    def __str__(self) -> str:
        return str(self._value("str() or print()"))

    def __format__(self, spec: str) -> str:
        value = self._value("format() (an f-string)")
        return format(value.item() if value.ndim == 0 else value, spec)

    # ---- numpy's dispatch protocols ----
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        if kwargs.get("out") is not None:
            raise UnsupportedError(f"{ufunc.__name__} with out= on a lazy tensor is not supported; "
                                   "use the returned tensor, or an in-place operator (w -= g)")
        return record("ufunc", ufunc, inputs, kwargs, method=method)

    def __array_function__(self, func, types, args, kwargs):
        if func in _SHAPE_FUNCTIONS and len(args) == 1 and not kwargs:
            return _SHAPE_FUNCTIONS[func](self)
        return record("function", func, args, kwargs)

    def __getitem__(self, index):
        return record("getitem", operator.getitem, (self, index), {})

    def __setitem__(self, index, value):
        raise UnsupportedError("assigning into a lazy tensor (t[i] = v) is not supported yet; "
                               "build the result with np.where or np.concatenate")

    # ---- in place: the tensor points at a new node; its old data may be updated in place ----
    def _inplace(self, func, other, name: str) -> "LazyTensor":
        if self.requires_grad and self.is_leaf and grad_enabled():
            raise RuntimeError(f"{name}: a leaf tensor that requires grad is used in an in-place operation; "
                               "update parameters inside `with lz.no_grad():`")
        result = func(self, other)
        if result.shape != self.shape:
            raise ValueError(f"{name}: the result's shape {result.shape} does not match the tensor's {self.shape}")
        if result.dtype != self.dtype:
            if not np.can_cast(result.dtype, self.dtype, "same_kind"):
                raise TypeError(f"{name}: cannot write a {result.dtype} result into a {self.dtype} tensor in place")
            result = record("function", np.astype, (result, self.dtype), {})
        self._assign(result._ref)
        return self

    def _assign(self, ref: Ref) -> None:
        if self._origin is None and isinstance(self._ref.node, Data):
            self._origin = self._ref.node
        self._ref = ref

    def __iadd__(self, other):
        return self._inplace(np.add, other, "+=")

    def __isub__(self, other):
        return self._inplace(np.subtract, other, "-=")

    def __imul__(self, other):
        return self._inplace(np.multiply, other, "*=")

    def __itruediv__(self, other):
        return self._inplace(np.true_divide, other, "/=")

    # ---- operators (numpy's ufuncs, recorded by __array_ufunc__) ----
    def __neg__(self): return np.negative(self)
    def __pos__(self): return np.positive(self)
    def __abs__(self): return np.abs(self)
    def __invert__(self): return np.invert(self)
    def __add__(self, o): return np.add(self, o)
    def __radd__(self, o): return np.add(o, self)
    def __sub__(self, o): return np.subtract(self, o)
    def __rsub__(self, o): return np.subtract(o, self)
    def __mul__(self, o): return np.multiply(self, o)
    def __rmul__(self, o): return np.multiply(o, self)
    def __truediv__(self, o): return np.true_divide(self, o)
    def __rtruediv__(self, o): return np.true_divide(o, self)
    def __floordiv__(self, o): return np.floor_divide(self, o)
    def __rfloordiv__(self, o): return np.floor_divide(o, self)
    def __mod__(self, o): return np.remainder(self, o)
    def __rmod__(self, o): return np.remainder(o, self)
    def __pow__(self, o): return np.power(self, o)
    def __rpow__(self, o): return np.power(o, self)
    def __matmul__(self, o): return np.matmul(self, o)
    def __rmatmul__(self, o): return np.matmul(o, self)
    def __and__(self, o): return np.bitwise_and(self, o)
    def __or__(self, o): return np.bitwise_or(self, o)
    def __xor__(self, o): return np.bitwise_xor(self, o)
    def __lt__(self, o): return np.less(self, o)
    def __le__(self, o): return np.less_equal(self, o)
    def __gt__(self, o): return np.greater(self, o)
    def __ge__(self, o): return np.greater_equal(self, o)
    def __eq__(self, o): return np.equal(self, o)  # pyright: ignore[reportIncompatibleMethodOverride]
    def __ne__(self, o): return np.not_equal(self, o)  # pyright: ignore[reportIncompatibleMethodOverride]
    __hash__: ClassVar[None] = None  # pyright: ignore[reportIncompatibleMethodOverride]

    # ---- methods, as on numpy arrays ----
    def sum(self, axis=None, dtype=None, keepdims=False):
        return record("function", np.sum, (self,), {"axis": axis, "dtype": dtype, "keepdims": keepdims})

    def mean(self, axis=None, dtype=None, keepdims=False):
        return record("function", np.mean, (self,), {"axis": axis, "dtype": dtype, "keepdims": keepdims})

    def max(self, axis=None, keepdims=False):
        return record("function", np.max, (self,), {"axis": axis, "keepdims": keepdims})

    def min(self, axis=None, keepdims=False):
        return record("function", np.min, (self,), {"axis": axis, "keepdims": keepdims})

    def argmax(self, axis=None):
        return record("function", np.argmax, (self,), {"axis": axis})

    def reshape(self, *shape):
        shape = shape[0] if len(shape) == 1 else shape
        return record("function", np.reshape, (self, shape), {})

    def transpose(self, *axes):
        axes = axes[0] if len(axes) == 1 else (axes or None)
        return record("function", np.transpose, (self, axes), {})

    def astype(self, dtype):
        return record("function", np.astype, (self, np.dtype(dtype)), {})

    def clip(self, min=None, max=None):
        return record("function", np.clip, (self, min, max), {})

    def exp(self):
        return np.exp(self)

    def dot(self, other):
        return record("function", np.dot, (self, other), {})


def record(kind: str, func: Any, args: tuple, kwargs: dict, method: str = "__call__",
           differentiable: bool = True) -> Any:
    """Record one call on lazy tensors: its node in the pending graph and its result tensors."""
    started = time.perf_counter()
    source = user_frame()
    refs: list[Ref] = []
    slots: dict[tuple[int, int], InputSlot] = {}
    any_requires = False

    def slot(x: Any) -> Any:
        nonlocal any_requires
        if isinstance(x, LazyTensor):
            ref = x._ref
            any_requires = any_requires or x.requires_grad
        elif isinstance(x, Data):
            ref = Ref(x)
        elif isinstance(x, np.ndarray):
            data = np.array(x, copy=True, order="C")  # a host array used in the graph is sent over
            METRICS.to_device(data.nbytes)
            ref = Ref(Data(data, source))
        elif isinstance(x, (tuple, list)):
            return type(x)(slot(v) for v in x)
        elif isinstance(x, dict):
            return {k: slot(v) for k, v in x.items()}
        else:
            return x
        where = (ref.node.uid, ref.index)
        if where not in slots:
            slots[where] = InputSlot(len(refs))
            refs.append(ref)
        return slots[where]

    if kind == "ufunc":
        args = tuple(_as_data(a, source) for a in args)
    call = Call(kind, func, slot(tuple(args)), slot(dict(kwargs)), method)
    key = call_key(call)
    try:
        avals, tree = result_avals(call, key, [r.aval for r in refs])
    except UnsupportedError as e:
        raise UnsupportedError(str(e).replace("by hloscope.jit", "on a lazy tensor (hloscope.lazy)")) from None
    differentiable = differentiable and grad_enabled()
    requires = differentiable and any_requires
    op = PendingOp(call, tuple(refs), avals, source, key, differentiable)
    outs = [LazyTensor(Ref(op, i), requires_grad=requires, is_leaf=not requires) for i in range(len(avals))]
    METRICS.recorded_ops += 1
    METRICS.record_time_s += time.perf_counter() - started
    return outs[0] if tree.kind == "leaf" else unflatten(tree, outs)


# Python numbers that stay constants in the graph (as torch_xla's "special scalars"): the
# algebra passes simplify x * 1 and x + 0 only when they see them.
_SPECIAL = (0.0, 1.0)


def _as_data(value: Any, source: Any) -> Any:
    """A Python float operand of a ufunc as device data (a weakly typed f64 scalar: it
    promotes like the number did), and a numpy float scalar as data of its own dtype, so a
    learning rate that changes every step does not change the graph; ints, bools and
    0.0 / 1.0 stay constants (exponents, special values)."""
    if isinstance(value, np.floating) and value not in _SPECIAL:  # np.float32(lr): data of its dtype
        METRICS.to_device(value.nbytes)
        return Data(np.array(value), source)
    if type(value) is not float or value in _SPECIAL:
        return value
    METRICS.to_device(8)
    return Data(np.array(value), source, weak=True)
