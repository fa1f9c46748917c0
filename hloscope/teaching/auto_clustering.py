"""The exercise check of notebook 13, "auto-clustering": predict the clusters."""

from __future__ import annotations

from typing import Any

from .exercises import Wrong, exercise


def check_clusters(clusters: list[tuple[str, ...]], answer: Any) -> None:
    """`answer`: one tuple of real ops per cluster, in program order, as `clusters` has them."""

    def rule(got: Any) -> bool:
        if not isinstance(got, (list, tuple)) or not all(isinstance(c, (list, tuple)) for c in got):
            raise Wrong("answer with a list of tuples of op names, one tuple per cluster")
        got = [tuple(c) for c in got]
        if len(got) > len(clusters):
            raise Wrong("too many clusters: is every one of them at least the minimum size?")
        if len(got) < len(clusters):
            raise Wrong("too few clusters")
        return got == list(clusters)

    exercise("the clusters of two_layers", answer, rule,
             hint="an unsupported op splits the graph, and a cluster smaller than the minimum size is not made")
