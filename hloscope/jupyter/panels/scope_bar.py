"""The Graph panel's name-scope controls: which scopes are open, and a search box.

A real model's graph is drawn grouped by its op_name scopes (hloscope.viz.graph_scopes),
closed scopes as single nodes. Here the reader picks a scope to open it (its parents open
too), closes it again, or goes back to the first view; the search box lists the scopes and
instructions whose names hold the text, and picking an instruction opens its scope and
selects it. Unlike the static HTML page, any set of scopes can be open: each view is laid
out when asked for.
"""

from __future__ import annotations

from collections.abc import Callable

import ipywidgets as w

from ...viz.graph import computation_of
from ...viz.graph_blocks import MAX_NODES
from ...viz.graph_scopes import drawing_tree, first_view, light
from ...viz.name_scopes import ScopeTree, scope_key
from ...viz.scope_view import ScopeView, closed_view, find, open_view, view_showing

MAX_CHOICES = 300  # a dropdown of every scope of a 5,000-instruction model is still quick


class ScopeBar:
    """Widgets and the open-scope state for one module; `on_change(view, instruction)` is
    called when the view changes (instruction: one to select, or None)."""

    def __init__(self, on_change: Callable[[ScopeView | None, str | None], None]):
        self.on_change = on_change
        self.module = None
        self.tree: ScopeTree | None = None
        self.base: ScopeView | None = None
        self.view: ScopeView | None = None
        self.search = w.Text(placeholder="find a scope or instruction", layout=w.Layout(width="240px"))
        self.pick = w.Dropdown(options=[("(scope)", None)], description="scope", layout=w.Layout(width="420px"))
        self.close_button = w.Button(description="close scope", layout=w.Layout(width="100px"))
        self.first_button = w.Button(description="first view", layout=w.Layout(width="90px"))
        self.note = w.HTML()
        self.widget = w.VBox([w.HBox([self.search, self.pick, self.close_button, self.first_button]), self.note],
                             layout=w.Layout(display="none"))
        self.search.observe(lambda _: self._list(), names="value")
        self.pick.observe(lambda _: self._picked(), names="value")
        self.close_button.on_click(lambda _: self._close())
        self.first_button.on_click(lambda _: self._set(self.base, None))

    def update(self, module) -> None:
        """A new module: its scopes, the first view, everything listed."""
        self.module = module
        self.tree = drawing_tree(module, computation_of(module, None), MAX_NODES)
        self.base = first_view(module, self.tree, MAX_NODES) if self.tree.has_scopes else None
        self.view = self.base
        self.widget.layout.display = "" if self.tree.has_scopes else "none"
        too_big = self.tree.has_scopes and self.base is None
        self.note.value = "<span style='color:#57606a'>even the top level is too big to draw</span>" if too_big else ""
        self._list()

    def _list(self) -> None:
        if self.tree is None:
            return
        query = self.search.value
        if query.strip():
            hits = find(self.tree, query, MAX_CHOICES)
        else:
            hits = [("scope", scope_key(p)) for p in list(self.tree.scopes)[1:MAX_CHOICES]]
        options = [(f"{len(hits)} found" if query.strip() else "(scope)", None)]
        options += [(self._label(kind, name, bool(query.strip())), (kind, name)) for kind, name in hits]
        with self.pick.hold_trait_notifications():
            self.pick.options = options
            self.pick.value = None

    def _label(self, kind: str, name: str, found: bool) -> str:
        """An instruction with its scope; a scope with its size, by its whole key among search
        results, else indented under its parent as in a tree."""
        assert self.tree is not None
        if kind == "instruction":
            return f"{name}  in {scope_key(self.tree.path_of[name]) or '(top level)'}"
        scope = self.tree.by_key(name)
        size = scope.size if scope else 0
        if found:
            return f"{name} ({size})"
        indent = "\u00a0\u00a0" * name.count("/")  # a <select> drops plain leading spaces
        return f"{indent}{scope.name if scope else name} ({size})"

    def _picked(self) -> None:
        """Open the picked scope (or the scope of the picked instruction, and select it)."""
        choice = self.pick.value
        if choice is None or self.tree is None or self.view is None:
            return
        kind, name = choice
        quick = light(self.module, self.tree)
        if kind == "scope":
            view = open_view(self.module, self.tree, self.view, tuple(name.split("/")), MAX_NODES, quick)
        else:
            view = view_showing(self.module, self.tree, self.view, kind, name, MAX_NODES, quick)
        if view is None:
            self.note.value = f"<span style='color:#cf222e'>{name}: too big to open within {MAX_NODES} nodes</span>"
            return
        self.note.value = ""
        self._set(view, name if kind == "instruction" else None)

    def _close(self) -> None:
        choice = self.pick.value
        if choice is None or choice[0] != "scope" or self.tree is None or self.view is None:
            return
        self._set(closed_view(self.tree, self.view, tuple(choice[1].split("/"))), None)

    def reveal(self, instruction: str) -> None:
        """Open what it takes to draw `instruction` (picked elsewhere); no callback."""
        if self.tree is not None and self.view is not None and instruction in self.tree.path_of:
            quick = light(self.module, self.tree)
            shown = view_showing(self.module, self.tree, self.view, "instruction", instruction, MAX_NODES, quick)
            self.view = shown or self.view

    def _set(self, view: ScopeView | None, instruction: str | None) -> None:
        self.view = view
        self.on_change(view, instruction)

