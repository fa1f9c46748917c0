"""Counting work instead of timing it: Python function calls made by a stage, per function.

Call counts are deterministic, so comparing them at two sizes finds a quadratic stage (a
per-instruction call to something that walks every instruction) without the noise of a
timed test. Work done inside one C call (a `list.index`, a dict copy) is not counted; the
timed benchmark (benchmarks/large_graphs.py) covers that.
"""

from __future__ import annotations

import cProfile
import pstats
from dataclasses import dataclass


@dataclass
class Work:
    """What one run of a stage did: total calls, and calls per function ("file:line name")."""

    total: int
    per_function: dict[str, int]


def count_calls(fn) -> Work:
    profile = cProfile.Profile()
    profile.runcall(fn)
    stats = pstats.Stats(profile).stats  # {(file, line, name): (prim calls, calls, tt, ct, callers)}
    per_function = {f"{file}:{line} {name}": calls for (file, line, name), (_, calls, *_) in stats.items()}
    return Work(sum(per_function.values()), per_function)


def superlinear(small: Work, big: Work, size_ratio: float, slack: float = 1.5, floor: int = 2000) -> list[str]:
    """Functions whose call count grew faster than `size_ratio * slack` from `small` to `big`
    (ignoring those called fewer than `floor` times in `big`), worst first."""
    limit = size_ratio * slack
    grown = []
    for name, calls in big.per_function.items():
        before = small.per_function.get(name, 0)
        if calls >= floor and calls > limit * max(before, 1):
            grown.append((calls / max(before, 1), f"{name}: {before} -> {calls} calls"))
    return [text for _, text in sorted(grown, reverse=True)]
