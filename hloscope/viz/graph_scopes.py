"""The graph of a computation grouped by the model's name scopes, as Graphviz DOT.

    g = scoped_graph(module)                          # None: no op_name scopes to group by
    g.dot, g.note, g.view                             # DOT (None: summary), what it shows
    scoped_graph(module, expanded={("forward",)})     # these scopes open (parents opened too)

A closed scope is one node, `class="hlo-scope"`, named `scope:<key>` (its SVG `<g>` gets
`data-scope="<key>"`), labelled with its name and how many instructions and fusions it holds;
the edges into and out of it are merged, one per neighbour, labelled with how many values they
carry. An open scope is a cluster (`cluster_scope:<key>`) holding its own instructions and its
child scopes; fusions stay clusters inside it. Diff highlighting (`highlight`) marks a closed
scope that holds highlighted instructions, and its label counts them (+added -removed ~changed).

A fusion sits in the common scope of what it fused; when fusions across scopes leave more at
the top level than can be drawn, they are placed by their own op_name (their root's) instead,
and the note says so (`drawing_tree`). The first view is kept small in nodes and in edges,
which is what Graphviz's time depends on (`first_view`).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

from ..ir.memo import per_value
from . import dot_style as style
from .graph import EDGE_LABEL_LIMIT, _Copy, _DotBuilder, _fused_computation, _invert, _shared_leaves, computation_of
from .name_scopes import TOP, Path, ScopeTree, scope_key, scope_tree
from .scope_view import ScopeView, default_view, open_view, visible_nodes

SCOPE_NODE = "scope:"
SCOPE_CLUSTER = "cluster_scope:"
SCOPE_FILL = "#f4f0ff"
SCOPE_BORDER = "#8250df"
FIRST_VIEW_NODES = 120  # lays out in well under a second (150 took 2 s for XLA's GPT-2 step)
FIRST_VIEW_EDGES = 300  # edges between boxes cost Graphviz more than nodes do
MIN_FIRST_VIEW_NODES = 40  # below this, fewer edges are not worth a less telling graph
MARKS = (("added", "+"), ("removed", "-"), ("changed", "~"))


@dataclass(frozen=True)
class ScopedGraph:
    """A scoped drawing: the DOT (None when even the top level is too big), the view it
    draws, a note for the reader, and how many nodes it has."""

    dot: str | None
    view: ScopeView | None
    note: str
    nodes: int
    tree: ScopeTree


def scoped_graph(
    module,
    computation=None,
    *,
    view: ScopeView | None = None,
    expanded=(),
    highlight: dict | None = None,
    rejected_fusions=(),
    max_nodes: int = 250,
    id_prefix: str = "",
) -> ScopedGraph | None:
    """The computation's graph grouped by scopes, or None when it has none (draw it flat).
    view: which scopes are open (default: `first_view`); expanded: scope paths to open on
    top of that (their parents too)."""
    comp = computation_of(module, computation)
    tree = drawing_tree(module, comp, max_nodes)
    if not tree.has_scopes:
        return None
    view = view or first_view(module, tree, max_nodes)
    for path in expanded:
        view = view and open_view(module, tree, view, tuple(path), max_nodes, light(module, tree))
    if view is None:
        note = f"even the top level of its {len(tree.scopes) - 1} scopes is more than {max_nodes} nodes: summary"
        return ScopedGraph(None, None, note, 0, tree)
    dot, n = scoped_dot(module, comp, tree, view, highlight=highlight, rejected_fusions=rejected_fusions,
                        id_prefix=id_prefix)
    return ScopedGraph(dot, view, view_note(tree, view, n), n, tree)


def drawing_tree(module, comp, max_nodes: int = 250) -> ScopeTree:
    """The scopes a graph is drawn with: fusions in the common scope of what they fused, or,
    when such fusions across scopes leave too much at the top level to draw, by their root."""
    tree = scope_tree(module, comp)
    if not tree.has_scopes or default_view(module, tree, max_nodes) is not None:
        return tree
    return scope_tree(module, comp, True)


def first_view(module, tree: ScopeTree, max_nodes: int = 250) -> ScopeView | None:
    """The view a graph opens with: at most FIRST_VIEW_NODES nodes and FIRST_VIEW_EDGES
    edges (quick to lay out: a fused GPT-2 stack's 120 nodes and 487 edges in 27 boxes took
    Graphviz 5 s, its 67 nodes and 243 edges 0.5 s),
    opening fewer scopes until both fit; up to `max_nodes` when the top level alone needs more."""
    comp = computation_of(module, tree.computation)
    return _first_view(module, comp, tree.fusions_by_root, max_nodes)


@per_value
def _first_view(module, comp, fusions_by_root: bool, max_nodes: int) -> ScopeView | None:
    tree = scope_tree(module, comp, fusions_by_root)
    budget = min(max_nodes, FIRST_VIEW_NODES)
    view = default_view(module, tree, budget)
    if view is None:
        return default_view(module, tree, max_nodes)
    while budget > MIN_FIRST_VIEW_NODES and _edge_count(module, comp, tree, view) > FIRST_VIEW_EDGES:
        budget = budget * 3 // 4
        smaller = default_view(module, tree, budget)
        if smaller is None:
            break
        view = smaller
    return view


def light(module, tree: ScopeTree):
    """The test `open_view` puts a view to: at most FIRST_VIEW_EDGES edges (else it prefers
    closing the other open scopes: a reader waiting seconds for a click is worse)."""
    comp = computation_of(module, tree.computation)
    return lambda view: _edge_count(module, comp, tree, view) <= FIRST_VIEW_EDGES


def _edge_count(module, comp, tree: ScopeTree, view: ScopeView) -> int:
    builder = _ScopedBuilder(module, {}, "", view.collapse_fusions, False)
    builder.scoped(comp, tree, view)
    return len(builder.edges)


def view_note(tree: ScopeTree, view: ScopeView, nodes: int) -> str:
    closed = sum(1 for p in tree.scopes if p and p not in view.expanded and view.is_open(p[:-1]))
    return (
        f"{nodes} nodes, grouped by {len(tree.scopes) - 1} name scopes ({closed} closed)"
        + (", fusions collapsed to fit" if view.collapse_fusions else "")
        + (", fusions placed by their root's scope to fit" if tree.fusions_by_root else "")
    )


def scoped_dot(module, comp, tree: ScopeTree, view: ScopeView, *, highlight=None, rejected_fusions=(),
               id_prefix: str = "") -> tuple[str, int]:
    """(DOT text, node count) of `comp` drawn as `view` says."""
    n = visible_nodes(module, tree, view)
    builder = _ScopedBuilder(module, _invert(highlight), id_prefix, view.collapse_fusions, n <= EDGE_LABEL_LIMIT)
    builder.scoped(comp, tree, view)
    builder.rejected(rejected_fusions)
    closed = "" if not builder.boxes else f" ({len(builder.boxes)} scopes closed)"
    return builder.text(comp.name + closed), n


def closed_box(path: Path, view: ScopeView) -> Path | None:
    """The outermost closed scope on `path` (where its instruction is drawn), or None."""
    for i in range(1, len(path) + 1):
        if path[:i] not in view.expanded:
            return path[:i]
    return None


@dataclass
class _ScopedBuilder(_DotBuilder):
    """graph._DotBuilder, with the top computation's nodes sorted into scope buckets and the
    instructions of closed scopes replaced by one node each."""

    buckets: dict = field(default_factory=dict)  # open scope path -> its DOT lines
    boxes: dict = field(default_factory=dict)  # closed scope path -> Counter of highlight kinds
    bucket_of: dict = field(default_factory=dict)  # node id -> the lines it was written to

    def scoped(self, comp, tree: ScopeTree, view: ScopeView) -> None:
        src: dict = {}
        clusters = set()
        shared, folded = _shared_leaves(comp, broadcast_parameters=True)
        for inst in comp:
            if inst.name in shared or inst.name in folded:
                src[inst.name] = _Copy(inst, len(comp.users(inst.name))) if inst.name in shared else None
                continue
            box = closed_box(tree.path_of[inst.name], view)
            if box is not None:
                src[inst.name] = self._box(box, inst.name)
                self.source.setdefault(inst.name, src[inst.name])
                continue
            self.lines = self.buckets.setdefault(tree.path_of[inst.name], [])
            fused = None if self.collapse else _fused_computation(self.module, inst)
            if fused is not None:
                src[inst.name] = self._cluster(inst, fused, 0, "  ", [src.get(o) for o in inst.operands])
                clusters.add(inst.name)
            else:
                src[inst.name] = self._node(inst, comp, "  ", "")
            self.bucket_of[src[inst.name]] = self.lines
            self.source.setdefault(inst.name, src[inst.name])
        self._edges(comp, src, clusters)
        self.lines = self._scope_lines(tree, view, TOP)

    def _box(self, path: Path, member: str) -> str:
        marks = self.boxes.setdefault(path, Counter())
        kind = self.highlight.get(member)
        if kind:
            marks[kind] += 1
        return SCOPE_NODE + scope_key(path)

    def _edges(self, comp, src: dict, clusters: set) -> None:
        """Edges between instructions as in graph.py; edges touching a closed scope merged."""
        merged: Counter = Counter()
        for inst in comp:
            head = src.get(inst.name)
            if inst.name in clusters or inst.opcode == "parameter" or head is None or isinstance(head, _Copy):
                continue
            if not head.startswith(SCOPE_NODE):
                self.lines = self.bucket_of[head]
                self._operand_edges(inst, comp, src, "  ")
                continue
            for op in inst.operands:
                tail = src.get(op)
                if isinstance(tail, str) and tail != head:
                    merged[(tail, head)] += 1
        self.edges.extend(_merged_edge(tail, head, n, self.edge_labels) for (tail, head), n in merged.items())

    def _scope_lines(self, tree: ScopeTree, view: ScopeView, path: Path) -> list[str]:
        """The lines of an open scope: its own nodes, then each child as a node or a cluster."""
        out = list(self.buckets.get(path, ()))
        for child in tree.scopes[path].children:
            if child in self.boxes:
                out.append(_box_line(tree, child, self.boxes[child], self.id_prefix))
            elif child in view.expanded:
                a = _cluster_attrs(tree, child, self.id_prefix)
                out.append(f"subgraph {style.quote(SCOPE_CLUSTER + scope_key(child))} {{")
                out.extend(f"  {k}={style.quote(str(v))};" for k, v in a.items())
                out.extend(self._scope_lines(tree, view, child))
                out.append("}")
        return out


def _counts(tree: ScopeTree, path: Path) -> str:
    s = tree.scopes[path]
    return f"{s.size} instructions" + (f", {s.fusions} fusions" if s.fusions else "")


def _box_line(tree: ScopeTree, path: Path, marks: Counter, id_prefix: str) -> str:
    key = scope_key(path)
    label = f"{tree.scopes[path].name}\n{_counts(tree, path)}"
    changes = " ".join(f"{sign}{marks[kind]}" for kind, sign in MARKS if marks[kind])
    a = {
        "label": label + (f"\n{changes}" if changes else ""),
        "id": f"{id_prefix}{SCOPE_NODE}{key}",
        "class": "hlo-scope" + (f" hl-{_kind(marks)}" if marks else ""),
        "shape": "folder",
        "fillcolor": SCOPE_FILL,
        "color": SCOPE_BORDER,
        "penwidth": "1.5",
        "tooltip": f"scope {key}: {_counts(tree, path)} (closed)",
    }
    if marks:
        a.update(style.HIGHLIGHT[_kind(marks)])
        a["style"] = "filled"
    return f"  {style.quote(SCOPE_NODE + key)} {style.attrs(a)};"


def _kind(marks: Counter) -> str:
    """One highlight for a scope: the only kind in it, else "changed"."""
    kinds = [k for k, _ in MARKS if marks[k]]
    return kinds[0] if len(kinds) == 1 else "changed"


def _cluster_attrs(tree: ScopeTree, path: Path, id_prefix: str) -> dict:
    key = scope_key(path)
    return {
        "label": f"{tree.scopes[path].name} ({_counts(tree, path)})",
        "labeljust": "l",
        "id": f"{id_prefix}{SCOPE_CLUSTER}{key}",
        "class": "hlo-scope-box",
        "style": "rounded,dashed",
        "color": SCOPE_BORDER,
        "fontcolor": SCOPE_BORDER,
        "tooltip": f"scope {key} (open)",
    }


def _merged_edge(tail: str, head: str, n: int, labels: bool) -> str:
    a = {
        "tooltip": f"{n} value{'s' if n > 1 else ''}: {tail} -> {head}",
        "class": "hlo-edge hlo-scope-edge",
        "penwidth": f"{min(1 + math.log2(n), 4):.2g}",
    }
    if labels and n > 1:
        a["xlabel"] = f"x{n}"
    return f"  {style.quote(tail)} -> {style.quote(head)} {style.attrs(a)};"
