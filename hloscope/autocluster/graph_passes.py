"""The graph passes, run in order and recorded as the pass manager records an HLO pass.

    records = run_graph_passes((MarkForCompilation(), EncapsulateSubgraphs(), BuildXlaOps()), graph)
    records[0]          PassRecord("mark_for_compilation", "autocluster", changed, seconds,
                                   graph before, graph after, decisions, doc)

passes/pipeline.py's Pipeline runs passes over an HloModule, which it compares and verifies;
these run over a ProgramGraph, so they have this runner, with the pipeline's rules: a pass
gets a DecisionLog and returns a new graph; the runner, not the pass, times it and decides
whether it changed (by comparing the graphs, keeping the one before when nothing changed),
and an error names the pass. The record is the same PassRecord, holding graphs.
"""

from __future__ import annotations

import inspect
from typing import Protocol, Sequence

from ..passes.pipeline import timed_run
from ..passes.record import DecisionLog, PassRecord
from .graph import ProgramGraph

PIPELINE = "autocluster"  # the pipeline name in the records


class GraphPass(Protocol):
    """A pass over the program graph: a frozen dataclass whose options are its fields."""

    @property
    def name(self) -> str: ...

    def run(self, graph: ProgramGraph, log: DecisionLog) -> ProgramGraph: ...


def run_graph_passes(passes: Sequence[GraphPass], graph: ProgramGraph) -> list[PassRecord[ProgramGraph]]:
    """One PassRecord per pass, each run on the graph the one before it left."""
    records: list[PassRecord[ProgramGraph]] = []
    for p in passes:
        records.append(_run_pass(p, graph))
        graph = records[-1].after
    return records


def _run_pass(p: GraphPass, graph: ProgramGraph) -> PassRecord[ProgramGraph]:
    log = DecisionLog()
    after, seconds = timed_run(p, graph, log)
    changed = after != graph
    return PassRecord(p.name, PIPELINE, changed, seconds, graph, after if changed else graph,
                      tuple(log.entries), inspect.getdoc(type(p)) or "")
