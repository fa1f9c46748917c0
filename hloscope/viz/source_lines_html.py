"""The per-line cost table as HTML: the user's code with each line's share of the program
laid over it (a heat bar and the numbers), then the table of every line with its HLO
instructions and kernels (hloscope/cost/source_lines.py computes it)."""

from __future__ import annotations

import html
import linecache
import os
from typing import Any

from .memory_chart import human_bytes
from .theme import style_block

METRICS = ("bytes", "flops", "time")
_CONTEXT = 1  # unattributed lines shown around attributed ones
_MAX_LINES = 240

CSS = """
.hs-source td { padding: 0 6px; vertical-align: top; }
.hs-source td.code { font-family: monospace; white-space: pre; }
.hs-source tr.cold td.code { color: #6e7781; }
.hs-source .heat { display: inline-block; height: 10px; background: #cf222e; vertical-align: middle; }
"""


def metric_value(row: Any, metric: str, measured: bool) -> float:
    if metric == "bytes":
        return float(row.bytes_accessed)
    if metric == "flops":
        return float(row.flops + row.transcendentals)
    seconds = row.measured_seconds if measured else row.estimated_seconds
    return float(seconds or 0.0)


def _time(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    return f"{seconds * 1e6:,.1f} us" if seconds < 1e-2 else f"{seconds * 1e3:,.2f} ms"


def _numbers(row: Any, measured: bool) -> str:
    seconds = row.measured_seconds if measured else row.estimated_seconds
    return (f"<td class='num'>{human_bytes(row.bytes_accessed)}</td><td class='num'>{row.flops + row.transcendentals:,}</td>"
            f"<td class='num'>{_time(seconds)}</td><td class='num'>{len(row.instructions)}</td>"
            f"<td class='num'>{len(row.kernels)}</td>")


_HEAD = ("<th class='num'>bytes</th><th class='num'>flops</th><th class='num'>{time}</th>"
         "<th class='num'>HLO instr.</th><th class='num'>kernels</th>")


def code_overlay_html(table: Any, metric: str = "bytes") -> str:
    """Each file's attributed lines (with a line of context) as code, a heat bar on each by
    `metric`, and the line's numbers beside it."""
    if metric not in METRICS:
        raise ValueError(f"unknown metric {metric!r}; choose one of {METRICS}")
    top = max((metric_value(r, metric, table.measured) for r in table.rows), default=0.0) or 1.0
    time_head = "measured time" if table.measured else "estimated time"
    blocks = []
    files = sorted({r.file for r in table.rows if r.file})
    for file in files:
        rows = {r.line: r for r in table.rows if r.file == file}
        shown = sorted({n for line in rows for n in range(max(1, line - _CONTEXT), line + _CONTEXT + 1)})[:_MAX_LINES]
        body, last = [], None
        for n in shown:
            if last is not None and n != last + 1:
                body.append("<tr class='cold'><td></td><td></td><td class='code'>...</td></tr>")
            last = n
            text = html.escape(linecache.getline(file, n).rstrip("\n"))
            row = rows.get(n)
            if row is None:
                body.append(f"<tr class='cold'><td class='num'>{n}</td><td></td><td class='code'>{text}</td></tr>")
                continue
            width = int(80 * metric_value(row, metric, table.measured) / top)
            title = html.escape(", ".join(sorted(row.kernels)[:12]))
            body.append(f"<tr title='kernels: {title}'><td class='num'>{n}</td>"
                        f"<td><span class='heat' style='width:{width}px'></span></td>"
                        f"<td class='code'>{text or '(source not available)'}</td>{_numbers(row, table.measured)}</tr>")
        head = f"<tr><th>line</th><th>{metric}</th><th>{html.escape(os.path.basename(file))}</th>{_HEAD.format(time=time_head)}</tr>"
        blocks.append(f"<table class='hs-table hs-source'>{head}{''.join(body)}</table>")
    if not blocks:
        blocks.append("<p>no instruction carries a source line (the module's metadata has none)</p>")
    return "".join(blocks)


def lines_table_html(table: Any) -> str:
    """Every line, the unattributed work and the total, with the instructions of each."""
    time_head = "measured time" if table.measured else "estimated time"
    rows = []
    for r in [*table.rows, table.total]:
        where = "total" if r is table.total else r.where
        names = ", ".join(sorted(r.instructions)[:8]) + (" ..." if len(r.instructions) > 8 else "")
        rows.append(f"<tr><td>{html.escape(where)}</td><td><code>{html.escape(r.text[:70])}</code></td>"
                    f"{_numbers(r, table.measured)}<td><code>{html.escape(names if r is not table.total else '')}</code></td></tr>")
    head = f"<tr><th>line</th><th>code</th>{_HEAD.format(time=time_head)}<th>instructions</th></tr>"
    return f"<div class='hs-scroll'><table class='hs-table'>{head}{''.join(rows)}</table></div>"


def source_lines_html(table: Any, metric: str = "bytes") -> str:
    """The overlay and the table, with the totals they add up to."""
    t = table.total
    kind = "measured" if table.measured else "estimated (roofline)"
    summary = (f"<p>{html.escape(table.module)}: {len(table.rows)} lines; the lines add up to the program: "
               f"{t.bytes_accessed:,} bytes, {t.flops + t.transcendentals:,} flops, {kind} time {_time(t.measured_seconds if table.measured else t.estimated_seconds)}</p>")
    return (style_block() + f"<style>{CSS}</style><div class='hloscope'><h3>Cost by source line</h3>{summary}"
            + code_overlay_html(table, metric) + lines_table_html(table) + "</div>")
