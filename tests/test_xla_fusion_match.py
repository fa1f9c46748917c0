"""The fusion matcher on hand-made fusions (no jax needed): each status, from how the two
compilers' fusions share original operations."""

from __future__ import annotations

import pytest

from hloscope.xla.fusion_groups import FusionGroup
from hloscope.xla.fusion_match import DecisionIndex, match_fusions


def group(compiler: str, name: str, *sources: str, kind: str = "loop") -> FusionGroup:
    keys = frozenset(("jit(f)/" + s, "frame 1") for s in sources)
    return FusionGroup(compiler, name, kind, sources, ("add",) * len(sources), keys, keys)


@pytest.mark.parametrize("xla, ours, statuses", [
    ([("x", "a b")], [("h", "a b")], ["same"]),
    ([("x", "a b")], [("h", "a")], ["partial"]),
    ([("x", "a b")], [("h1", "a"), ("h2", "b")], ["split"]),
    ([("x1", "a"), ("x2", "b")], [("h", "a b")], ["merged"]),
    ([("x1", "a b"), ("x2", "c d")], [("h1", "a c"), ("h2", "b d")], ["regrouped"]),
    ([("x", "a")], [("h", "b")], ["only-XLA", "only-hloscope"]),
])
def test_statuses(xla, ours, statuses):
    matches = match_fusions([group("XLA", n, *s.split()) for n, s in xla],
                            [group("hloscope", n, *s.split()) for n, s in ours], DecisionIndex([]))
    assert sorted(m.status for m in matches) == sorted(statuses)
    assert sorted(g.name for m in matches for g in m.xla) == sorted(n for n, _ in xla)
    assert sorted(g.name for m in matches for g in m.hloscope) == sorted(n for n, _ in ours)
    assert all(m.reason for m in matches if m.status != "same")


def test_two_xla_fusions_sharing_an_operation_stay_apart_without_a_hloscope_fusion():
    matches = match_fusions([group("XLA", "x1", "a"), group("XLA", "x2", "a")], [], DecisionIndex([]))
    assert [m.status for m in matches] == ["only-XLA", "only-XLA"]


def test_one_common_operation_does_not_make_big_fusions_one_match():
    matches = match_fusions([group("XLA", "x", "a", "b", "c", "d")], [group("hloscope", "h", "a", "e", "f", "g")],
                            DecisionIndex([]))
    assert sorted(m.status for m in matches) == ["only-XLA", "only-hloscope"]


CALL_HLO = """HloModule m

%g (a: f32[4]) -> f32[4] {
  %a = f32[4] parameter(0)
  ROOT %neg.1 = f32[4] negate(%a), metadata={op_name="neg"}
}

ENTRY %main (x: f32[4]) -> f32[4] {
  %x = f32[4] parameter(0)
  ROOT %c = f32[4] call(%x), to_apply=%g, metadata={op_name="jit(f)/jit(g)" stack_frame_id=3}
}
"""


def test_ops_of_a_called_computation_get_the_name_xlas_inliner_gives_them():
    from hloscope import parse_hlo
    from hloscope.xla.fusion_groups import SourceMap, source_of

    canon = SourceMap.of(parse_hlo(CALL_HLO))
    neg = parse_hlo(CALL_HLO).computation("g")["neg.1"]
    assert canon(source_of(neg)) == ("jit(f)/jit(g)/neg", "inlined")  # hloscope keeps the callee's metadata
    assert canon(("jit(f)/jit(g)/neg", "frame 7")) == ("jit(f)/jit(g)/neg", "inlined")  # XLA's inlined op
    assert canon(("jit(f)/exp", "frame 2")) == ("jit(f)/exp", "frame 2")  # anything else is left as it is


def test_a_fusion_joins_only_its_best_partner():
    # hloscope's h1 also holds c (say, a duplicated op), which x2 shares with its own twin h2
    matches = match_fusions([group("XLA", "x1", "a", "b"), group("XLA", "x2", "c", "d")],
                            [group("hloscope", "h1", "a", "b", "c"), group("hloscope", "h2", "c", "d")],
                            DecisionIndex([]))
    found = {(tuple(g.name for g in m.xla), tuple(g.name for g in m.hloscope)): m.status for m in matches}
    assert found == {(("x1",), ("h1",)): "partial", (("x2",), ("h2",)): "same"}
