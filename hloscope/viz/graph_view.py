"""A computation's graph as an HTML block that always shows something useful.

    graph_html(module)            the SVG if it can be laid out in time,
                                  else a summary (opcode and fusion counts) + the HLO text

This is the whole decision chain in one place: fit to `max_nodes` (collapse fusions, then
summarise), lay out with a timeout (hloscope.viz.render), and fall back with a message.
It never raises for a large or tangled graph and never hangs.
"""

from __future__ import annotations

import html

from ..ir.printer import format_computation
from .graph import computation_of, module_to_dot, plan_graph
from .graph_scopes import scoped_graph
from .hlo_html import hlo_block
from .layout import render_svg
from .render import DEFAULT_TIMEOUT, RenderResult
from .summary import computation_summary, summary_html
from .theme import style_block

FALLBACK_TEXT_LINES = 300

GRAPH_CSS = """
.hloscope .hs-graph svg { max-width: 100%; height: auto; }
.hloscope .hs-graph .hlo-node { cursor: pointer; }
.hloscope .hs-graph-note { font-size: 12px; color: #57606a; margin: 2px 0; }
"""


def svg_block(result: RenderResult, note: str = "") -> str:
    """The laid-out SVG in a scrollable container, with how it was made."""
    info = f"{note}{'; ' if note else ''}laid out by {result.engine} in {result.seconds:.2f} s"
    return (
        f'<div class="hs-graph-note">{html.escape(info)}</div>'
        f'<div class="hs-graph hs-scroll" data-engine="{result.engine}">{result.svg}</div>'
    )


def fallback_html(module, computation=None, message: str = "") -> str:
    """Opcode/fusion counts and the computation's HLO text, with `message` saying why."""
    comp = computation_of(module, computation)
    text = format_computation(comp, is_entry=comp.name == module.entry)
    return summary_html(computation_summary(module, comp), message) + hlo_block(
        text, header=f"HLO of {comp.name}", max_lines=FALLBACK_TEXT_LINES
    )


def graph_html(
    module,
    computation=None,
    *,
    timeout: float = DEFAULT_TIMEOUT,
    collapse_fusions: bool = False,
    highlight: dict | None = None,
    rejected_fusions=(),
    max_nodes: int = 250,
    id_prefix: str = "",
    with_style: bool = True,
    scopes: bool = True,
    expanded=(),
) -> str:
    """The graph of one computation (default: the ENTRY) as self-contained HTML: grouped by
    the model's name scopes when its metadata has them (`expanded`: scope paths to open,
    e.g. [("forward", "block")]; scopes=False draws it flat)."""
    scoped = None
    if scopes and not collapse_fusions:
        scoped = scoped_graph(module, computation, expanded=expanded, highlight=highlight,
                              rejected_fusions=rejected_fusions, max_nodes=max_nodes, id_prefix=id_prefix)
    if scoped is not None:
        body = _laid_out(module, computation, scoped.dot, scoped.note, timeout)
    else:
        body = _flat_body(module, computation, collapse_fusions, highlight, rejected_fusions, max_nodes,
                          id_prefix, timeout)
    style = style_block() + f"<style>{GRAPH_CSS}</style>" if with_style else ""
    return f'<div class="hloscope hs-graph-view">{style}{body}</div>'


def _flat_body(module, computation, collapse_fusions, highlight, rejected_fusions, max_nodes, id_prefix,
               timeout) -> str:
    """The ungrouped graph: fusions as clusters, collapsed to fit, or a summary."""
    mode, n = plan_graph(module, computation, collapse_fusions=collapse_fusions, max_nodes=max_nodes)
    if mode == "summary":
        message = f"{n} nodes even with fusions collapsed (more than max_nodes={max_nodes}): showing a summary"
        return fallback_html(module, computation, message)
    dot = module_to_dot(module, computation, collapse_fusions=collapse_fusions, highlight=highlight,
                        rejected_fusions=rejected_fusions, max_nodes=max_nodes, id_prefix=id_prefix)
    note = f"{n} nodes" + (", fusions collapsed to fit" if mode == "collapsed" and not collapse_fusions else "")
    return _laid_out(module, computation, dot, note, timeout)


def _laid_out(module, computation, dot: str | None, note: str, timeout: float) -> str:
    """The SVG of `dot`, or the summary and HLO text when there is none (saying why)."""
    if dot is None:
        return fallback_html(module, computation, note)
    result = render_svg(dot, timeout)
    return svg_block(result, note) if result.ok else fallback_html(module, computation, result.message)
