"""An auto-clustered call as self-contained HTML files: one page for the program, one per
cluster (the usual compilation page, hloscope.viz.export), linked from the first.

    record.save_html("solve.html")     # solve.html, solve.cluster_0.html, solve.cluster_1.html

The program page has the clusters and host nodes with their timings and reasons, and the
graph as traced and after each pass, laid out at export time, with each pass's decisions.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import TYPE_CHECKING

from .autocluster import decisions_table, program_dot, record_html
from .export import save_html
from .graph_view import GRAPH_CSS, svg_block
from .layout import render_many
from .theme import CSS as THEME_CSS

if TYPE_CHECKING:
    from ..autocluster.record import AutoClusterRecord


def autocluster_page(record: "AutoClusterRecord", cluster_pages: dict[str, str] | None = None,
                     timeout: float = 3.0, budget: float = 30.0) -> str:
    """The program page as a string; `cluster_pages` maps a cluster to its page's file name."""
    graphs = record.graphs()
    layouts = render_many([program_dot(g) for _, g in graphs], timeout=timeout, budget=budget)
    decisions = {f"after {p.name}": p for p in record.passes}
    sections = []
    for (label, graph), result in zip(graphs, layouts):
        body = svg_block(result, f"{len(graph.nodes)} nodes") if result.ok else \
            f"<p class='hs-note'>{html.escape(result.message)}</p><pre>{html.escape(graph.listing())}</pre>"
        chosen = decisions.get(label)
        sections.append(f"<section><h2>{html.escape(label)}</h2>{body}{decisions_table(chosen) if chosen else ''}</section>")
    links = "".join(f"<li><a href='{html.escape(page)}'>{html.escape(name)}: its compilation</a></li>"
                    for name, page in (cluster_pages or {}).items())
    title = f"autojit({record.fn_name})"
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f"<title>{html.escape(title)}</title><style>{THEME_CSS}{GRAPH_CSS}</style></head>\n"
            f"<body class='hloscope'>{record_html(record)}<ul>{links}</ul>{''.join(sections)}</body></html>\n")


def save_autocluster_html(path: str | Path, record: "AutoClusterRecord", timeout: float = 3.0) -> Path:
    """Write the program page to `path` and each compiled cluster's page beside it."""
    path = Path(path)
    pages = {}
    for name, stats in record.clusters.items():
        if stats.compilation is not None:
            page = path.with_name(f"{path.stem}.{name}.html")
            save_html(page, stats.compilation, title=f"{record.fn_name}: {name}", timeout=timeout)
            pages[name] = page.name
    path.write_text(autocluster_page(record, pages, timeout), encoding="utf-8")
    return path
