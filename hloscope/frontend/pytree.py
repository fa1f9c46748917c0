"""Pytrees: nested tuples, lists, dicts (and None) of arrays, flattened to a list of leaves
and a hashable description of the nesting (`TreeDef`), as in JAX.

    leaves, tree = flatten({"w": w, "b": (b1, b2)})    # dict keys in sorted order
    unflatten(tree, leaves) == {"w": w, "b": (b1, b2)}

Named tuples keep their type. Anything else is a leaf.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable


@dataclass(frozen=True)
class TreeDef:
    """The nesting of a pytree: a node kind, its keys (dict) or type (namedtuple), children."""

    kind: str  # "leaf", "none", "tuple", "list", "dict", "namedtuple"
    children: tuple["TreeDef", ...] = ()
    keys: tuple = ()
    node_type: type | None = None

    @property
    def num_leaves(self) -> int:
        if self.kind == "leaf":
            return 1
        return sum(c.num_leaves for c in self.children)

    def __str__(self) -> str:
        if self.kind == "leaf":
            return "*"
        if self.kind == "none":
            return "None"
        inner = ", ".join(map(str, self.children))
        if self.kind == "dict":
            return "{" + ", ".join(f"{k!r}: {c}" for k, c in zip(self.keys, self.children)) + "}"
        return f"[{inner}]" if self.kind == "list" else f"({inner})"


LEAF = TreeDef("leaf")


def _node(x) -> tuple[str, list, tuple, type | None] | None:
    """(kind, children, keys, type) for a container, None for a leaf."""
    if x is None:
        return "none", [], (), None
    if isinstance(x, tuple) and hasattr(x, "_fields"):
        return "namedtuple", list(x), (), type(x)
    if type(x) is tuple:
        return "tuple", list(x), (), None
    if type(x) is list:
        return "list", list(x), (), None
    if type(x) is dict:
        keys = tuple(sorted(x, key=repr)) if not _sortable(x) else tuple(sorted(x))
        return "dict", [x[k] for k in keys], keys, None
    return None


def _sortable(d: dict) -> bool:
    try:
        sorted(d)
        return True
    except TypeError:
        return False


def flatten(tree) -> tuple[list, TreeDef]:
    """The leaves of `tree` in order, and its TreeDef."""
    leaves: list = []
    return leaves, _flatten(tree, leaves)


def _flatten(x, leaves: list) -> TreeDef:
    node = _node(x)
    if node is None:
        leaves.append(x)
        return LEAF
    kind, children, keys, node_type = node
    return TreeDef(kind, tuple(_flatten(c, leaves) for c in children), keys, node_type)


def unflatten(tree: TreeDef, leaves) -> Any:
    """Rebuild a pytree of `tree`'s shape from `leaves` (any iterable of the right length)."""
    it = iter(leaves)
    result = _build(tree, it)
    if next(it, _END) is not _END:
        raise ValueError(f"too many leaves for pytree {tree}")
    return result


_END = object()


def _build(tree: TreeDef, it):
    if tree.kind == "leaf":
        value = next(it, _END)
        if value is _END:
            raise ValueError("too few leaves for the pytree")
        return value
    children = [_build(c, it) for c in tree.children]
    if tree.kind == "none":
        return None
    if tree.kind == "dict":
        return dict(zip(tree.keys, children))
    if tree.node_type is not None:  # a named tuple: rebuilt as its own type
        return tree.node_type(*children)
    return children if tree.kind == "list" else tuple(children)


def tree_map(fn: Callable, tree):
    """Apply `fn` to every leaf."""
    leaves, treedef = flatten(tree)
    return unflatten(treedef, [fn(x) for x in leaves])


def leaf_paths(tree, prefix: str = "") -> list[str]:
    """A readable path per leaf (`params['w']`, `args[1][0]`), for parameter names and errors."""
    node = _node(tree)
    if node is None:
        return [prefix]
    kind, children, keys, _ = node
    labels = [f"[{k!r}]" for k in keys] if kind == "dict" else [f"[{i}]" for i in range(len(children))]
    if kind == "namedtuple":
        labels = [f".{f}" for f in tree._fields]
    return [p for label, c in zip(labels, children) for p in leaf_paths(c, prefix + label)]
