"""Host calls at trace time: how autojit turns a call the compiler cannot take into a host node.

While autojit traces, every numpy-level call reaches `HostCalls` (through the registry's call
fallback) with a way to lower it. A call becomes a host node when

- it has an operand the compiler cannot hold (a complex value, itself a host call's result),
- no rule lowers it (np.linalg.solve, np.fft.fft: the UnsupportedError jit would raise), or
- it is a function the user marked with `hloscope.host(fn)`.

A host node's outputs need shapes and dtypes before anything runs. They are declared
(`hloscope.host(fn, out=...)`) or found by calling the function on stand-ins: zero-filled
arrays of the operands' shapes and dtypes, and if the function refuses zeros (a singular
matrix for np.linalg.solve) seeded random ones. Each output becomes a new value of the traced
program (a placeholder parameter of the ENTRY), so the calls after it trace as usual.
Host calls inside cond/loop bodies are not supported: there the call's error is raised.
"""

from __future__ import annotations

import functools
import operator
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator

import numpy as np

from ..errors import UnsupportedError
from ..frontend.abstract import ShapedArray, supported_dtype
from ..frontend.errors import unsupported
from ..frontend.pytree import flatten, unflatten
from ..frontend.registry import function_name, short_name
from ..frontend.source import SourceInfo, located, user_frame
from ..frontend.trace import Frame, current_frame, hlo_name
from ..frontend.tracer import Tracer
from ..ir.shape import ArrayShape
from .graph import HostCall

_state = threading.local()


class HostCallError(UnsupportedError):
    """A host call whose outputs could not be found (it raised on its stand-ins), or whose
    outputs at run time differ from the ones found at trace time."""


class HostOnlyArray(ShapedArray):
    """The abstract value of an array only the host can hold (a dtype HLO has no type for)."""

    @property
    def hlo_dtype(self) -> str:
        return self.dtype.name  # printed only: `complex128[8]`

    def hlo_shape(self) -> ArrayShape:
        raise unsupported(f"a {self.dtype.name} value inside a compiled computation",
                          "hloscope compiles no complex types; autojit keeps such values on the host")


@dataclass
class HostNode:
    """A host call as the trace saw it: the call, the values it reads and those it makes."""

    name: str
    call: HostCall
    inputs: list[str]
    outputs: list[str]
    avals: list[ShapedArray]
    source: SourceInfo | None


def active() -> "HostCalls | None":
    """The HostCalls of the autojit trace running on this thread, if any."""
    return getattr(_state, "calls", None)


@contextmanager
def recording(calls: "HostCalls") -> Iterator["HostCalls"]:
    saved = active()
    _state.calls = calls
    try:
        yield calls
    finally:
        _state.calls = saved


class HostCalls:
    """The call fallback of one autojit trace: decides, and makes host nodes (see above)."""

    def __init__(self, entry: Frame):
        self.entry = entry
        self.nodes: list[HostNode] = []

    def __call__(self, func, args: tuple, kwargs: dict, lower: Callable[[], Any]):
        frame = current_frame()
        if frame is None or frame is not self.entry or frame.depth or (isinstance(func, str) and func != "getitem"):
            return lower()  # inside a rule, a branch or a loop body: jit's behaviour
        fn = operator.getitem if func == "getitem" else func
        held = _host_only_operand((args, kwargs))
        if held is not None:
            reason = (f"operand {held.inst.name} is {held.dtype.name}: hloscope compiles no complex "
                      "types, so the call runs on the host")
            return self.host_node(fn, args, kwargs, reason)
        try:
            return lower()
        except UnsupportedError as e:
            return self.host_node(fn, args, kwargs, f"no lowering: {str(e).splitlines()[0]}")

    def host_node(self, fn, args: tuple, kwargs: dict, reason: str, out: Any = None):
        """Record `fn(*args, **kwargs)` as a host node; its outputs as new traced values."""
        source = user_frame()
        leaves, tree = flatten((args, kwargs))
        slots = tuple(i for i, x in enumerate(leaves) if isinstance(x, Tracer))
        operands = [self.entry.lift(leaves[i]) for i in slots]
        statics = tuple(None if i in slots else x for i, x in enumerate(leaves))
        results = out if out is not None else _infer(fn, tree, statics, slots, operands, source)
        out_leaves, out_tree = flatten(results)
        avals = [_aval_of(fn, x, source) for x in out_leaves]
        base = f"host.{hlo_name(short_name(fn))}"
        if len(avals) == 1:  # the node and its one value share a name, as an op and its value do
            tracers = [placeholder(self.entry, base, avals[0])]
            name = tracers[0].inst.name
        else:
            name = self.entry.lowering.mb.names.next(base)
            tracers = [placeholder(self.entry, f"{name}.out{k}", a) for k, a in enumerate(avals)]
        call = HostCall(fn, tree, statics, slots, out_tree, reason)
        self.nodes.append(HostNode(name, call, [t.inst.name for t in operands],
                                   [t.inst.name for t in tracers], avals, source))
        return unflatten(out_tree, tracers)



def placeholder(entry: Frame, name: str, aval: ShapedArray) -> Tracer:
    """A parameter of the ENTRY standing for a value the host provides (a host call's output,
    or an argument); one of a dtype HLO lacks gets a stand-in shape and a HostOnlyArray."""
    if supported_dtype(aval.dtype):
        return entry.parameter(aval, name)
    inst = entry.cb.parameter(ArrayShape("f32", aval.shape), name=hlo_name(name))
    return Tracer(entry, inst, HostOnlyArray(aval.shape, aval.dtype))


def _host_only_operand(tree) -> Tracer | None:
    return next((x for x in flatten(tree)[0] if isinstance(x, Tracer) and isinstance(x.aval, HostOnlyArray)), None)


def _infer(fn, tree, statics, slots, operands: list[Tracer], source: SourceInfo | None):
    """fn's outputs on stand-ins: zeros, else seeded random values (see the module docstring)."""
    rng = np.random.default_rng(0)
    makers = [lambda a: np.zeros(a.shape, a.dtype),
              lambda a: rng.standard_normal(a.shape).astype(a.dtype) if a.dtype.kind in "fc"
              else rng.integers(1, 4, a.shape).astype(a.dtype)]
    failure: Exception | None = None
    for make in makers:
        try:
            with np.errstate(all="ignore"):
                return call_with(fn, tree, statics, slots, [make(t.aval) for t in operands])
        except Exception as e:  # noqa: BLE001 - any failure is reported below, with the function named
            failure = failure or e
    shapes = ", ".join(t.aval.short() for t in operands) or "no array arguments"
    raise HostCallError(located(
        f"host call {describe(fn)} raised while autojit found its output shapes on stand-ins "
        f"({shapes}): {type(failure).__name__}: {failure}; declare its outputs with "
        "hloscope.host(fn, out=...) (arrays or objects with .shape and .dtype)", source)) from failure


def call_with(fn, tree, statics, slots, operands: list):
    """fn applied to the recorded argument tree with `operands` put back in their slots."""
    leaves = list(statics)
    for slot, value in zip(slots, operands):
        leaves[slot] = value
    args, kwargs = unflatten(tree, leaves)
    return fn(*args, **kwargs)


def _aval_of(fn, x, source) -> ShapedArray:
    shape, dtype = getattr(x, "shape", None), getattr(x, "dtype", None)
    if shape is None or dtype is None:
        if isinstance(x, (bool, int, float, complex)):
            return ShapedArray((), np.asarray(x).dtype)
        raise HostCallError(located(f"host call {describe(fn)} gave a {type(x).__name__}; host calls must "
                                    "return arrays, numbers, or tuples/lists/dicts of them", source))
    return ShapedArray(tuple(shape), np.dtype(dtype))


def describe(fn) -> str:
    """`numpy.linalg.solve`, or a user function's qualified name."""
    return function_name(fn) if isinstance(fn, np.ufunc) or getattr(fn, "__module__", "").startswith("numpy") \
        else getattr(fn, "__qualname__", repr(fn))


def host(fn: Callable | None = None, *, out: Any = None) -> Any:
    """Mark `fn` to run on the host under hloscope.autojit (usable as a decorator).

    Called on traced values inside autojit it becomes a host node: numpy runs it on the real
    values, between the compiled clusters. `out` declares its outputs (a pytree of arrays or
    objects with .shape and .dtype); without it they are found on stand-ins. Called on
    concrete values, it simply calls `fn`.
    """
    def wrap(f: Callable) -> Callable:
        @functools.wraps(f)
        def call(*args, **kwargs):
            if not any(isinstance(x, Tracer) for x in flatten((args, kwargs))[0]):
                return f(*args, **kwargs)
            calls = active()
            if calls is None:
                raise unsupported(f"the host callback {describe(f)}", "hloscope.autojit runs it on the host")
            return calls.host_node(f, args, kwargs, f"marked hloscope.host: {describe(f)}", out)

        return call

    return wrap if fn is None else wrap(fn)
