"""One self-contained HTML file for a whole compilation, and a deterministic text dump.

    save_html("softmax.html", hloscope.optimize(m))     # any Compilation: exe.report too
    dump_record("dump/", compilation)                   # hloscope.viz.dump

The page has six panels (Overview, Pass stepper, Graph, Memory, IR, Run), inline CSS and a
small vanilla script; nothing is fetched from the network, so it opens offline, attaches
to an issue, and survives being mailed around. Graph SVGs are laid out at export time
(bounded: see hloscope.viz.export_stepper).

Stable element ids for tests and front ends: #panel-overview, #panel-stepper,
#panel-graph, #panel-memory, #panel-ir, #panel-run (#panel-xla for a record compared with XLA, #panel-whatif for one with
what-if experiments), #pass-slider, #pass-prev, #pass-next,
#pass-changed-only, #pass-name, #pass-detail, #graph-before, #graph-after, #pass-diff,
#graph-final, and for a module with name scopes #graph-search, #graph-search-results,
#graph-first-view, #scope-index (hloscope.viz.export_scopes). Graph nodes carry
`data-instruction`, name-scope nodes and boxes `data-scope`.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import TYPE_CHECKING

from .diff import DIFF_CSS
from .dump import dump_record
from .export_assets import PAGE_CSS, PAGE_JS
from .export_panels import ir_panel, ir_texts, memory_panel, overview_panel, run_panel, vs_xla_panel, whatif_panel
from .export_scopes import ScopeViews, build_scope_views, scope_controls_html
from .export_stepper import build_stepper
from .graph_view import GRAPH_CSS
from .hlo_html import CSS as HLO_CSS
from .theme import CSS as THEME_CSS

if TYPE_CHECKING:  # the record is read, never imported: views sit below it
    from ..compilation.record import Compilation

__all__ = ["dump_record", "export_html", "save_html"]

PANELS = (
    ("overview", "Overview"),
    ("stepper", "Pass stepper"),
    ("graph", "Graph"),
    ("memory", "Memory"),
    ("ir", "IR"),
    ("run", "Run"),
)

LEGEND = (
    "<div class='legend'><span style='background:#c9f2c7'>added</span><span style='background:#ffd4d4'>"
    "removed</span><span style='background:#ffe8a3'>changed</span><span style='color:#cf222e'>"
    "- - - not fused (hover for why)</span></div>"
)


def save_html(
    path: str | Path,
    c: Compilation,
    *,
    title: str | None = None,
    timeout: float = 3.0,
    layout_budget: float = 60.0,
    max_nodes: int = 250,
) -> Path:
    """Write the page for compilation `c` to `path` (one file) and return the path."""
    text = export_html(c, title=title, timeout=timeout, layout_budget=layout_budget, max_nodes=max_nodes)
    path = Path(path)
    path.write_text(text, encoding="utf-8")
    return path


def export_html(
    c: Compilation,
    *,
    title: str | None = None,
    timeout: float = 3.0,
    layout_budget: float = 60.0,
    max_nodes: int = 250,
) -> str:
    """The page `save_html` writes, as a string."""
    title = title or (c.title if c.title != "hloscope" else "hloscope report")
    stepper, final = build_stepper(c.records, c.module, timeout=timeout, budget=layout_budget, max_nodes=max_nodes)
    scopes = None
    if c.module is not None:
        left = max(1.0, layout_budget - stepper.seconds)
        scopes = build_scope_views(c.module, timeout=timeout, budget=left, max_nodes=max_nodes)
    sections = {
        "overview": overview_panel(c, stepper.seconds),
        "stepper": _stepper_panel(c.records, stepper),
        "graph": _graph_panel(c.module, final, scopes),
        "memory": memory_panel(c.memory_plan, c.module),
        "ir": ir_panel(ir_texts(c)),
        "run": run_panel(c),
    }
    panels = PANELS + ((("xla", "vs XLA"),) if c.comparison is not None else ())  # as the explorer's tabs
    sections["xla"] = vs_xla_panel(c)
    panels += (("whatif", "What if"),) if c.experiments else ()  # experiments run from this record
    sections["whatif"] = whatif_panel(c)
    nav = "".join(f'<button type="button" data-panel="{key}">{label}</button>' for key, label in panels)
    body = "".join(
        f'<section class="panel" id="panel-{key}"><h2>{label}</h2>{sections[key]}</section>' for key, label in panels
    )
    css = THEME_CSS + HLO_CSS + DIFF_CSS + GRAPH_CSS + PAGE_CSS
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title><style>{css}</style></head>\n"
        f'<body class="hloscope"><header><h1>{html.escape(title)}</h1><nav>{nav}</nav></header>\n'
        f"{body}\n{stepper.templates_html()}\n<script>{PAGE_JS}</script></body></html>\n"
    )


def _stepper_panel(records, stepper) -> str:
    if not records:
        return "<p class='hs-empty'>no pass ran (pipeline \"none\"), or the record has none</p>"
    n = len(records)
    controls = (
        '<div class="controls"><button type="button" id="pass-prev" title="previous pass (left arrow)">&larr; prev'
        f'</button><input type="range" id="pass-slider" min="0" max="{n - 1}" value="0" step="1">'
        '<button type="button" id="pass-next" title="next pass (right arrow)">next &rarr;</button>'
        '<span id="pass-position"></span><label><input type="checkbox" id="pass-changed-only"> '
        'only passes that changed the module</label><button type="button" class="zoom">zoom</button></div>'
    )
    graphs = (
        '<div class="side-by-side"><div><h4>before</h4><div class="graph-box" id="graph-before"></div></div>'
        '<div><h4>after</h4><div class="graph-box" id="graph-after"></div></div></div>'
    )
    return (
        f'{controls}<div id="pass-name"></div><div id="pass-detail"></div>{LEGEND}<div id="selection"></div>'
        f'{graphs}<h4>HLO diff</h4><div id="pass-diff"></div><div id="steps" hidden>{stepper.steps_html}</div>'
    )


def _graph_panel(module, final, scopes: ScopeViews | None = None) -> str:
    if module is None or final is None:
        return "<p class='hs-empty'>no module given</p>"
    grouped = "; grouped by the model's name scopes" if scopes is not None else ""
    note = (f"<p>ENTRY <b>{html.escape(module.entry)}</b> of {html.escape(module.name)}; fusions drawn as "
            f"clusters{grouped}.</p>")
    controls = scope_controls_html(scopes) if scopes is not None else ""
    return (
        f'{note}{controls}<button type="button" class="zoom">zoom</button>'
        f'<div class="graph-box" id="graph-final" data-template="{final.template_id}">{final.html}</div>'
    )
