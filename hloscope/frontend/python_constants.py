"""The Python values a trace bakes in: the globals and closure variables a function reads.

    scale = 2.0
    @hloscope.jit
    def f(x):
        return x * scale          # `scale` becomes a constant of the program

A trace sees `scale` as a number, not as an input, so the program holds 2.0. When the
user then sets `scale = 3.0`, a cache keyed on the arguments alone would run the old
program (JAX does: its cache does not look at globals). hloscope puts the values of such
names in the call's key: a changed one traces again, and the cache miss names it.

Watched: names the function's code reads as globals or from its closure, in the function
itself, the functions and lambdas defined in it, and the plain Python functions it calls by
a global name (a few levels deep), whose values are scalars, strings or tuples of them,
numpy scalars, and dtypes. Arrays are not watched: comparing one on every call costs as
much as the call; pass an array that changes as an argument.
"""

from __future__ import annotations

import types
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

_DEPTH = 3  # how many calls deep through plain Python functions
_SIMPLE = (bool, int, float, complex, str, bytes, type(None), np.generic, np.dtype)


@dataclass(frozen=True)
class Watched:
    """One place a value is read from: a module's globals or a closure cell."""

    label: str  # "global scale", "closure variable lr of make_step.<locals>.f"
    read: Callable[[], Any]


class PythonConstants:
    """The watched names of one function, read on every call (a few dictionary lookups)."""

    def __init__(self, fn: Callable):
        self.places = _places(fn)

    def values(self) -> tuple:
        """((label, value), ...) for watched names holding a constant-like value now."""
        out = []
        for place in self.places:
            try:
                value = place.read()
            except (KeyError, ValueError, NameError):  # unbound now: nothing baked in
                continue
            if _constant_like(value):
                out.append((place.label, value))
        return tuple(out)


def _constant_like(value: Any, depth: int = 0) -> bool:
    if isinstance(value, _SIMPLE):
        return True
    if isinstance(value, tuple) and depth < 2 and len(value) <= 16:
        return all(_constant_like(v, depth + 1) for v in value)
    return False


def _places(fn: Callable) -> list[Watched]:
    places: list[Watched] = []
    seen_labels: set[str] = set()
    seen_functions: set[int] = set()

    def add(place: Watched) -> None:
        if place.label not in seen_labels:
            seen_labels.add(place.label)
            places.append(place)

    def visit(f: Any, depth: int) -> None:
        f = getattr(f, "__wrapped__", f)
        if isinstance(f, types.MethodType):
            f = f.__func__
        if not isinstance(f, types.FunctionType) or id(f) in seen_functions:
            return
        seen_functions.add(id(f))
        module_globals = f.__globals__
        names, free = _names_read(f.__code__)
        for name, cell in zip(f.__code__.co_freevars, f.__closure__ or ()):
            if name in free:
                add(Watched(f"closure variable {name} of {f.__qualname__}", _cell_reader(cell)))
                _follow(_peek_cell(cell), depth, visit)
        for name in sorted(names):
            if name in module_globals:
                add(Watched(f"global {name}" + _module_suffix(f, fn), _global_reader(module_globals, name)))
                _follow(module_globals[name], depth, visit)

    visit(fn, 0)
    return places


def _follow(value: Any, depth: int, visit: Callable[[Any, int], None]) -> None:
    """Go into a plain Python function the traced one calls (not a library's)."""
    if depth + 1 < _DEPTH and isinstance(value, types.FunctionType) and not _library(value):
        visit(value, depth + 1)


def _library(f: types.FunctionType) -> bool:
    module = f.__module__ or ""
    top = module.split(".", 1)[0]
    return top in ("numpy", "hloscope", "jax", "scipy") or "site-packages" in (f.__code__.co_filename or "")


def _module_suffix(f: types.FunctionType, root: Callable) -> str:
    """Name the module when the global is in another module than the traced function's."""
    root_module = getattr(getattr(root, "__wrapped__", root), "__module__", None)
    return "" if f.__module__ == root_module else f" (in {f.__module__})"


def _names_read(code: types.CodeType) -> tuple[set[str], set[str]]:
    """Globals and free variables a code object (and those nested in it) may read."""
    names, free = set(code.co_names), set(code.co_freevars)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            inner_names, inner_free = _names_read(const)
            names |= inner_names
            free |= inner_free
    return names, free


def _global_reader(namespace: dict, name: str) -> Callable[[], Any]:
    return lambda: namespace[name]


def _cell_reader(cell: Any) -> Callable[[], Any]:
    return lambda: cell.cell_contents


def _peek_cell(cell: Any) -> Any:
    try:
        return cell.cell_contents
    except ValueError:
        return None
