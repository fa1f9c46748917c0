"""What one autojit signature leaves behind: the program graph after tracing and after each
of the three passes (each pass recorded as XLA records one), and, as calls run, per cluster
its compile time, run time, cache hits and misses and its own Compilation, per host call its
time, and the bytes crossing each host/cluster edge."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..compilation.record import Compilation
from ..passes.record import PassRecord
from ..viz.autocluster import record_html
from ..viz.autocluster_export import save_autocluster_html
from .graph import ProgramGraph


@dataclass
class ClusterStats:
    """One cluster as it ran: compiles (misses), cache hits, seconds, bytes in and out."""

    name: str
    ops: list[str]
    signature: str = ""
    misses: int = 0
    hits: int = 0
    compile_seconds: float = 0.0  # of the compile this signature needed (0 if another call compiled it)
    runs: int = 0
    run_seconds: float = 0.0  # all runs together
    bytes_in: int = 0  # host -> cluster, all runs together
    bytes_out: int = 0  # cluster -> host
    compilation: Compilation | None = None  # the cluster's own record (passes, fusions, kernels)


@dataclass
class HostStats:
    """One host node as it ran (an unclustered op or a host call)."""

    name: str
    what: str
    calls: int = 0
    seconds: float = 0.0


@dataclass
class AutoClusterRecord:
    """The record of one signature of an autojit function (see the module docstring)."""

    fn_name: str
    signature: str
    traced: ProgramGraph
    passes: list[PassRecord[ProgramGraph]]  # one per graph pass, as the pass manager records HLO passes
    trace_seconds: float = 0.0
    clusters: dict[str, ClusterStats] = field(default_factory=dict)
    hosts: dict[str, HostStats] = field(default_factory=dict)
    edges: dict[tuple[str, str], int] = field(default_factory=dict)  # (from, to) -> bytes, all runs
    calls: int = 0

    @property
    def final(self) -> ProgramGraph:
        return self.passes[-1].after if self.passes else self.traced

    def graphs(self) -> list[tuple[str, ProgramGraph]]:
        """(label, graph): as traced, then after each pass."""
        return [("traced", self.traced), *[(f"after {p.name}", p.after) for p in self.passes]]

    def reasons(self) -> dict[str, str]:
        """node -> why mark_for_compilation left it out of every cluster."""
        mark = next(p for p in self.passes if p.name == "mark_for_compilation")
        return {d.subject: d.reason for d in mark.log if d.action == "left out"}

    def summary(self) -> str:
        """A few lines: each cluster with its ops and timings, each host node, the traffic."""
        lines = [f"autojit({self.fn_name}) for ({self.signature}): {len(self.clusters)} cluster(s), "
                 f"{len(self.hosts)} host node(s), {self.calls} call(s)"]
        for c in self.clusters.values():
            lines.append(f"  {c.name}: {', '.join(c.ops)}; compiled {c.misses}x in {c.compile_seconds * 1e3:.1f} ms, "
                         f"{c.hits} cache hit(s), {c.runs} run(s) in {c.run_seconds * 1e3:.2f} ms, "
                         f"{c.bytes_in} B in, {c.bytes_out} B out")
        for h in self.hosts.values():
            lines.append(f"  host {h.name} ({h.what}): {h.calls} call(s) in {h.seconds * 1e3:.2f} ms")
        return "\n".join(lines)

    def save_html(self, path: str | Path) -> Path:
        """This call as HTML: a page for the program (graphs per pass, decisions, timings)
        and one per compiled cluster beside it, linked (hloscope.viz.autocluster_export)."""
        return save_autocluster_html(path, self)

    def _repr_html_(self) -> str:
        return record_html(self)
