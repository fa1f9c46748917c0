"""Caching a fact about an IR value for as long as the value lives.

    @per_value
    def schedule(comp: Computation) -> tuple[Instruction, ...]: ...

Computations and modules never change, so what a function computes from one stays true;
but an `lru_cache` keyed by them keeps up to its size of whole programs alive after the
user let them go (a notebook compiles hundreds). `per_value` keeps each result in a
weak table on the function's first argument: it goes when the value goes. Further
arguments key an inner dict (they live at most as long as the first).

The table is keyed by identity, not equality: modules compare by content, and the versions
a pipeline makes of one module share a hash, so a WeakKeyDictionary compared whole modules
on every lookup (2.4 ms a lookup on a 1,000-instruction training step).
"""

from __future__ import annotations

import functools
from typing import Any, Callable, TypeVar
import weakref

Result = TypeVar("Result")


def per_value(fn: Callable[..., Result]) -> Callable[..., Result]:
    """`fn(value, *rest)`, computed once per (value, rest) while `value` is alive."""
    cache: dict[int, dict[tuple, Result]] = {}

    @functools.wraps(fn)
    def cached(value: Any, *rest: Any) -> Result:
        results = cache.get(id(value))
        if results is None:
            results = cache[id(value)] = {}
            weakref.finalize(value, cache.pop, id(value), None)  # before the id can be reused
        if rest not in results:
            results[rest] = fn(value, *rest)
        return results[rest]

    return cached
