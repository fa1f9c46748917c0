"""multi_output_fusion: one loop that writes several results (XLA's MultiOutputFusion,
xla/service/gpu/transforms/multi_output_fusion.cc and xla/service/cpu/cpu_multi_output_fusion.cc).

Ordinary fusion has a blind spot: a value with two users. Fusing it into one user would
compute it twice, so it stays in memory, and every fusion that reads the same big input
reads it again. Multi-output fusion gives a fusion a tuple of results instead:

  sibling:  two fusions (or reduces) reading the same big operand become one, which reads it
            once, e.g. the sum, max and min reductions over the rows of one matrix;
  producer-consumer: a producer with several users moves into one of them and is also
            written out for the others, e.g. softmax's exp fused into the sum that reduces
            it (an `exponential_reduce_fusion`), still written once for the divide.

    %f = (f32[128]{0}, f32[128,256]{1,0}) fusion(%x, %m), kind=kInput, calls=%fused_computation.2
    %sum = f32[128]{0} get-tuple-element(%f), index=0
    %exp = f32[128,256]{1,0} get-tuple-element(%f), index=1

Two things forbid it. A cycle: if one member reaches the other through some third
instruction (the variance of layernorm reads the mean; softmax's divide reads the sum of
the exp), one fusion would have to finish before itself. And a different iteration space:
the members must loop over the same shape (a reduce loops over its input), and two reduces
must reduce the same dimensions.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...ir.module import HloModule
from ...ir.opcodes import is_elementwise
from ...ir.shape import ArrayShape, TupleShape
from ..pipeline import HloPass
from ..record import DecisionLog
from .builder import Group, NameUniquer
from .graph import ROOT, FusionGraph, fusible_computations, rebuild_module


def _member(g: FusionGraph, key: str) -> bool:
    """Can `key` join a multi-output fusion? Loop or input fusions and plain reduces."""
    node = g.nodes.get(key)
    if g.has_control_users(key):
        return False
    if isinstance(node, Group):
        gtes_only = len(node.outputs) == 1 or all(
            getattr(g.nodes.get(u), "opcode", None) == "get-tuple-element" for u in g.users[key])
        return node.kind in ("kLoop", "kInput") and not node.foreign and gtes_only
    return node is not None and node.opcode == "reduce" and not node.attrs.get("control-predecessors")


def _producer(g: FusionGraph, key: str) -> bool:
    """A value worth keeping as an extra output: a single-output loop fusion or a plain
    elementwise op (what fusion left alone because it has several users)."""
    node = g.nodes.get(key)
    if g.has_control_users(key) or getattr(node, "attrs", {}).get("control-predecessors"):
        return False
    if isinstance(node, Group):
        return node.kind == "kLoop" and not node.foreign and len(node.outputs) == 1
    return node is not None and is_elementwise(node.opcode) and isinstance(node.shape, ArrayShape)


def _reduces(g: FusionGraph, key: str) -> list:
    node = g.nodes[key]
    insts = [node.body[o] for o in node.outputs] if isinstance(node, Group) else [node]
    return [i for i in insts if i.opcode == "reduce"]


def _space(g: FusionGraph, key: str) -> tuple:
    """The iteration space: a reduce loops over its input, anything else over its result."""
    reduces = _reduces(g, key)
    if reduces:
        first = reduces[0].operands[0]
        node = g.nodes[key]
        shape = node.body[first].shape if isinstance(node, Group) and first in node.body else g.shape(first)
        return shape.as_array(first).dims
    shape = g.shape(key)
    if isinstance(shape, TupleShape):  # a multi-output fusion: its first output's space
        shape = shape.elements[0]
    return shape.as_array(key).dims


def _root_opcode(g: FusionGraph, key: str) -> str:
    node = g.nodes[key]
    return node.root_opcode if isinstance(node, Group) else node.opcode


@dataclass
class MultiOutputFusion(HloPass):
    """Multi-output fusion: let one fusion write several results.

    Sibling fusion merges fusions (or reduces) that read the same large operand, so it is
    read once; producer-consumer fusion moves a producer with several users into one of them
    and writes it out for the others. Users read the results through get-tuple-element.
    Refused, with the reason logged, when it would create a cycle (one member depends on
    the other through a third instruction), when the members loop over different shapes or
    reduce different dimensions, or when the fusion would read too many operands.
    """

    name = "multi_output_fusion"
    max_operands: int = 20  # XLA:CPU's kMaxOperands for multi-output fusion
    min_shared_bytes: int = 0  # raise it to merge siblings only over big shared operands

    def run(self, module: HloModule, log: DecisionLog) -> HloModule:
        names = NameUniquer.for_module(module)
        comp_names = NameUniquer(c.name for c in module.computations)
        comps, fused, dropped = {}, {}, set()
        for comp in fusible_computations(module):
            graph = FusionGraph(module, comp, names, comp_names)
            for key in reversed(list(graph.nodes)):
                if key in graph.nodes:
                    self._siblings(graph, key, log)
                if key in graph.nodes:
                    self._into_consumer(graph, key, log)
            if graph.reordered or graph.created:
                comps[comp.name], fused[comp.name] = graph.emit()
                dropped |= graph.dropped
        return rebuild_module(module, comps, fused, dropped) if comps else module

    # ---- the two kinds ----
    def _siblings(self, g: FusionGraph, shared: str, log: DecisionLog) -> None:
        """Merge runs of users of `shared` that can share one loop over it. Users are taken in
        order; one that cannot join the current group closes it and starts the next, so
        each is checked against its neighbours only (cheap, even for a shared bias read by a
        thousand fusions along a chain)."""
        node = g.nodes[shared]
        if getattr(node, "opcode", "") == "constant" or not getattr(g.shape(shared), "rank", 0) \
                or g.shape(shared).byte_size < self.min_shared_bytes:
            return  # re-reading a scalar or a constant costs nothing worth a fusion
        members = sorted((u for u in g.users[shared] if u != ROOT and _member(g, u)), key=g.position.__getitem__)
        group: list[str] = members[:1]
        for other in members[1:]:
            why = next(filter(None, (self._refuse(g, c, other, sibling=True) for c in reversed(group))), None)
            if why is None:
                group.append(other)
                continue
            log.add("kept", other, f"not merged with its siblings reading {shared}: {why[1]}",
                    target=group[-1], rule=why[0], computation=g.comp.name, accepted=False)
            self._merge_siblings(g, group, shared, log)
            group = [other]
        self._merge_siblings(g, group, shared, log)

    def _merge_siblings(self, g: FusionGraph, group: list[str], shared: str, log: DecisionLog) -> None:
        if len(group) < 2:
            return
        fusion = self._combine(g, group)
        for other in group[1:]:
            log.add("merged", other, f"sibling multi-output fusion: {', '.join(group)} all read {shared} "
                    f"({g.shape(shared).byte_size} bytes), now read once by {fusion}", target=group[0],
                    rule="sibling", computation=g.comp.name)

    def _into_consumer(self, g: FusionGraph, producer: str, log: DecisionLog) -> None:
        """Move a shared producer into one consumer that also writes it out for the others."""
        if not _producer(g, producer) or len(g.users[producer]) < 2:
            return
        for consumer in sorted(g.users[producer] - {ROOT}, key=g.position.__getitem__):
            if not _member(g, consumer):
                continue
            why = self._refuse(g, consumer, producer, sibling=False)
            if why:
                log.add("kept", producer, f"not fused into {consumer} as an extra output: {why[1]}",
                        target=consumer, rule=why[0], computation=g.comp.name, accepted=False)
                continue
            fusion = self._combine(g, [consumer, producer])
            log.add("fused", producer, f"producer-consumer multi-output fusion: computed inside {fusion} "
                    "and written out for its other users", target=consumer, rule="producer_consumer",
                    computation=g.comp.name)
            return

    # ---- the checks ----
    def _refuse(self, g: FusionGraph, first: str, second: str, sibling: bool) -> tuple[str, str] | None:
        """(rule, reason) if `first` and `second` may not share a fusion, else None."""
        a, b = _space(g, first), _space(g, second)
        if a != b:
            return "shape_mismatch", f"they loop over different shapes ({list(a)} vs {list(b)})"
        dims = {tuple(r.attrs.get("dimensions", ())) for k in (first, second) for r in _reduces(g, k)}
        if len(dims) > 1:
            return "shape_mismatch", "their reduces reduce different dimensions"
        path = self._cycle(g, first, second, sibling)
        if path:
            return "cycle", path
        operands = (set(g.operands(first)) | set(g.operands(second))) - {first, second}
        if len(operands) > self.max_operands:
            return "too_many_operands", f"the fusion would read {len(operands)} operands (limit {self.max_operands})"
        return None

    def _cycle(self, g: FusionGraph, first: str, second: str, sibling: bool) -> str | None:
        """Why merging would make the fusion depend on itself, or None."""
        if sibling:
            for x, y in ((first, second), (second, first)):
                if g.reaches(x, y):
                    return f"{y} depends on {x}, so one fusion would both feed and read the other (a cycle)"
            return None
        for other in g.users[second] - {first, ROOT}:
            if g.reaches(other, first):
                return (f"{second} also reaches {first} through {other}, "
                        "so the fusion would read its own output (a cycle)")
        return None

    def _combine(self, g: FusionGraph, keys: list[str]) -> str:
        """Make the multi-output fusion, named after its last and first members' roots."""
        heroes = any(_reduces(g, k) or getattr(g.nodes[k], "kind", "") == "kInput" for k in keys)
        kind = "kInput" if heroes else "kLoop"
        name = g.names.keep_or_rename(f"{_root_opcode(g, keys[-1])}_{_root_opcode(g, keys[0])}_fusion")
        return g.combine(keys, name, kind)
