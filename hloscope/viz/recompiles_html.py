"""Why a function compiled again, as HTML: the table of a function's cache misses, and one
miss in full: its causes, how to avoid them, and the two programs' difference as a
highlighted HLO diff and as the new program's graph with what changed marked.

Plain functions from the miss records (hloscope/frontend/recompiles.py) to HTML, tested
without Jupyter and shown by the explorer's recompiles view (jupyter/panels/recompiles.py).
"""

from __future__ import annotations

import html
from typing import Any, Sequence

from .diff import graph_diff, text_diff_html
from .graph_view import graph_html
from .theme import style_block


def _where(miss: Any) -> str:
    source = miss.source
    return f"{source.short_file}:{source.line}" if source is not None else ""


def misses_html(misses: Sequence[Any]) -> str:
    """One row per compile: the call, where it was made, its signature, what changed, the advice."""
    if not misses:
        return style_block() + "<div class='hloscope'><p>no compiles yet: call the function</p></div>"
    rows = []
    for m in misses:
        causes = "first compile" if m.first else "<br>".join(html.escape(c) for c in m.causes)
        advice = "<br>".join(f"<span class='hs-note'>{html.escape(a)}</span>" for a in m.advice)
        rows.append(f"<tr class='{'unchanged' if m.first else 'rejected'}'><td class='num'>{m.call}</td>"
                    f"<td>{html.escape(_where(m))}</td><td><code>{html.escape(m.key.describe())}</code></td>"
                    f"<td>{causes}</td><td>{advice}</td><td class='num'>{m.seconds * 1e3:.0f} ms</td></tr>")
    again = sum(not m.first for m in misses)
    head = ("<tr><th class='num'>call</th><th>called at</th><th>signature</th><th>what changed</th>"
            "<th>how to avoid it</th><th class='num'>trace + compile</th></tr>")
    return (style_block() + f"<div class='hloscope'><h3>{html.escape(misses[0].function)}: "
            f"{len(misses)} compiles, {again} of them again</h3>"
            f"<div class='hs-scroll'><table class='hs-table'>{head}{''.join(rows)}</table></div></div>")


def miss_html(miss: Any, graph: bool = False) -> str:
    """One miss: its causes and advice, the HLO diff against the program it was compared with,
    and (graph=True) the new program's graph with added and changed instructions marked."""
    title = html.escape(miss.text().splitlines()[0])
    parts = [style_block(), "<div class='hloscope hs-miss'>", f"<h4>{title}</h4>"]
    if miss.advice:
        parts.append("<ul>" + "".join(f"<li>avoid: {html.escape(a)}</li>" for a in miss.advice) + "</ul>")
    before, after = miss.previous_module, miss.module
    if before is not None and after is not None:
        d = graph_diff(before, after)
        marks = d.highlight()
        parts.append(f"<p>against call {html.escape(miss.compared_with.describe())}: "
                     f"{len(marks.get('added', []))} instructions added, {len(marks.get('removed', []))} removed, "
                     f"{len(marks.get('changed', []))} changed</p>")
        parts.append(text_diff_html(before.to_text(), after.to_text(), context=2))
        if graph:
            parts.append(graph_html(after, highlight=marks, id_prefix=f"miss{miss.call}-"))
    parts.append("</div>")
    return "".join(parts)
