"""The pending graph: what lazy tensors record instead of computing.

A node is either device data (`Data`: a concrete numpy array, the result of an earlier step
or of `lz.tensor`) or an operation (`PendingOp`: one numpy-level call, its lazy inputs and
its static arguments). A lazy tensor points at one output of one node (`Ref`). Nodes are
immutable; an in-place update (`w -= g`) points the tensor at a new node.

`PendingOp.call` is the numpy call to replay, with every lazy input replaced by an
`InputSlot(i)`: step.py re-applies it to tracers, so hloscope's tracer, lowering rules and
autodiff do all the work. `PendingOp.key` is the call's structure without its inputs: the
function, the static arguments (axes, indices, Python numbers), and how inputs are placed.
Two steps with the same nodes, keys, wiring and input shapes/dtypes compile to the same
program (see `structure`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Callable, NamedTuple

import numpy as np

from ..frontend.abstract import ShapedArray
from ..frontend.source import SourceInfo

_ids = itertools.count()


@dataclass(frozen=True)
class InputSlot:
    """Where the i-th lazy input goes in a recorded call."""

    index: int


class PendingNode:
    """A node of the pending graph (Data or PendingOp); `uid` orders nodes by creation."""

    __slots__ = ("uid",)

    def __init__(self):
        self.uid = next(_ids)


class Data(PendingNode):
    """Device data: a concrete array that a step takes as a parameter."""

    __slots__ = ("array", "aval", "source", "donated")

    def __init__(self, array: np.ndarray, source: SourceInfo | None = None, weak: bool = False):
        super().__init__()
        self.array = array
        self.aval = ShapedArray(array.shape, array.dtype, weak)  # weak: a Python number made data
        self.source = source  # where the user made it (lz.tensor, a numpy array used), if they did
        self.donated = False  # its buffer was given to a step's output (updated in place): stale


class Call(NamedTuple):
    """A numpy-level call with its lazy inputs as Slots: `kind` is "ufunc" (with `method`),
    "function" (an __array_function__ call), "getitem", or "grad" (see autograd.py).
    A named tuple: one is made per recorded call, and it is the cheapest immutable record."""

    kind: str
    func: Any
    args: tuple
    kwargs: dict
    method: str = "__call__"

    @property
    def name(self) -> str:
        if self.kind == "getitem":
            return "getitem"
        if self.kind == "grad":
            return "grad"
        base = getattr(self.func, "__name__", str(self.func))
        return base if self.method == "__call__" else f"{base}.{self.method}"


class PendingOp(PendingNode):
    """One recorded call: its inputs (Refs), the avals of its outputs, where it was written."""

    __slots__ = ("call", "inputs", "avals", "source", "key", "differentiable", "replay")

    def __init__(self, call: Call, inputs: tuple["Ref", ...], avals: tuple[ShapedArray, ...],
                 source: SourceInfo | None, key: Any, differentiable: bool = True,
                 replay: Callable | None = None):
        super().__init__()
        self.call = call
        self.inputs = inputs
        self.avals = avals
        self.source = source
        self.key = key
        self.differentiable = differentiable  # False when recorded under no_grad (or detach)
        self.replay = replay  # an override of how to re-apply the call (autograd's grad node)


@dataclass(frozen=True)
class Ref:
    """Output `index` of `node`: what a lazy tensor holds."""

    node: PendingNode
    index: int = 0

    @property
    def aval(self) -> ShapedArray:
        node = self.node
        return node.aval if isinstance(node, Data) else node.avals[self.index]  # pyright: ignore[reportAttributeAccessIssue]

    @property
    def pending(self) -> bool:
        return isinstance(self.node, PendingOp)


def describe_static(value: Any) -> Any:
    """A hashable stand-in for a static argument (the step cache key holds these)."""
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(describe_static(v) for v in value))
    if isinstance(value, dict):
        return ("dict", tuple(sorted((k, describe_static(v)) for k, v in value.items())))
    if isinstance(value, slice):
        return ("slice", value.start, value.stop, value.step)
    if isinstance(value, np.generic):
        return ("scalar", value.dtype.str, value.item())
    if isinstance(value, np.dtype) or (isinstance(value, type) and issubclass(value, np.generic)):
        return ("dtype", np.dtype(value).str)
    if value is Ellipsis or value is None or isinstance(value, (bool, int, float, complex, str, InputSlot)):
        return (type(value).__name__, value)
    if isinstance(value, np.ufunc) or callable(value):
        return ("callable", getattr(value, "__module__", ""), getattr(value, "__qualname__", repr(value)))
    return ("repr", type(value).__name__, repr(value))


def call_key(call: Call) -> Any:
    """The call without its inputs: what must match for two calls to lower the same way."""
    kwargs = tuple(call.kwargs.items())
    # with the types: 2, 2.0 and True are equal as dict keys but lower differently
    memo_key = (call.kind, call.func, call.method, call.args, kwargs, _types(call.args), _types(kwargs))
    try:  # a loop records the same calls every step: remember their keys
        return _KEYS[memo_key]
    except KeyError:
        pass
    except TypeError:  # an unhashable argument (a list): described every time
        return _describe_call(call)
    if len(_KEYS) > 4096:
        _KEYS.clear()
    key = _KEYS[memo_key] = _describe_call(call)
    return key


_KEYS: dict[Any, Any] = {}


def _types(value: Any) -> Any:
    if type(value) is tuple or type(value) is list:
        return (type(value), tuple(_types(v) for v in value))
    return type(value)


def _describe_call(call: Call) -> Any:
    func = call.func if call.kind != "grad" else None
    return (call.kind, describe_static(func), call.method, describe_static(call.args),
            describe_static(call.kwargs))


def topological(outputs: list[Ref]) -> list[PendingNode]:
    """Every node the outputs depend on, inputs before users, in a canonical order (depth
    first from the outputs in order, inputs in order): the same program gives the same list."""
    order: list[PendingNode] = []
    seen: set[int] = set()
    for out in outputs:
        stack: list[tuple[PendingNode, int]] = [(out.node, 0)]
        while stack:
            node, i = stack.pop()
            if node.uid in seen:
                continue
            inputs = node.inputs if isinstance(node, PendingOp) else ()
            if i < len(inputs):
                stack.append((node, i + 1))
                child = inputs[i].node
                if child.uid not in seen:
                    stack.append((child, 0))
                continue
            seen.add(node.uid)
            order.append(node)
    return order


def depends_on(root: Ref, targets: set[int]) -> set[int]:
    """The uids of the `targets` nodes that `root` depends on."""
    found = set()
    for node in topological([root]):
        if node.uid in targets:
            found.add(node.uid)
    return found
