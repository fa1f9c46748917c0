"""build_xla_ops: each cluster call becomes XlaCompile -> XlaRun, TensorFlow's BuildXlaOpsPass.

    before                                     after
    cluster_0 = call:cluster_0(x, w, b)        cluster_0/compile = XlaCompile(x, w, b) -> cluster_0/key
                                               cluster_0/run = XlaRun(cluster_0/key, x, w, b) -> add.5

XlaCompile looks at its inputs' shapes and dtypes only: with the function's fingerprint they
are the cluster's signature, the key of the compile cache. On a miss it compiles the
function (hloscope.compile, CPU); either way it hands the executable to XlaRun as a key.
XlaRun runs the executable on the values and makes the cluster's results. Splitting the
two is what lets TensorFlow's executor start compiling before the inputs' values exist.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..passes.record import DecisionLog
from .graph import ProgramGraph, ProgramNode, ProgramValue


@dataclass(frozen=True)
class BuildXlaOps:
    """Split each cluster's call into XlaCompile and XlaRun, TensorFlow's BuildXlaOpsPass
    (see the module docstring)."""

    name: str = "build_xla_ops"

    def run(self, graph: ProgramGraph, log: DecisionLog) -> ProgramGraph:
        nodes: list[ProgramNode] = []
        values = dict(graph.values)
        for n in graph.nodes:
            if n.kind != "call":
                nodes.append(n)
                continue
            key = key_value(n.name)
            values[key] = ProgramValue(key, (), "executable")
            nodes.append(ProgramNode(f"{n.name}/compile", "xla_compile", "XlaCompile", n.inputs, (key,), n.name))
            nodes.append(ProgramNode(f"{n.name}/run", "xla_run", "XlaRun", (key, *n.inputs), n.outputs, n.name))
            log.add("rewritten", n.name, f"call -> {n.name}/compile (XlaCompile) -> {n.name}/run (XlaRun)")
        return graph.with_(nodes=tuple(nodes), values=values)


def key_value(cluster: str) -> str:
    """The value by which XlaCompile hands the executable to XlaRun."""
    return f"{cluster}/key"
