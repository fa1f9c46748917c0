"""encapsulate_subgraphs: each cluster becomes a function, TensorFlow's EncapsulateSubgraphsPass.

    before                                after
    [cluster_0] dot.3 = dot(x, w)         cluster_0 = call:cluster_0(x, w, b) -> add.5
    [cluster_0] broadcast.4 = ...         tanh.6 = tanh(add.5)
    [cluster_0] add.5 = add(...)
    tanh.6 = tanh(add.5)

The function is an HLO module of its own. Its parameters are the values entering the
cluster (in the order first used), each keeping its name so no instruction changes, except
constants, which are copied in (one left with no reader outside is removed); its
results are the values leaving it (used outside, or results of the whole function), one, or
a tuple of several. The cluster's members are replaced by one call node, placed where a
topological order puts it (contraction made no cycle, so there is one). The cluster's
signature starts from the function's fingerprint: a hash of its HLO (fingerprint_of).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np

from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.module import HloModule
from ..ir.shape import TupleShape
from ..passes.record import DecisionLog
from .graph import Cluster, ProgramGraph, ProgramNode


@dataclass(frozen=True)
class EncapsulateSubgraphs:
    """Make each cluster a function (an HLO module of its own) called from one node,
    TensorFlow's EncapsulateSubgraphsPass (see the module docstring)."""

    name: str = "encapsulate_subgraphs"

    def run(self, graph: ProgramGraph, log: DecisionLog) -> ProgramGraph:
        names = list(dict.fromkeys(n.cluster for n in graph.nodes if n.cluster))
        clusters = [_encapsulate(graph, name) for name in names]
        for c in clusters:
            log.add("encapsulated", c.name,
                    f"{len(c.members)} nodes -> a function of {len(c.inputs)} parameter(s) and "
                    f"{len(c.outputs)} result(s), fingerprint {c.fingerprint}")
            for v in c.copies:
                log.add("copied", v, f"into {c.name}")
        calls = [_call_node(c) for c in clusters]
        rest = [n for n in graph.nodes if not n.cluster]
        read = {v for n in rest + calls for v in n.inputs} | set(graph.outputs)
        for n in rest:
            if n.is_copied and not read & set(n.outputs):
                log.add("removed", n.name, "every reader is a cluster with its own copy")
        nodes = _topological([n for n in rest if not n.is_copied or read & set(n.outputs)] + calls)
        return graph.with_(nodes=tuple(nodes), clusters=tuple(clusters))


def _encapsulate(graph: ProgramGraph, name: str) -> Cluster:
    members = [n for n in graph.nodes if n.cluster == name]
    inside = {v for n in members for v in n.outputs}
    outside = list(dict.fromkeys(v for n in members for v in n.inputs if v not in inside))
    made_by = graph.producers()
    copies = [v for v in outside if graph.node(made_by[v]).is_copied]
    inputs = [v for v in outside if v not in copies]
    read_outside = {v for n in graph.nodes if n.cluster != name for v in n.inputs} | set(graph.outputs)
    outputs = [v for n in members for v in n.outputs if v in read_outside]
    module = _function(graph, name, [made_by[v] for v in copies] + [n.name for n in members], inputs, outputs)
    ops = tuple(n.opcode for n in members if not n.is_plumbing)
    plumbing = tuple(graph.node(made_by[v]).opcode for v in copies) + tuple(n.opcode for n in members if n.is_plumbing)
    return Cluster(name, tuple(n.name for n in members), tuple(inputs), tuple(outputs), module,
                   fingerprint_of(module), ops, plumbing, tuple(copies))


def _function(graph: ProgramGraph, name: str, members: list[str], inputs: list[str], outputs: list[str]) -> HloModule:
    """The cluster as an HLO module: parameters in, the members, the results as ROOT."""
    traced = graph.module
    entry = traced.entry_computation
    params = [Instruction(v, "parameter", entry[v].shape, parameter_number=i, metadata=entry[v].metadata)
              for i, v in enumerate(inputs)]
    body = [entry[m] for m in members]
    root = outputs[0]
    if len(outputs) > 1:
        root = f"{name}.results"
        body.append(Instruction(root, "tuple", TupleShape(tuple(entry[v].shape for v in outputs)), tuple(outputs)))
    comp = Computation(f"{name}.main", (*params, *body), root)
    called = _called(traced, body)
    module = HloModule(name, (*called, comp), comp.name)
    return module.verify()


def _called(traced: HloModule, body: list[Instruction]) -> list[Computation]:
    """The computations the body calls, directly or not, in the traced module's order."""
    needed: set[str] = set()
    todo = [c for i in body for c in i.called_computations()]
    while todo:
        name = todo.pop()
        if name not in needed:
            needed.add(name)
            todo += [c for i in traced.computation(name) for c in i.called_computations()]
    return [c for c in traced.computations if c.name in needed]


def fingerprint_of(module: HloModule) -> str:
    """A hash of the module's HLO text, with each large constant's bytes hashed in place of its
    printed values (printing a 256x256 constant takes longer than compiling the cluster)."""
    h = hashlib.sha256()
    for comp in module.computations:
        h.update(f"{comp.name} {comp.root}\n".encode())
        for inst in comp.instructions:
            value = inst.literal.value if inst.literal is not None else None
            if isinstance(value, np.ndarray) and value.size > 16:
                h.update(f"{inst.name} {inst.shape} constant ".encode() + value.tobytes())
            else:
                h.update(str(inst).encode())
    return h.hexdigest()[:16]


def _call_node(c: Cluster) -> ProgramNode:
    return ProgramNode(c.name, "call", c.name, c.inputs, c.outputs, cluster=c.name)


def _topological(nodes: list[ProgramNode]) -> list[ProgramNode]:
    """`nodes` in an order with every value made before it is read (stable otherwise)."""
    made_by = {v: n.name for n in nodes for v in n.outputs}
    by_name = {n.name: n for n in nodes}
    done: set[str] = set()
    order: list[ProgramNode] = []

    def visit(n: ProgramNode) -> None:
        stack = [(n, iter(n.inputs))]
        while stack:
            node, deps = stack[-1]
            dep = next((d for d in deps if made_by.get(d) not in done and made_by.get(d) is not None), None)
            if dep is None:
                stack.pop()
                if node.name not in done:
                    done.add(node.name)
                    order.append(node)
            else:
                stack.append((by_name[made_by[dep]], iter(by_name[made_by[dep]].inputs)))

    for n in nodes:
        if n.name not in done:
            visit(n)
    return order
