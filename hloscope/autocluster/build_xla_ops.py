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

from .graph import GraphPassRecord, Node, ProgramGraph, Value


@dataclass(frozen=True)
class BuildXlaOps:
    """The pass (see the module docstring)."""

    name: str = "build_xla_ops"

    def run(self, graph: ProgramGraph, record: GraphPassRecord) -> ProgramGraph:
        nodes: list[Node] = []
        values = dict(graph.values)
        for n in graph.nodes:
            if n.kind != "call":
                nodes.append(n)
                continue
            key = key_value(n.name)
            values[key] = Value(key, (), "executable")
            nodes.append(Node(f"{n.name}/compile", "xla_compile", "XlaCompile", n.inputs, (key,), n.name))
            nodes.append(Node(f"{n.name}/run", "xla_run", "XlaRun", (key, *n.inputs), n.outputs, n.name))
            record.log(n.name, "rewritten", f"call -> {n.name}/compile (XlaCompile) -> {n.name}/run (XlaRun)")
        return graph.with_(nodes=tuple(nodes), values=values, stage="after build_xla_ops")


def key_value(cluster: str) -> str:
    """The value by which XlaCompile hands the executable to XlaRun."""
    return f"{cluster}/key"
