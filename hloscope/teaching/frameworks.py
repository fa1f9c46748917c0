"""The exercise check of notebook 15, "how frameworks call XLA": predict how many compiles each
front end makes for a sequence of calls."""

from __future__ import annotations

from typing import Any

from .exercises import Wrong, exercise


def check_compiles(measured: dict[str, int], answer: Any) -> None:
    """`answer`: {front end: compiles}, for the front ends of `measured` (counted by running)."""

    def rule(got: Any) -> bool:
        if not isinstance(got, dict) or set(got) != set(measured):
            raise Wrong(f"answer with a dict with the keys {', '.join(sorted(measured))}")
        off = {name: ("too high" if got[name] > count else "too low")
               for name, count in measured.items() if got[name] != count}
        if off:
            raise Wrong("; ".join(f"{name}: {how}" for name, how in sorted(off.items())))
        return True

    exercise("compiles per front end", answer, rule,
             hint="each front end compiles once per distinct key: jit a signature, autojit a cluster and its "
                  "input shapes, lazy a step graph with its shapes")
