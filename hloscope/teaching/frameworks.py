"""The exercise check of notebook 15, "how frameworks call XLA": predict how many compiles each
front end makes for a sequence of calls."""

from __future__ import annotations

from typing import Any

from .exercises import check_counts


def check_compiles(measured: dict[str, int], answer: Any) -> None:
    """`answer`: {front end: compiles}, for the front ends of `measured` (counted by running)."""
    check_counts("compiles per front end", measured, answer,
                 hint="each front end compiles once per distinct key: jit a signature, autojit a cluster and its "
                      "input shapes, lazy a step graph with its shapes")
