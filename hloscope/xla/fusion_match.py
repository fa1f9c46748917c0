"""XLA's fusions matched to hloscope's by the original operations they cover.

Two fusions of different compilers touch when they share at least half of the smaller one's
sources (fusion_groups.py: an operation's op_name and call site) and one is the other's best
partner (the most shared, relative to size). Each connected set of touching fusions is one
match:

    same           one XLA fusion, one hloscope fusion, covering the same operations
    partial        one each, but one covers operations the other leaves out
    split          one XLA fusion is several hloscope fusions
    merged         several XLA fusions are one hloscope fusion
    regrouped      several on each side
    only-XLA       an XLA fusion no hloscope fusion covers most of (hloscope leaves its
                   operations unfused, or fuses them with others)
    only-hloscope  the reverse

Every match that is not `same` carries hloscope's own reason: the fusion passes' recorded
decisions about the operations that differ (XLA's dump records no decisions).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..passes.record import Decision, PassRecord
from .fusion_groups import CHEAP, FusionGroup, Source, SourceMap, describe_source, sources_by_instruction

FUSION_PASSES = ("fusion", "multi_output_fusion")
STATUSES = ("same", "partial", "split", "merged", "regrouped", "only-XLA", "only-hloscope")
MAX_REASONS = 3


@dataclass(frozen=True)
class FusionMatch:
    """One match (see the module docstring) and hloscope's reason for a difference."""

    status: str
    xla: tuple[FusionGroup, ...]
    hloscope: tuple[FusionGroup, ...]
    reason: str = ""

    def row(self) -> tuple[str, str, str, str]:
        """(status, XLA fusions, hloscope fusions, reason) as plain text."""
        return (self.status, ", ".join(g.describe() for g in self.xla) or "-",
                ", ".join(g.describe() for g in self.hloscope) or "-", self.reason)


class DecisionIndex:
    """hloscope's fusion decisions, found by the sources of the instructions they name."""

    def __init__(self, records: list[PassRecord], canon: SourceMap | None = None):
        fusion_runs = [r for r in records if r.name in FUSION_PASSES]
        self.decisions: list[Decision] = [d for r in fusion_runs for d in r.log]
        self.source: dict[str, Source] = {}
        for r in fusion_runs:
            self.source.update(sources_by_instruction(r.before, canon))
            self.source.update(sources_by_instruction(r.after, canon))

    def names_of(self, sources: frozenset[Source]) -> set[str]:
        return {name for name, s in self.source.items() if s in sources}

    def about(self, sources: frozenset[Source], accepted: bool | None = None, both: bool = False) -> list[Decision]:
        """Decisions naming an instruction of `sources` (as subject and target with both)."""
        names = self.names_of(sources)
        found = []
        for d in self.decisions:
            ends = (d.subject in names, d.target in names)
            if (all(ends) if both else any(ends)) and (accepted is None or d.accepted == accepted):
                found.append(d)
        return found


def match_fusions(xla: list[FusionGroup], ours: list[FusionGroup], index: DecisionIndex) -> list[FusionMatch]:
    """One FusionMatch per connected set of fusions, XLA's order first."""
    parent = list(range(len(xla) + len(ours)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    holders: dict[Source, tuple[list[int], list[int]]] = {}
    for i, g in enumerate(xla):
        for s in g.keys:
            holders.setdefault(s, ([], []))[0].append(i)
    for j, g in enumerate(ours):
        for s in g.keys:
            holders.setdefault(s, ([], []))[1].append(len(xla) + j)
    shared: dict[tuple[int, int], int] = {}
    for xs, hs in holders.values():  # only fusions of different compilers join: XLA's duplicates stay apart
        for i in xs:
            for k in hs:
                shared[i, k] = shared.get((i, k), 0) + 1
    groups = [*xla, *ours]
    score = {edge: n / min(len(groups[edge[0]].keys), len(groups[edge[1]].keys)) for edge, n in shared.items()}
    best: dict[int, float] = {}
    for (i, k), value in score.items():
        best[i], best[k] = max(best.get(i, 0.0), value), max(best.get(k, 0.0), value)
    for (i, k), value in score.items():
        # Substantial, and the best partner of one of the two: a fusion that shares a little
        # with a second partner (a broadcast both duplicate) does not chain the two matches.
        if value >= 0.5 and value in (best[i], best[k]):
            parent[find(k)] = find(i)
    components: dict[int, list[int]] = {}
    for k in range(len(parent)):
        components.setdefault(find(k), []).append(k)
    return [_classify([xla[k] for k in ks if k < len(xla)], [ours[k - len(xla)] for k in ks if k >= len(xla)],
                      index) for ks in components.values()]


def _classify(xs: list[FusionGroup], hs: list[FusionGroup], index: DecisionIndex) -> FusionMatch:
    if not hs:
        return FusionMatch("only-XLA", tuple(xs), (), _why_unfused(xs[0], index))
    if not xs:
        return FusionMatch("only-hloscope", (), tuple(hs), _why_fused(hs[0], index))
    if len(xs) == 1 and len(hs) == 1:
        if xs[0].keys == hs[0].keys:
            return FusionMatch("same", tuple(xs), tuple(hs))
        return FusionMatch("partial", tuple(xs), tuple(hs), _why_partial(xs[0], hs[0], index))
    status = "split" if len(xs) == 1 else "merged" if len(hs) == 1 else "regrouped"
    return FusionMatch(status, tuple(xs), tuple(hs), _why_regrouped(status, xs, hs, index))


def _lines(decisions: list[Decision]) -> str:
    shown = list(dict.fromkeys(str(d) for d in decisions))
    more = f" (and {len(shown) - MAX_REASONS} more)" if len(shown) > MAX_REASONS else ""
    return "; ".join(shown[:MAX_REASONS]) + more


def _sources_text(sources: frozenset[Source]) -> str:
    return ", ".join(sorted(describe_source(s) for s in sources)[:4])


def _why_unfused(x: FusionGroup, index: DecisionIndex) -> str:
    """Why hloscope does not fuse what XLA fused: its rejections about those operations."""
    real = [op for op in x.opcodes if op not in CHEAP]
    lead = ""
    if x.kind == "custom":
        lead = f"XLA calls a library for {', '.join(sorted(set(real))) or 'it'} through a fusion; "
    elif len(real) == 1:
        lead = f"XLA wraps a lone {real[0]} in a fusion (its code generator emits only fusions); "
    if not index.names_of(x.keys):
        return lead + f"hloscope has no instruction from {_sources_text(x.keys)} (simplified away or rewritten)"
    rejected = index.about(x.keys, accepted=False)
    if rejected:
        return lead + "hloscope: " + _lines(rejected)
    return lead + "hloscope's fusion passes logged no refusal for these operations"


def _why_fused(h: FusionGroup, index: DecisionIndex) -> str:
    """What hloscope logged when it made a fusion XLA does not have."""
    made = [d for d in index.decisions if d.action == "created" and d.subject == h.name]
    fused = index.about(h.keys, accepted=True)
    return "no XLA fusion covers most of these operations; hloscope: " + _lines(made + fused)


def _why_partial(x: FusionGroup, h: FusionGroup, index: DecisionIndex) -> str:
    only_xla, only_ours = x.keys - h.keys, h.keys - x.keys
    parts = []
    if only_xla:
        refused = index.about(only_xla, accepted=False)
        why = f"; hloscope: {_lines(refused)}" if refused else ""
        parts.append(f"XLA also fuses {_sources_text(only_xla)}{why}")
    if only_ours:
        fused = index.about(only_ours, accepted=True)
        parts.append(f"hloscope also fuses {_sources_text(only_ours)}" + (f": {_lines(fused)}" if fused else ""))
    return "; ".join(parts)


def _why_regrouped(status: str, xs: list[FusionGroup], hs: list[FusionGroup], index: DecisionIndex) -> str:
    """split: hloscope's refusals inside XLA's fusion; merged: its fusions joining XLA's."""
    keys = frozenset().union(*(x.keys for x in xs))
    if status == "split":
        found = index.about(keys, accepted=False, both=True) or index.about(keys, accepted=False)
        return f"hloscope splits XLA's {xs[0].name} in {len(hs)}: " + (_lines(found) or "no refusal logged")
    if status == "merged":
        found = index.about(keys, accepted=True, both=True)
        return f"hloscope merges XLA's {', '.join(x.name for x in xs)}: " + (_lines(found) or "no decision logged")
    cuts = index.about(keys, accepted=False, both=True)  # where hloscope drew its borders
    found = cuts or index.about(keys, accepted=True, both=True)
    return (f"hloscope regroups XLA's {', '.join(x.name for x in xs)} as {len(hs)} fusions: "
            + (_lines(found) or "no decision logged"))
