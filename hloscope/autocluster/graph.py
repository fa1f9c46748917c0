"""The program graph that auto-clustering works on, as TensorFlow's passes see a TF graph.

A node is one of:

    arg          an argument of the function (a graph input)
    op           one HLO instruction the tracer emitted for a supported numpy call
    host         a call that runs in numpy on the host: a function without a lowering rule,
                 a call on a value the compiler cannot hold (complex), or `hloscope.host(fn)`
    call         a cluster encapsulated as a function (after encapsulate_subgraphs)
    xla_compile  XlaCompile: compile the cluster for its signature, or find it in the cache
    xla_run      XlaRun: run the executable XlaCompile handed over (after build_xla_ops)

Values are named: an op's value has its instruction's name, an argument's its parameter's,
a host call's outputs their own names. The graph is an immutable value, so each pass's
record (a PassRecord, as for an HLO pass) keeps the graph before and after it as a snapshot,
as XLA keeps a module per pass.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

import numpy as np

from ..frontend.pytree import TreeDef
from ..ir.dtypes import ELEMENT_TYPES
from ..ir.module import HloModule

# Ops that only move or retype data. They join the cluster of their users but do not count
# towards a cluster's size (a cluster of one dot and its broadcasts is still one real op).
PLUMBING = frozenset({
    "constant", "broadcast", "reshape", "convert", "bitcast", "bitcast-convert", "transpose",
    "get-tuple-element", "tuple", "iota", "copy", "slice",
})
# Ops with no operands: rather than sent between clusters, they are copied into each that uses them.
COPIED = frozenset({"constant", "iota"})


_HLO_NAMES = {**{t.numpy_name.rpartition(".")[2]: t.name for t in ELEMENT_TYPES.values()}, "complex64": "c64", "complex128": "c128"}


@dataclass(frozen=True)
class ProgramValue:
    """One value flowing along the graph's edges: its shape, dtype, and whether it must stay
    on the host (a dtype the compiler has no type for)."""

    name: str
    shape: tuple[int, ...]
    dtype: str  # numpy's name: float32, complex128; "tuple" for a tuple-shaped HLO value
    host_only: bool = False
    nbytes: int = 0

    def short(self) -> str:
        """`f32[4,3]` in HLO's spelling (`c128[8]` for a complex value only the host holds)."""
        return f"{_HLO_NAMES.get(self.dtype, self.dtype)}[{','.join(map(str, self.shape))}]"


@dataclass(frozen=True)
class HostCall:
    """What a host node runs: `fn` applied to the call's pytree of arguments, with the
    traced operands (in `ProgramNode.inputs` order) put back in place of the tracers."""

    fn: Any
    tree: TreeDef
    statics: tuple  # every leaf of the argument tree; None where an operand goes
    operand_slots: tuple[int, ...]  # the leaf positions of the operands
    out_tree: TreeDef
    reason: str  # why it runs on the host


@dataclass(frozen=True)
class ProgramNode:
    """One node of the program graph (see the module docstring for the kinds)."""

    name: str
    kind: str
    opcode: str  # the HLO opcode, the host function's name, or the kind's own word
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    cluster: str | None = None  # set by mark_for_compilation
    host: HostCall | None = None
    source: str = ""  # the user's line, "file.py:12"

    @property
    def is_plumbing(self) -> bool:
        return self.kind == "op" and self.opcode in PLUMBING

    @property
    def is_copied(self) -> bool:
        """A constant or iota: each cluster that reads it gets its own copy."""
        return self.kind == "op" and self.opcode in COPIED and not self.inputs


@dataclass(frozen=True)
class Cluster:
    """A cluster after encapsulate_subgraphs: its members and the function it became."""

    name: str
    members: tuple[str, ...]  # node names, in graph order
    inputs: tuple[str, ...]  # values entering (the function's parameters, in order)
    outputs: tuple[str, ...]  # values leaving (its results, in order)
    module: HloModule
    fingerprint: str
    ops: tuple[str, ...]  # the members' opcodes that count (real ops), in order
    plumbing: tuple[str, ...]  # the others (broadcast, reshape, ...), and the constants copied in
    copies: tuple[str, ...] = ()  # the constants (and iotas) copied into the function


@dataclass(frozen=True)
class ProgramGraph:
    """Nodes in a topological order, the values between them, the function's results."""

    nodes: tuple[ProgramNode, ...]
    values: dict[str, ProgramValue]
    outputs: tuple[str, ...]
    out_tree: TreeDef
    module: HloModule  # the traced module: the instructions op nodes stand for
    clusters: tuple[Cluster, ...] = ()

    def node(self, name: str) -> ProgramNode:
        return self._by_name[name]

    @cached_property
    def _by_name(self) -> dict[str, ProgramNode]:
        return {n.name: n for n in self.nodes}

    def producers(self) -> dict[str, str]:
        """value name -> the name of the node that makes it (computed once; do not modify)."""
        return self._producers

    @cached_property
    def _producers(self) -> dict[str, str]:
        return {v: n.name for n in self.nodes for v in n.outputs}

    def users(self) -> dict[str, list[str]]:
        """value name -> the names of the nodes that read it."""
        found: dict[str, list[str]] = {v: [] for v in self.values}
        for n in self.nodes:
            for v in dict.fromkeys(n.inputs):
                found.setdefault(v, []).append(n.name)
        return found

    def cluster(self, name: str) -> Cluster:
        return next(c for c in self.clusters if c.name == name)

    def with_(self, **changes: Any) -> "ProgramGraph":
        return replace(self, **changes)

    def instruction_count(self) -> int:
        """How many nodes: what a pass record's size change counts (an HloModule counts instructions)."""
        return len(self.nodes)

    def to_text(self) -> str:
        """The listing, by the name every program's text has (HloModule.to_text): what a pass
        record's diff compares."""
        return self.listing()

    def listing(self) -> str:
        """One line per node: `cluster_0: dot.3 = dot(x, w)  f32[4,3]`."""
        lines = []
        for n in self.nodes:
            outs = ", ".join(n.outputs) or "-"
            where = f"[{n.cluster}] " if n.cluster else ""
            shapes = " ".join(self.values[v].short() for v in n.outputs if v in self.values)
            lines.append(f"{where}{outs} = {n.kind}:{n.opcode}({', '.join(n.inputs)})  {shapes}".rstrip())
        lines.append(f"outputs: {', '.join(self.outputs)}")
        return "\n".join(lines)


def array_value(name: str, shape, dtype, host_only: bool = False) -> ProgramValue:
    """A ProgramValue for an array of `shape` and numpy `dtype`."""
    dt = np.dtype(dtype)
    size = int(np.prod(shape, dtype=np.int64)) * dt.itemsize
    return ProgramValue(name, tuple(int(d) for d in shape), dt.name, host_only, size)
