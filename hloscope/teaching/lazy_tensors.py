"""The exercise check of notebook 14, "lazy tensors": the shapes a recompile's diff names."""

from __future__ import annotations

from typing import Any

from .exercises import Wrong, exercise


def check_changed_shapes(diff: Any, answer: Any) -> None:
    """`answer`: a set of (before, after) aval pairs, the causes of `diff` (a graph diff)."""
    expected = {(c.before.aval, c.after.aval) for c in diff.causes}

    def rule(got: Any) -> bool:
        if not isinstance(got, (set, frozenset, list, tuple)):
            raise Wrong('answer with a set of pairs such as ("f32[4,4]", "f32[2,4]")')
        got = {tuple(p) for p in got}
        if any(len(p) != 2 for p in got):
            raise Wrong("each change is a pair (before, after)")
        if any((b, a) in expected for a, b in got):
            raise Wrong("some pairs are the wrong way round: (before, after)")
        if got < expected:
            raise Wrong("some changes are missing")
        if got > expected:
            raise Wrong("some of these did not change")
        return got == expected

    exercise("the shapes that changed", answer, rule, hint="look at the lines of diff.summary(): the data nodes")
