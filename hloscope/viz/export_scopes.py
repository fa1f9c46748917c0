"""The HTML page's Graph panel for a module with name scopes: open and close scopes, search.

The page has no Graphviz, so every view a click can ask for is laid out at export time, and
they are few: the first view, and for each scope the first view with that one scope toggled
(opened with its parents, or closed if the first view has it open). A click on a closed
scope opens it, a click on an open scope's box closes it, both relative to the first view;
the search box finds a scope or an instruction and shows the view where it is drawn. A
Jupyter explorer has no such limit: it lays out whatever set of scopes is open.

Bounded like the stepper: at most MAX_VIEWS toggle views (closed scopes drawn in the first
view first, then open ones, bigger first), laid out in parallel within the export's layout
budget, and at most MAX_CHARS of SVG in all; a click on a scope whose view did not make it
says so and shows the first view.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from .graph_scopes import drawing_tree, first_view, light, scoped_dot
from .layout import render_many
from .name_scopes import scope_key
from .scope_view import closed_view, open_view

MAX_VIEWS = 48
MAX_CHARS = 4_000_000  # of SVG in toggle views (~300 kB each for a 150-node view): keeps the page mailable
TEMPLATE_PREFIX = "sv"


@dataclass(frozen=True)
class ScopeViews:
    """The `<template>`s of the toggle views and the JSON index the page's script reads."""

    templates_html: str
    index_json: str


def build_scope_views(module, *, timeout: float, budget: float, max_nodes: int,
                      max_views: int = MAX_VIEWS) -> ScopeViews | None:
    """Toggle views and search index of `module`'s ENTRY; None when it has no scopes."""
    comp = module.entry_computation
    tree = drawing_tree(module, comp, max_nodes)
    base = first_view(module, tree, max_nodes) if tree.has_scopes else None
    if base is None:
        return None
    paths = _by_reach(tree, base)[:max_views]
    jobs, quick = [], light(module, tree)
    for i, path in enumerate(paths):
        opening = path not in base.expanded
        view = open_view(module, tree, base, path, max_nodes, quick) if opening else closed_view(tree, base, path)
        if view is not None:
            tid = f"{TEMPLATE_PREFIX}{i}"
            dot, _ = scoped_dot(module, comp, tree, view, id_prefix=tid + "-")
            jobs.append((tid, path, "open" if opening else "close", dot))
    results = render_many([dot for *_, dot in jobs], timeout, budget=budget)
    templates, views, chars = [], {}, 0
    for (tid, path, kind, _), result in zip(jobs, results):
        if result.ok and result.svg is not None and chars + len(result.svg) <= MAX_CHARS:
            chars += len(result.svg)
            templates.append(f'<template id="{tid}">{result.svg}</template>')
            views[scope_key(path)] = [tid, kind]
    index = {
        "views": views,
        "open": sorted(scope_key(p) for p in base.expanded),
        "scopes": {scope_key(p): s.size for p, s in tree.scopes.items() if p},
        "instructions": {name: scope_key(path) for name, path in tree.path_of.items()},
    }
    return ScopeViews("".join(templates), _script_json(index))


def _by_reach(tree, base) -> list:
    """Scopes in the order a reader reaches them: closed ones drawn in the first view (to
    open), then open ones (to close), then the rest; bigger first, then in program order."""
    order = {p: i for i, p in enumerate(tree.scopes)}

    def rank(p):
        group = 1 if p in base.expanded else 0 if base.is_open(p[:-1]) else 2
        return (group, -tree.scopes[p].size, order[p])

    return sorted((p for p in tree.scopes if p), key=rank)


def _script_json(value) -> str:
    """JSON safe inside a `<script type="application/json">` (no `</script>` can end it)."""
    return json.dumps(value, separators=(",", ":")).replace("</", "<\\/")


def scope_controls_html(views: ScopeViews) -> str:
    """The search box, the note on clicking, and the index for the page's script."""
    return (
        '<div class="scope-controls"><input type="search" id="graph-search" placeholder="find a scope or '
        'instruction" autocomplete="off"><button type="button" id="graph-first-view">first view</button>'
        '<span id="graph-view-note">click a scope to open it, an open scope\'s box to close it</span></div>'
        '<div id="graph-search-results"></div>'
        f'<script type="application/json" id="scope-index">{views.index_json}</script>'
        f"{views.templates_html}"
    )

