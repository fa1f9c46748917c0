"""The graphs the explorer shows, as DOT (for the layout service) and as HTML blocks.

    dots = step_dots(record, i)                       # before/after of one pass run
    html = graph_block(layouts, module, dot)          # SVG, or summary + HLO text and why

Both sides of a pass step are separate layouts: the before graph marks what the pass
removed or changed, the after graph what it added or changed, and for a fusion pass the
candidates it refused are dashed red edges (hover: the reason).
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from .diff import graph_diff
from .graph import module_to_dot, plan_graph
from .graph_scopes import ScopedGraph, scoped_graph
from .graph_view import GRAPH_CSS, fallback_html, svg_block
from .scope_view import ScopeView

MAX_NODES = 250
SELECT_CSS = (
    ".hs-explorer-graph g[data-instruction=\"{name}\"] polygon, "
    ".hs-explorer-graph g[data-instruction=\"{name}\"] ellipse, "
    ".hs-explorer-graph g[data-instruction=\"{name}\"] path {{ stroke: #0969da !important; stroke-width: 3px; }}"
)


@dataclass(frozen=True)
class GraphSpec:
    """A graph to draw: the module, its DOT (None when it is summarised) and a note."""

    module: object
    dot: str | None
    note: str
    scoped: ScopedGraph | None = None  # the scopes and open view, when grouped by them


def graph_spec(module, *, highlight=None, rejected=(), id_prefix: str = "", max_nodes: int = MAX_NODES,
               view: ScopeView | None = None) -> GraphSpec:
    """What to draw for `module`'s ENTRY: grouped by name scopes when it has them (`view`
    says which are open), else flat (fusions collapsed, or a summary, when it is big)."""
    scoped = scoped_graph(module, view=view, highlight=highlight, rejected_fusions=rejected, max_nodes=max_nodes,
                          id_prefix=id_prefix)
    if scoped is not None:
        return GraphSpec(module, scoped.dot, scoped.note, scoped)
    mode, n = plan_graph(module, max_nodes=max_nodes)
    if mode == "summary":
        return GraphSpec(module, None, f"{n} nodes even with fusions collapsed (limit {max_nodes}): summary")
    dot = module_to_dot(module, highlight=highlight, rejected_fusions=rejected, max_nodes=max_nodes,
                        id_prefix=id_prefix)
    return GraphSpec(module, dot, f"{n} nodes" + (", fusions collapsed to fit" if mode == "collapsed" else ""))


def rejections(record) -> tuple:
    """The (producer, consumer, reason) fusions a pass run considered and refused."""
    return tuple((d.subject, d.target, d.reason) for d in record.log if not d.accepted and d.target)


def step_specs(record, index: int) -> tuple[GraphSpec, GraphSpec | None]:
    """(before, after) graphs of pass run `index`; after is None when nothing changed."""
    if not record.changed:
        return graph_spec(record.before, id_prefix="b-"), None
    d = graph_diff(record.before, record.after)
    before = graph_spec(record.before, highlight={"removed": d.removed, "changed": d.changed},
                        id_prefix="b-")
    after = graph_spec(record.after, highlight={"added": d.added, "changed": d.changed},
                       rejected=rejections(record), id_prefix="a-")
    return before, after


def graph_block(layouts, spec: GraphSpec, selected: str | None = None, max_height: int = 900) -> str:
    """The spec laid out by `layouts` (a LayoutService): the SVG, or a summary with the HLO.
    A graph taller than `max_height` pixels scrolls inside its box."""
    if spec.dot is None:
        body = fallback_html(spec.module, None, spec.note)
    else:
        result = layouts.render(spec.dot)
        body = svg_block(result, spec.note) if result.ok else fallback_html(spec.module, None, result.message)
    css = GRAPH_CSS + f".hs-explorer-graph .hs-scroll {{ max-height: {max_height}px; }}"
    css += SELECT_CSS.format(name=_css_string(selected)) if selected else ""
    return f'<div class="hloscope hs-explorer-graph"><style>{css}</style>{body}</div>'


def _css_string(name: str) -> str:
    return html.escape(name).replace("\\", "\\\\").replace('"', '\\"')


def all_step_dots(records, indices):
    """DOT texts of the given pass runs, in order (for the layout prefetcher)."""
    for i in indices:
        for spec in step_specs(records[i], i):
            if spec is not None and spec.dot is not None:
                yield spec.dot
