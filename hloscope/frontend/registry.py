"""The lowering registry: numpy function or ufunc -> the rule that emits its HLO.

The tables are merged here from the rule files, imported explicitly (no registration by
import side effects elsewhere). To support a new numpy function, add one rule to the file
of its kind with `@rule(np.the_function)`.

`apply` is where every numpy-level call on a tracer ends: it finds the rule (or raises
UnsupportedError naming the function and the user's line), and runs it inside
`trace.operation`, which records the equation and stamps the source metadata.
"""

from __future__ import annotations

import functools
import inspect
import threading
from contextlib import contextmanager
from typing import Any, Callable, Iterator

import numpy as np

from .errors import unsupported
from .pytree import flatten, tree_map
from .rules import arithmetic, creation, elementwise, indexing, linalg, reductions, shapes, sorting
from .rules import extras
from .trace import current_frame, operation
from .tracer import Tracer

RULES: dict = {
    **elementwise.RULES, **arithmetic.RULES, **reductions.RULES, **shapes.RULES,
    **indexing.RULES, **linalg.RULES, **creation.RULES, **sorting.RULES,
    **extras.RULES,
}

# ufunc.reduce / ufunc.accumulate of the ufuncs that have a natural reduction.
_REDUCE = {np.add: "add", np.multiply: "multiply", np.maximum: "maximum", np.minimum: "minimum",
           np.logical_and: "and", np.logical_or: "or"}
_INIT = {"add": 0, "multiply": 1, "and": True, "or": False}


def function_name(func) -> str:
    """`numpy.fft.fft`, `numpy.add`, or the key itself for internal rules (`getitem`)."""
    if isinstance(func, str):
        return func.split(":")[-1]
    if isinstance(func, np.ufunc):
        known = getattr(np, func.__name__, None) is func
        return f"numpy.{func.__name__}" if known else f"ufunc {func.__name__}"
    module = getattr(func, "__module__", None) or "?"
    return f"{module}.{getattr(func, '__qualname__', func)}"


def short_name(func) -> str:
    """The operation's name in op_name metadata and trace listings: `sum`, `add`, `getitem`."""
    return func.split(":")[-1] if isinstance(func, str) else getattr(func, "__name__", str(func))


def lookup(func):
    rule = RULES.get(func)
    if rule is None and isinstance(func, np.ufunc):
        rule = RULES.get(f"ufunc:{func.__name__}")  # e.g. scipy.special.erf
    if rule is None:
        raise unsupported(function_name(func))
    return rule


# hloscope.autojit traces with a fallback: each call is handed to it with a way to lower it,
# and it may run the call on the host instead (hloscope/autocluster/host_calls.py). With no
# fallback (hloscope.jit), a call without a rule is an UnsupportedError.
CallFallback = Callable[[Any, tuple, dict, Callable[[], Any]], Any]
_fallback = threading.local()


@contextmanager
def call_fallback(handler: CallFallback) -> Iterator[None]:
    """Hand every numpy-level call on this thread to `handler(func, args, kwargs, lower)`."""
    saved = getattr(_fallback, "handler", None)
    _fallback.handler = handler
    try:
        yield
    finally:
        _fallback.handler = saved


def apply(func, args, kwargs, name: str | None = None, operator: bool = False):
    """`lower_call`, or the active call fallback's choice (see call_fallback)."""
    handler = getattr(_fallback, "handler", None)
    if handler is None:
        return lower_call(func, args, kwargs, name, operator)
    return handler(func, tuple(args), dict(kwargs), lambda: lower_call(func, args, kwargs, name, operator))


def lower_call(func, args, kwargs, name: str | None = None, operator: bool = False):
    """Run the rule for `func(*args, **kwargs)` as one recorded operation.

    Only Python's operators keep a result weakly typed (`lr * 2` on a Python number is a
    Python number); a numpy function returns a numpy scalar or array, which is strongly typed
    (`np.sqrt(lr)` is a float64), so its results are made strong as numpy 2 has them.
    """
    rule = lookup(func)
    inputs, params = _split(func, rule, args, kwargs)
    with operation(name or short_name(func), inputs, params) as eq:
        out = rule(*args, **kwargs)
        if not operator:
            out = tree_map(_strong, out)
        if eq is not None:
            eq.outputs = [x for x in flatten(out)[0] if isinstance(x, Tracer)]
    return out


def _strong(x):
    return Tracer(x.frame, x.inst, x.aval.strong()) if isinstance(x, Tracer) and x.aval.weak else x


def apply_ufunc(ufunc, method: str, inputs, kwargs):
    """`__array_ufunc__`: plain calls go to the ufunc's rule; add.reduce etc. to reductions."""
    handler = getattr(_fallback, "handler", None)
    if handler is None:
        return _lower_ufunc(ufunc, method, inputs, kwargs)
    call = ufunc if method == "__call__" else getattr(ufunc, method)
    return handler(call, tuple(inputs), dict(kwargs), lambda: _lower_ufunc(ufunc, method, inputs, kwargs))


def _lower_ufunc(ufunc, method: str, inputs, kwargs):
    if kwargs.get("out") is not None:
        raise unsupported("out= (writing into an existing array)", "use the returned array")
    kwargs = {k: v for k, v in kwargs.items() if k != "out"}
    if method == "__call__" and kwargs:
        raise unsupported(f"{function_name(ufunc)} with {', '.join(f'{k}=' for k in kwargs)}",
                          "convert the operands (x.astype) instead")
    if method == "__call__":
        return lower_call(ufunc, inputs, kwargs)
    if method in ("reduce", "accumulate") and ufunc in _REDUCE:
        return lower_call(f"{ufunc.__name__}.{method}", (ufunc, *inputs), kwargs)
    raise unsupported(f"{function_name(ufunc)}.{method}")


def _ufunc_reduce(ufunc, array, axis=0, dtype=None, keepdims=False, **kwargs):
    opcode = _REDUCE[ufunc]
    t = reductions.as_tracer(array, dtype)
    axes = reductions.normalize_axis(axis, t.ndim)
    return reductions.reduce_with(t, axes, opcode, _init(opcode, t.dtype), keepdims)


def _ufunc_accumulate(ufunc, array, axis=0, dtype=None, **kwargs):
    opcode = _REDUCE[ufunc]
    t = reductions.as_tracer(array, dtype)
    return reductions.accumulate(t, axis, opcode, _init(opcode, t.dtype))


def _init(opcode: str, dtype):
    if opcode == "maximum":
        return reductions.scalar_dtype_min(dtype)
    if opcode == "minimum":
        return reductions.scalar_dtype_max(dtype)
    return _INIT[opcode]


for _u in _REDUCE:
    RULES[f"{_u.__name__}.reduce"] = _ufunc_reduce
    RULES[f"{_u.__name__}.accumulate"] = _ufunc_accumulate


def _split(func, rule, args, kwargs):
    """Operands (arrays, numbers) for the listing's inputs; the other arguments, by their
    parameter names, are the equation's parameters (`sum[axis=1 keepdims=True] a`)."""
    if func == "getitem":
        index = args[1] if isinstance(args[1], tuple) else (args[1],)
        return [args[0], *[i for i in index if isinstance(i, Tracer)]], {"index": index}
    sig = _signature(rule)
    try:
        bound = sig.bind(*args, **kwargs).arguments
    except TypeError:
        bound = {**{f"arg{i}": a for i, a in enumerate(args)}, **kwargs}
    numbers_are_operands = isinstance(func, np.ufunc) or str(func).startswith("ufunc:")
    is_operand = lambda x: _is_operand(x) or (numbers_are_operands and isinstance(x, (int, bool)))  # noqa: E731
    inputs, params = [], {}
    for key, value in bound.items():
        if is_operand(value):
            inputs.append(value)
        elif isinstance(value, (list, tuple)) and value and all(is_operand(x) for x in value):
            inputs.extend(value)
        elif not _is_default(sig, key, value) and not isinstance(value, np.ufunc):
            params[key] = value
    return inputs, params


def _is_default(sig: inspect.Signature, key: str, value) -> bool:
    if value is None or value is False:
        return True
    param = sig.parameters.get(key)
    try:
        return param is not None and param.default is not inspect.Parameter.empty and bool(value == param.default)
    except (TypeError, ValueError):
        return False


@functools.lru_cache(maxsize=None)
def _signature(rule) -> inspect.Signature:
    return inspect.signature(rule)


def _is_operand(x) -> bool:
    return isinstance(x, (Tracer, np.ndarray, np.generic, float))


def tracing() -> bool:
    """Whether a trace is active on this thread (hloscope.numpy uses rules only then)."""
    return current_frame() is not None
