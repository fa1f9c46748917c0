"""The inputs of a `%%hlo` cell: the call in its line, and random arrays for shapes.

    f(x, w)                          x and w are notebook variables
    f(f32[128,256], f32[256,64])     seeded random arrays of those shapes
    f(x, 3, scale=0.5)               any Python expression, evaluated in the notebook

An argument written as an HLO shape (`f32[128,256]`, `s32[]`, `pred[4]`) becomes a random
array; anything else is evaluated in the user's namespace. Random inputs come from one
`numpy.random.default_rng(seed)`, so the same cell gives the same numbers every time.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..compilation.inputs import InputError, shape_input

SHAPE_TEXT = re.compile(r"^\s*(pred|bf16|[fsuc]\d+)\[[\d,\s]*\]\s*$")


@dataclass(frozen=True)
class CallSpec:
    """`f(x, f32[2,3], k=v)` as the function's name and argument texts."""

    function: str
    args: tuple[str, ...]
    kwargs: tuple[tuple[str, str], ...]

    def describe(self) -> str:
        parts = list(self.args) + [f"{k}={v}" for k, v in self.kwargs]
        return f"{self.function}({', '.join(parts)})"


def parse_call(text: str) -> CallSpec:
    """Read `name(arg, ..., key=arg)` without evaluating anything."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as e:
        raise InputError(f"%%hlo: cannot read the call {text.strip()!r}: {e.msg}") from None
    call = tree.body
    if not isinstance(call, ast.Call) or any(isinstance(a, ast.Starred) for a in call.args):
        raise InputError(f"%%hlo: expected a call like f(x, w) or f(f32[128,256]), got {text.strip()!r}")
    if any(k.arg is None for k in call.keywords):
        raise InputError("%%hlo: **kwargs in the call are not supported; name each keyword argument")
    source = text.strip()
    return CallSpec(
        _segment(source, call.func),
        tuple(_segment(source, a) for a in call.args),
        tuple((_keyword_name(k), _segment(source, k.value)) for k in call.keywords),
    )


def _segment(source: str, node: ast.expr) -> str:
    text = ast.get_source_segment(source, node)
    assert text is not None, "a node parsed from `source` has its position"
    return text


def _keyword_name(keyword: ast.keyword) -> str:
    assert keyword.arg is not None, "parse_call refuses **kwargs first"
    return keyword.arg


def is_shape(text: str) -> bool:
    return bool(SHAPE_TEXT.match(text))


def evaluate_argument(text: str, namespace: dict, rng: np.random.Generator) -> object:
    """A shape -> a random array; anything else -> its value in the notebook."""
    if is_shape(text):
        return shape_input(text, rng)
    try:
        return eval(text, namespace)  # noqa: S307 - the user's own notebook expression
    except NameError as e:
        raise InputError(f"%%hlo: {e} (in the argument {text!r}); define it in a cell above, or write a shape "
                         "such as f32[128,256] for a random input") from None
    except Exception as e:  # noqa: BLE001 - any error in the user's expression, said shortly
        raise InputError(f"%%hlo: evaluating the argument {text!r} failed: {type(e).__name__}: {e}") from None


def resolve_call(spec: CallSpec, namespace: dict, seed: int = 0) -> tuple[Callable[..., Any], tuple, dict]:
    """(function, args, kwargs) for a CallSpec, looked up and evaluated in `namespace`."""
    try:
        fn = eval(spec.function, namespace)  # noqa: S307 - a name (or dotted name) in the notebook
    except NameError:
        raise InputError(f"%%hlo: no function named {spec.function!r}: define it in this cell or above") from None
    if not callable(fn):
        raise InputError(f"%%hlo: {spec.function!r} is a {type(fn).__name__}, not a function")
    rng = np.random.default_rng(seed)
    args = tuple(evaluate_argument(a, namespace, rng) for a in spec.args)
    kwargs = {k: evaluate_argument(v, namespace, rng) for k, v in spec.kwargs}
    return fn, args, kwargs


def named_inputs(names, namespace: dict) -> list:
    """The notebook variables listed by `--args x,w`, in order."""
    missing = [n for n in names if n not in namespace]
    if missing:
        raise InputError(f"%%hlo --args: {', '.join(missing)} not defined in the notebook")
    return [namespace[n] for n in names]
