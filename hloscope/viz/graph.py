"""The dataflow graph of a computation as Graphviz DOT text.

    dot = module_to_dot(module)                       # the ENTRY, fusions as clusters
    dot = module_to_dot(module, collapse_fusions=True)  # one box per fusion
    svg = render_svg(dot).svg                         # hloscope.viz.layout

Nodes are named after their instructions (stable across passes), so an SVG node's `<title>`
is the instruction name and a front end can map clicks back to the IR. A fusion is drawn as
a `subgraph cluster_<fusion>` holding the fused computation's instructions; fused parameters
are not drawn: their edges start at the fusion's operands outside the cluster, as in XLA's
graph dumps. Past `max_nodes` the fusions are collapsed, and if that is still too many a
summary (opcode counts) is drawn instead of an unreadable hairball.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..ir.instruction import Instruction
from . import dot_style as style
from .summary import computation_summary, summary_dot

SHARED_USERS = 3  # a constant or broadcast with more users than this is drawn once per user
LEAF_OPCODES = ("constant", "iota")
EDGE_LABEL_LIMIT = 150  # past this many nodes edges lose their shape labels (clutter, and SVG size)

GRAPH_HEADER = (
    'graph [fontname="Helvetica", fontsize=10, nodesep=0.25, ranksep=0.35, rankdir=TB];\n'
    'node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=10, margin="0.08,0.03"];\n'
    'edge [fontname="Helvetica", fontsize=8, color="#777777", fontcolor="#555555", arrowsize=0.6];'
)


def graph_size(module, computation=None, *, collapse_fusions: bool = False) -> int:
    """How many instructions `module_to_dot` would draw (fused parameters are not drawn;
    a shared constant or broadcast counts once, though it is drawn next to each user)."""
    comp = computation_of(module, computation)
    return _size(module, comp, collapse_fusions, depth=0)


def _size(module, comp, collapse: bool, depth: int) -> int:
    n = 0
    for inst in comp:
        fused = _fused_computation(module, inst)
        if fused is not None and not collapse and depth < 8:
            n += _size(module, fused, collapse, depth + 1) - len(fused.parameters)
        else:
            n += 1
    return n


def plan_graph(module, computation=None, *, collapse_fusions: bool = False, max_nodes: int = 250) -> tuple[str, int]:
    """("expanded" | "collapsed" | "summary", node count): what fits in `max_nodes`."""
    if not collapse_fusions:
        n = graph_size(module, computation)
        if n <= max_nodes:
            return "expanded", n
    n = graph_size(module, computation, collapse_fusions=True)
    return ("collapsed" if n <= max_nodes else "summary"), n


def module_to_dot(
    module,
    computation=None,
    *,
    collapse_fusions: bool = False,
    highlight: dict | None = None,
    rejected_fusions=(),
    max_nodes: int = 250,
    id_prefix: str = "",
) -> str:
    """DOT text of one computation (default: the ENTRY) of `module`.

    highlight: {"added"|"removed"|"changed": instruction names} colours those nodes.
    rejected_fusions: Decisions (accepted=False, subject=producer, target=consumer) or
    (producer, consumer, reason) tuples, drawn as dashed red edges with the reason as tooltip.
    id_prefix: prepended to SVG element ids so two graphs can share one HTML page.
    """
    comp = computation_of(module, computation)
    mode, n = plan_graph(module, comp, collapse_fusions=collapse_fusions, max_nodes=max_nodes)
    if mode == "summary":
        reason = f"{n} nodes even with fusions collapsed (limit {max_nodes})"
        return summary_dot(computation_summary(module, comp), reason, id_prefix)
    builder = _DotBuilder(module, _invert(highlight), id_prefix, mode == "collapsed", n <= EDGE_LABEL_LIMIT)
    builder.computation(comp, depth=0, param_sources=None)
    builder.rejected(rejected_fusions)
    title = f"{comp.name}" + (" (fusions collapsed)" if mode == "collapsed" and not collapse_fusions else "")
    return builder.text(title)


def computation_of(module, computation):
    """`computation` as a Computation: None means the ENTRY, a str is looked up by name."""
    if computation is None:
        return module.entry_computation
    return module.computation(computation) if isinstance(computation, str) else computation


def _fused_computation(module, inst):
    """The computation a fusion instruction calls, or None for anything else."""
    if inst.opcode != "fusion":
        return None
    name = inst.attr("calls")
    return module.computation(name) if name and module.has_computation(name) else None


def _invert(highlight: dict | None) -> dict[str, str]:
    """{kind: names} -> {name: kind}; a later kind wins ("changed" over "added")."""
    out: dict[str, str] = {}
    for kind in ("added", "removed", "changed"):
        for name in (highlight or {}).get(kind, ()):
            out[name] = kind
    return out


@dataclass
class _DotBuilder:
    """Accumulates DOT statements; edges are kept for the end so that clusters only
    contain their own nodes (an edge statement inside a subgraph would pull nodes in)."""

    module: object
    highlight: dict
    id_prefix: str
    collapse: bool
    edge_labels: bool
    lines: list = field(default_factory=list)
    edges: list = field(default_factory=list)
    source: dict = field(default_factory=dict)  # instruction name -> its node, module-wide (first wins)
    used: set = field(default_factory=set)

    def computation(self, comp, depth: int, param_sources: list | None, scope: str = "") -> dict:
        """Emit `comp`'s nodes (fusions as nested clusters); returns its name -> node map."""
        indent = "  " * (depth + 1)
        src: dict[str, str | _Copy | None] = {}
        expanded = set()
        shared, folded = _shared_leaves(comp, broadcast_parameters=param_sources is None)
        for inst in comp:
            if inst.name in shared or inst.name in folded:
                src[inst.name] = _Copy(inst, len(comp.users(inst.name))) if inst.name in shared else None
                continue
            if param_sources is not None and inst.opcode == "parameter" and inst.name != comp.root:
                number = inst.parameter_number
                src[inst.name] = param_sources[number] if number < len(param_sources) else None
                continue
            fused = None if self.collapse or depth >= 8 else _fused_computation(self.module, inst)
            if fused is not None:
                src[inst.name] = self._cluster(inst, fused, depth, indent, [src.get(o) for o in inst.operands])
                expanded.add(inst.name)
            else:
                src[inst.name] = self._node(inst, comp, indent, scope)
            self.source.setdefault(inst.name, src[inst.name])
        for inst in comp:
            if inst.name not in expanded and inst.opcode != "parameter" and not isinstance(src.get(inst.name), _Copy):
                self._operand_edges(inst, comp, src, indent)
        return src

    def _node(self, inst, comp, indent: str, scope: str) -> str:
        node_id = inst.name if inst.name not in self.used else f"{scope or comp.name}/{inst.name}"
        self.used.add(node_id)
        a = style.node_attrs(
            inst,
            node_id,
            is_root=inst.name == comp.root,
            highlight=self.highlight.get(inst.name),
            id_prefix=self.id_prefix,
        )
        self.lines.append(f"{indent}{style.quote(node_id)} {style.attrs(a)};")
        return node_id

    def _cluster(self, fusion, fused, depth: int, indent: str, sources: list) -> str | None:
        """A fusion as a cluster; returns the node that carries its result (the fused root)."""
        a = style.cluster_attrs(fusion, fused.name, self.id_prefix, self.highlight.get(fusion.name))
        self.lines.append(f"{indent}subgraph {style.quote('cluster_' + fusion.name)} {{")
        self.lines.extend(f"{indent}  {k}={style.quote(str(v))};" for k, v in a.items())
        inner = self.computation(fused, depth + 1, sources, scope=fusion.name)
        self.lines.append(f"{indent}}}")
        return inner.get(fused.root)

    def _operand_edges(self, inst, comp, src: dict[str, str | _Copy | None], indent: str) -> None:
        """One edge per operand, from the node holding the operand's value, labelled with its shape."""
        head = src.get(inst.name)
        assert not isinstance(head, _Copy), "computation() draws no edges into a shared leaf"
        for op in inst.operands:
            tail = src.get(op)
            if tail is None or head is None:
                continue
            if isinstance(tail, _Copy):
                tail = self._copy(tail, head, indent)
            shape = style.short_shape(comp[op].shape) if op in comp else ""
            a = {"tooltip": f"{op} -> {inst.name}: {shape}", "class": "hlo-edge"}
            if self.edge_labels and shape:
                a["xlabel"] = shape  # placed after layout: ~4x faster than `label`
            self.edges.append(f"  {style.quote(tail)} -> {style.quote(head)} {style.attrs(a)};")

    def _copy(self, copy: _Copy, user_node: str, indent: str) -> str:
        """A private copy of a shared constant or broadcast next to one of its users."""
        node_id = f"{user_node}/{copy.inst.name}"
        if node_id not in self.used:
            self.used.add(node_id)
            a = style.node_attrs(
                copy.inst,
                node_id,
                is_root=False,
                highlight=self.highlight.get(copy.inst.name),
                id_prefix=self.id_prefix,
            )
            a["label"] += f"\n(shared by {copy.users})"
            a["class"] += " hlo-copy"
            a["fontsize"] = "8"
            self.lines.append(f"{indent}{style.quote(node_id)} {style.attrs(a)};")
        return node_id

    def rejected(self, decisions) -> None:
        """Dashed red edges for fusions a pass considered and refused, with its reason."""
        seen = set()
        for producer, consumer, reason in _rejections(decisions):
            tail, head = self.source.get(producer), self.source.get(consumer)
            if not isinstance(tail, str) or not isinstance(head, str) or tail == head or (tail, head) in seen:
                continue
            seen.add((tail, head))
            a = {"tooltip": f"not fused: {producer} -> {consumer}: {reason}", "class": "hlo-rejected"}
            a.update(style.REJECTED_EDGE)
            self.edges.append(f"  {style.quote(tail)} -> {style.quote(head)} {style.attrs(a)};")

    def text(self, title: str) -> str:
        head = f"digraph {style.quote(title)} {{\n{GRAPH_HEADER}\n"
        return head + "\n".join(self.lines + self.edges) + "\n}\n"


@dataclass(frozen=True)
class _Copy:
    """A shared leaf drawn once per user (see `_shared_leaves`)."""

    inst: Instruction
    users: int


def _shared_leaves(comp, broadcast_parameters: bool) -> tuple[set, set]:
    """Constants, iotas and broadcasts of those (or of a parameter) with more than
    SHARED_USERS users: drawn once per user, because edges from one node to users all over
    the graph are what makes Graphviz slow (a 81-node graph: 3.2 s -> 0.2 s) and hard to
    read. Also returns the constants that only feed such broadcasts: not drawn at all.
    Inside a fusion a parameter is an input edge worth keeping, so broadcast_parameters=False."""
    shared = set()
    for inst in comp:
        if (
            len(comp.users(inst.name)) > SHARED_USERS
            and inst.name != comp.root
            and _is_leafish(inst, comp, broadcast_parameters)
        ):
            shared.add(inst.name)
    folded = {
        inst.name
        for inst in comp
        if inst.opcode in LEAF_OPCODES
        and inst.name not in shared
        and comp.users(inst.name)
        and inst.name != comp.root
        and all(u in shared for u in comp.users(inst.name))
    }
    return shared, folded


def _is_leafish(inst, comp, broadcast_parameters: bool) -> bool:
    if inst.opcode in LEAF_OPCODES:
        return True
    if inst.opcode == "broadcast" and len(inst.operands) == 1 and inst.operands[0] in comp:
        sources = LEAF_OPCODES + (("parameter",) if broadcast_parameters else ())
        return comp[inst.operands[0]].opcode in sources
    return False


def _rejections(decisions):
    """(producer, consumer, reason) from Decisions with accepted=False, or from plain tuples."""
    for d in decisions:
        if isinstance(d, tuple):
            yield d[0], d[1], (d[2] if len(d) > 2 else "")
        elif not getattr(d, "accepted", True) and getattr(d, "target", None):
            yield d.subject, d.target, d.reason
