"""mark_for_compilation: find the clusters, TensorFlow's MarkForCompilationPass for hloscope.

    before                                after (supported_ops={"dot", "add"})
    dot.3 = dot(x, w)                     [cluster_0] dot.3 = dot(x, w)
    broadcast.4 = broadcast(b)            [cluster_0] broadcast.4 = broadcast(b)
    add.5 = add(dot.3, broadcast.4)       [cluster_0] add.5 = add(dot.3, broadcast.4)
    tanh.6 = tanh(add.5)                  tanh.6 = tanh(add.5)        left out: not in supported_ops

The rules, in TensorFlow's order:

1. Candidates. An op is a candidate if the compiler supports it: any HLO op by default, or
   one named in `supported_ops` (HLO opcodes), where plumbing ops (broadcast, reshape,
   convert, ...) come along with the op they feed. Host calls and arguments are never
   candidates, nor are constants: each cluster that reads one gets its own copy
   (encapsulate_subgraphs), so a constant never ties two clusters together. A tuple-shaped value may not cross a cluster's edge, so an op making a
   tuple is a candidate only if every user is, and a get-tuple-element only if its tuple's
   maker is.
2. Contraction. Every edge between candidates is contracted (its two ends merged), in
   program order, unless it would create a cycle: if another path leads from one end to the
   other, through a host call or another cluster, merging them would make the cluster feed
   that path and wait for it at once (TF: GraphCycles::ContractEdge). Such an edge is
   refused and the reason names the path.
3. Minimum size. A cluster with fewer than `min_cluster_size` real ops (plumbing does not
   count) is dissolved: compiling it costs a compile and a host/cluster round trip, and
   gains no fusion. TensorFlow's default is 4 (tf_xla_min_cluster_size); hloscope's is 2, the
   smallest cluster that can fuse anything, so the textbook's matmul-and-add is a cluster.

Every node left out of a cluster gets its reason in the pass record (a rejected Decision).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..passes.record import DecisionLog
from .graph import ProgramGraph, ProgramNode

DEFAULT_MIN_CLUSTER_SIZE = 2


@dataclass(frozen=True)
class MarkForCompilation:
    """Find the clusters, TensorFlow's MarkForCompilationPass: candidates, contraction without
    cycles, minimum size (the rules are in the module docstring); its options are its fields."""

    supported_ops: frozenset[str] | None = None
    min_cluster_size: int = DEFAULT_MIN_CLUSTER_SIZE
    name: str = "mark_for_compilation"

    def run(self, graph: ProgramGraph, log: DecisionLog) -> ProgramGraph:
        candidates = self._candidates(graph, log)
        groups = _contract(graph, candidates, log)
        kept = self._big_enough(graph, groups, log)
        names = {member: f"cluster_{i}" for i, group in enumerate(kept) for member in group}
        for i, group in enumerate(kept):
            ops = ", ".join(graph.node(m).opcode for m in group if not graph.node(m).is_plumbing)
            for member in group:
                log.add("clustered", member, f"in cluster_{i} ({ops})")
        nodes = tuple(_with_cluster(n, names.get(n.name)) for n in graph.nodes)
        return graph.with_(nodes=nodes)

    # ---- rule 1: candidates ----
    def _candidates(self, graph: ProgramGraph, log: DecisionLog) -> set[str]:
        found: set[str] = set()
        for n in graph.nodes:
            reason = self._refusal(n)
            if reason:
                log.add("left out", n.name, reason, accepted=False)
            else:
                found.add(n.name)
        _tuple_rule(graph, found, log)
        return found

    def _refusal(self, n: ProgramNode) -> str:
        if n.kind == "arg":
            return "an argument: a graph input, provided by the caller"
        if n.is_copied:
            return f"a {n.opcode} (no operands): never clustered itself; a cluster that reads it gets its own copy"
        if n.kind == "host":
            assert n.host is not None, "a host node carries its call"
            return f"host call {n.opcode} ({n.host.reason})"
        if self.supported_ops is not None and n.opcode not in self.supported_ops and not n.is_plumbing:
            return f"op {n.opcode} not in supported_ops {{{', '.join(sorted(self.supported_ops))}}}"
        return ""

    # ---- rule 3: minimum size ----
    def _big_enough(self, graph: ProgramGraph, groups: list[list[str]], log: DecisionLog) -> list[list[str]]:
        kept = []
        for group in groups:
            real = [m for m in group if not graph.node(m).is_plumbing]
            if len(real) >= self.min_cluster_size:
                kept.append(group)
                continue
            if real:
                reason = (f"cluster of {len(real)} op{'s' * (len(real) != 1)} ({', '.join(real)}) "
                          f"below min size {self.min_cluster_size}")
            else:
                reason = f"plumbing ({', '.join(group)}) that feeds no cluster"
            for member in group:
                log.add("left out", member, reason, accepted=False)
        return kept


def _with_cluster(n: ProgramNode, cluster: str | None) -> ProgramNode:
    return n if n.cluster == cluster else replace(n, cluster=cluster)


def _tuple_rule(graph: ProgramGraph, found: set[str], log: DecisionLog) -> None:
    """Drop candidates until no tuple-shaped value would cross a cluster's edge."""
    made_by, users = graph.producers(), graph.users()
    changed = True
    while changed:
        changed = False
        for n in graph.nodes:
            if n.name not in found:
                continue
            outside = [u for v in n.outputs if graph.values[v].dtype == "tuple" for u in users[v] if u not in found]
            source = [made_by[v] for v in n.inputs if graph.values[v].dtype == "tuple" and made_by[v] not in found]
            if outside or source:
                found.discard(n.name)
                other = (outside or source)[0]
                log.add("left out", n.name, f"a tuple value between it and {other} (which stays out) "
                                            "cannot cross a cluster's edge", accepted=False)
                changed = True


# ---- rule 2: contraction without cycles ----
class _Contraction:
    """Groups of nodes (union-find) and the graph between groups."""

    def __init__(self, graph: ProgramGraph):
        made_by, users = graph.producers(), graph.users()
        self.succ = {n.name: {u for v in n.outputs for u in users.get(v, ())} for n in graph.nodes}
        self.pred = {n.name: {made_by[v] for v in n.inputs if v in made_by} for n in graph.nodes}
        self.rep = {n.name: n.name for n in graph.nodes}
        self.members = {n.name: [n.name] for n in graph.nodes}

    def find(self, name: str) -> str:
        while self.rep[name] != name:
            self.rep[name] = self.rep[self.rep[name]]
            name = self.rep[name]
        return name

    def successors(self, group: str) -> set[str]:
        return {self.find(s) for m in self.members[group] for s in self.succ[m]} - {group}

    def other_path(self, a: str, b: str) -> list[str] | None:
        """A path a -> ... -> b between groups that is not the direct edge (None if none)."""
        parent: dict[str, str] = {}
        todo = [s for s in self.successors(a) if s != b]
        for s in todo:
            parent[s] = a
        while todo:
            g = todo.pop()
            for s in self.successors(g):
                if s == b:
                    path = [g]
                    while parent[path[-1]] != a:
                        path.append(parent[path[-1]])
                    return path[::-1]
                if s not in parent:
                    parent[s] = g
                    todo.append(s)
        return None

    def merge(self, a: str, b: str) -> None:
        self.rep[b] = a
        self.members[a] += self.members.pop(b)


def _contract(graph: ProgramGraph, candidates: set[str], log: DecisionLog) -> list[list[str]]:
    """Merge candidates along edges in program order, refusing merges that make a cycle,
    until nothing merges (a merge can open a path for an edge refused before)."""
    c = _Contraction(graph)
    order = {n.name: i for i, n in enumerate(graph.nodes)}
    refused: dict[tuple[str, str], str] = {}
    merged = True
    while merged:
        merged = False
        for n in graph.nodes:
            for user in sorted(c.succ[n.name], key=order.__getitem__) if n.name in candidates else ():
                a, b = c.find(n.name), c.find(user)
                if user not in candidates or a == b:
                    continue
                path = c.other_path(a, b)
                if path is None:
                    c.merge(a, b)
                    merged = True
                else:
                    refused[(n.name, user)] = " -> ".join(_describe_group(graph, c, g) for g in path)
    for (producer, user), through in refused.items():
        if c.find(producer) != c.find(user):  # still apart: the refusal stands
            log.add("refused", user, f"not merged with {producer}: would create a cycle through {through}",
                    accepted=False)
    groups = [sorted(ms, key=order.__getitem__) for g, ms in c.members.items() if g in candidates]
    return sorted(groups, key=lambda ms: order[ms[0]])


def _describe_group(graph: ProgramGraph, c: _Contraction, group: str) -> str:
    members = c.members[group]
    node = graph.node(members[0])
    what = f"{node.kind} {node.name}" if node.kind == "host" else node.name
    return what if len(members) == 1 else f"the group of {node.name} ({len(members)} ops)"
