"""Caching a fact about an IR value for as long as the value lives.

    @per_value
    def schedule(comp: Computation) -> tuple[Instruction, ...]: ...

Computations and modules never change, so what a function computes from one stays true;
but an `lru_cache` keyed by them keeps up to its size of whole programs alive after the
user let them go (a notebook compiles hundreds). `per_value` keeps each result in a
WeakKeyDictionary on the function's first argument: it goes when the value goes. Further
arguments key an inner dict (they live at most as long as the first).
"""

from __future__ import annotations

import functools
from typing import Any, Callable, TypeVar
from weakref import WeakKeyDictionary

Result = TypeVar("Result")


def per_value(fn: Callable[..., Result]) -> Callable[..., Result]:
    """`fn(value, *rest)`, computed once per (value, rest) while `value` is alive."""
    cache: WeakKeyDictionary[Any, dict[tuple, Result]] = WeakKeyDictionary()

    @functools.wraps(fn)
    def cached(value: Any, *rest: Any) -> Result:
        results = cache.get(value)
        if results is None:
            results = cache[value] = {}
        if rest not in results:
            results[rest] = fn(value, *rest)
        return results[rest]

    return cached
