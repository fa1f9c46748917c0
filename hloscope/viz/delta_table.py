"""A what-if experiment's delta table (hloscope.whatif) as plain text and as HTML.

A row is (quantity, original, changed, change): the values already formatted, the change in
words ("+8, more", "x2.1 slower"). Views never import the experiment: they draw its rows.
"""

from __future__ import annotations

import html
from typing import Sequence

Row = tuple[str, str, str, str]
HEAD = ("", "original", "what if", "change")

CSS = """
.hloscope table.hs-delta { border-collapse: collapse; margin: 4px 0 8px 0; }
.hloscope table.hs-delta td, .hloscope table.hs-delta th { padding: 2px 10px; border-bottom: 1px solid #d0d7de; }
.hloscope table.hs-delta td.num { text-align: right; font-variant-numeric: tabular-nums; }
.hloscope table.hs-delta td.worse { color: #cf222e; }
.hloscope table.hs-delta td.better { color: #1a7f37; }
"""
WORSE = ("more", "slower", "larger")
BETTER = ("fewer", "faster", "smaller")


def delta_text(rows: Sequence[Row]) -> str:
    """The table in aligned columns."""
    table = [HEAD, *rows]
    widths = [max(len(r[i]) for r in table) for i in range(4)]
    lines = []
    for n, row in enumerate(table):
        cells = [row[0].ljust(widths[0])] + [row[i].rjust(widths[i]) for i in (1, 2)] + [row[3]]
        lines.append("  ".join(cells).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def delta_html(rows: Sequence[Row]) -> str:
    """The table as HTML, the change coloured: red where the what-if costs more."""
    head = "".join(f"<th>{html.escape(h)}</th>" for h in HEAD)
    body = []
    for name, before, after, change in rows:
        tone = "worse" if any(w in change for w in WORSE) else "better" if any(b in change for b in BETTER) else ""
        body.append(f"<tr><td>{html.escape(name)}</td><td class='num'>{html.escape(before)}</td>"
                    f"<td class='num'>{html.escape(after)}</td><td class='{tone}'>{html.escape(change)}</td></tr>")
    return f"<style>{CSS}</style><table class='hs-delta'><tr>{head}</tr>{''.join(body)}</table>"
