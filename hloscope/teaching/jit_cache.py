"""The exercise check of notebook 07, "JIT and AOT": predict the signature cache's misses and
hits for a sequence of calls."""

from __future__ import annotations

from typing import Any

from .exercises import Wrong, exercise


def check_cache_prediction(info: Any, misses: Any, hits: Any) -> None:
    """(misses, hits) against `info`, a jitted function's cache_info() after the calls."""

    def rule(answer: tuple[Any, Any]) -> bool:
        got_misses, got_hits = answer
        if got_misses + got_hits != info.misses + info.hits:
            raise Wrong(f"misses and hits should add up to the {info.misses + info.hits} calls")
        if got_misses != info.misses:
            more = "fewer" if got_misses > info.misses else "more"
            raise Wrong(f"there are {more} new signatures than you predict")
        return got_hits == info.hits

    exercise("the cache's misses and hits", (misses, hits), rule,
             hint="a new shape, a new dtype, or a numpy scalar instead of a Python float is a new signature; "
                  "the values of arrays and of Python floats do not matter")
