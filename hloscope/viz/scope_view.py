"""Which scopes a graph shows open: the first view of a big module, and a view opened to one scope.

    view = default_view(module, tree, max_nodes=250)    # largest scopes opened while it fits
    view = open_view(module, tree, view, path, 250)      # `path` and its parents opened too
    n = visible_nodes(module, tree, view)
    find(tree, "attn"), view_showing(...)                 # search, and the view that shows a hit

A closed scope is one node (its name and counts); an open one is a box holding its own
instructions and its child scopes. The first view opens scopes breadth first, biggest first,
as long as the graph stays within `max_nodes` (so a small module is drawn whole, and a
5,000-instruction one shows its top-level scopes); with fusions drawn as clusters if that
fits, else as single nodes. The `(parameters)` group stays closed: the model is more telling.
Counting is linear: each scope's own node count is summed once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .graph import _fused_computation, _size, computation_of
from .name_scopes import PARAMETERS, TOP, Path, ScopeTree, scope_key


MAX_OPEN = 64  # open scopes in a first view (Graphviz clusters): 40 lay out in 0.1 s, so a safety bound


@dataclass(frozen=True)
class ScopeView:
    """The open scopes (every parent of an open scope is open too) and how fusions are drawn."""

    expanded: frozenset[Path]
    collapse_fusions: bool

    def is_open(self, path: Path) -> bool:
        return not path or path in self.expanded


def own_nodes(module, tree: ScopeTree, collapse_fusions: bool) -> dict[Path, int]:
    """Nodes each scope draws for its own instructions when open (a fusion as a cluster
    counts its fused instructions, parameters excluded, unless fusions are collapsed)."""
    comp = computation_of(module, tree.computation)
    counts = dict.fromkeys(tree.scopes, 0)
    for inst in comp:
        counts[tree.path_of[inst.name]] += _nodes(module, inst, collapse_fusions)
    return counts


def _nodes(module, inst, collapse_fusions: bool) -> int:
    """Nodes one instruction draws: 1, or a fusion cluster's fused instructions."""
    fused = None if collapse_fusions else _fused_computation(module, inst)
    return 1 if fused is None else _size(module, fused, False, 1) - len(fused.parameters)


def visible_nodes(module, tree: ScopeTree, view: ScopeView) -> int:
    """How many nodes `view` draws: own nodes of every open scope plus one per closed box."""
    own = own_nodes(module, tree, view.collapse_fusions)
    return _count(tree, view.expanded, own)


def _count(tree: ScopeTree, expanded, own: dict[Path, int]) -> int:
    total, stack = 0, [TOP]
    while stack:
        path = stack.pop()
        total += own[path]
        for child in tree.scopes[path].children:
            if child in expanded:
                stack.append(child)
            else:
                total += 1
    return total


def default_view(module, tree: ScopeTree, max_nodes: int, max_open: int = MAX_OPEN) -> ScopeView | None:
    """The first view (see the module docstring); None when even the top level is too big."""
    for collapse in (False, True):
        own = own_nodes(module, tree, collapse)
        total = own[TOP] + len(tree.scopes[TOP].children)
        if total > max_nodes:
            continue
        expanded: set[Path] = set()
        queue = _biggest_first(tree, tree.scopes[TOP].children)
        for path in queue:  # grows while iterating: breadth first
            cost = own[path] + len(tree.scopes[path].children) - 1
            if total + cost <= max_nodes and len(expanded) < max_open and path != PARAMETERS:
                expanded.add(path)
                total += cost
                queue.extend(_biggest_first(tree, tree.scopes[path].children))
        return ScopeView(frozenset(expanded), collapse)
    return None


def _biggest_first(tree: ScopeTree, paths) -> list[Path]:
    return sorted(paths, key=lambda p: -tree.scopes[p].size)


def open_view(module, tree: ScopeTree, base: ScopeView, path: Path, max_nodes: int,
              light: Callable[[ScopeView], bool] | None = None) -> ScopeView | None:
    """`base` with `path` and its parents opened; if that is too big, only that line of
    scopes open, then also fusions collapsed; None if even that does not fit.
    light: a further test a view should pass (few edges: quick to lay out); the last view
    that fits in `max_nodes` is taken even if it fails it."""
    line = frozenset(tree.ancestors(path)) | ({path} if path else frozenset())
    fitting = None
    for view in (
        ScopeView(base.expanded | line, base.collapse_fusions),
        ScopeView(line, base.collapse_fusions),
        ScopeView(line, True),
    ):
        if visible_nodes(module, tree, view) <= max_nodes:
            fitting = view
            if light is None or light(view):
                return view
    return fitting


def closed_view(tree: ScopeTree, base: ScopeView, path: Path) -> ScopeView:
    """`base` with `path` and everything under it closed."""
    n = len(path)
    return ScopeView(frozenset(p for p in base.expanded if p[:n] != path), base.collapse_fusions)


def find(tree: ScopeTree, query: str, limit: int = 50) -> list[tuple[str, str]]:
    """("scope", key) and ("instruction", name) pairs whose name holds `query` (any case):
    scopes first, in program order; at most `limit`."""
    q = query.strip().lower()
    if not q:
        return []
    hits = [("scope", scope_key(p)) for p in tree.scopes if p and q in scope_key(p).lower()]
    hits += [("instruction", name) for name in tree.path_of if q in name.lower()]
    return hits[:limit]


def view_showing(module, tree: ScopeTree, base: ScopeView, kind: str, name: str, max_nodes: int,
                 light: Callable[[ScopeView], bool] | None = None) -> ScopeView | None:
    """`base`, or `base` with scopes opened so that the scope (kind "scope", by key) or the
    instruction (kind "instruction") is drawn; None if that view does not fit."""
    if kind == "scope":
        path = tuple(name.split("/")) if name else TOP
        where = path[:-1]
    else:
        where = tree.path_of[name]
    if all(base.is_open(where[:i]) for i in range(len(where) + 1)):
        return base
    return open_view(module, tree, base, where, max_nodes, light)
