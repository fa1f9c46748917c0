"""A compilation as HTML, without widgets: the Overview and Run panels the explorer shows,
and the record's own `_repr_html_` (what Jupyter shows for `hlo_report` on its own).
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

import numpy as np

from .graph_view import graph_html
from .record_text import facts
from .records_html import records_table_html
from .theme import style_block

if TYPE_CHECKING:  # the record is read, never imported: views sit below it
    from ..compilation.record import Compilation

STATUS_MARK = {"pending": "·", "running": "…", "done": "✓", "failed": "✗", "skipped": "–", "cached": "↺",
               "reused": "⇉"}
STATUS_COLOR = {"pending": "#8c959f", "running": "#9a6700", "done": "#1a7f37", "failed": "#cf222e",
                "skipped": "#8c959f", "cached": "#0969da",
                "reused": "#8250df"}
CSS = """
.hloscope .hs-stage-running td { background: #fff8c5; }
.hloscope .hs-stage-failed td { background: #ffebe9; }
.hloscope .hs-ok { color: #1a7f37; font-weight: 600; }
.hloscope .hs-bad { color: #cf222e; font-weight: 600; }
"""


def _esc(x) -> str:
    return html.escape(str(x))


def table(head: tuple, rows: list, num_cols: tuple = (), row_classes: list | None = None) -> str:
    th = "".join(f"<th class='{'num' if i in num_cols else ''}'>{_esc(h)}</th>" for i, h in enumerate(head))
    body = []
    for r, row in enumerate(rows):
        cls = f" class='{row_classes[r]}'" if row_classes else ""
        cells = "".join(f"<td class='{'num' if i in num_cols else ''}'>{c}</td>" for i, c in enumerate(row))
        body.append(f"<tr{cls}>{cells}</tr>")
    return f"<table class='hs-table'><thead><tr>{th}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def stages_html(report: Compilation) -> str:
    rows, classes = [], []
    for s in report.stages:
        mark = f"<span style='color:{STATUS_COLOR[s.status]}'>{STATUS_MARK[s.status]} {s.status}</span>"
        ms = f"{s.seconds * 1e3:.1f}" if s.status in ("done", "failed") else ""
        rows.append((_esc(s.name), mark, ms, _esc(s.note)))
        classes.append(f"hs-stage-{s.status}")
    return table(("stage", "status", "ms", "what it did"), rows, (2,), classes)


def overview_html(report: Compilation) -> str:
    rows = [(_esc(k), _verdict(v) if k == "results" else _esc(v)) for k, v in facts(report)]
    parts = [f"<div class='hloscope hs-overview'>{style_block()}<style>{CSS}</style>",
             f"<h3>{_esc(report.title)}</h3>", "<h4>Stages</h4>", stages_html(report)]
    if rows:
        parts += ["<h4>Summary</h4>", table(("", "value"), rows)]
    failed = [s for s in report.stages if s.status == "failed"]
    for s in failed:
        parts.append(f"<pre class='hs-bad' style='white-space:pre-wrap'>{_esc(s.name)} failed: "
                     f"{_esc(str(s.error) if s.error is not None else s.note)}</pre>")
    return "".join(parts) + "</div>"


def _verdict(text: str) -> str:
    cls = "hs-bad" if text.startswith("differs") else "hs-ok"
    return f"<span class='{cls}'>{_esc(text)}</span>"


def _preview(a: np.ndarray) -> str:
    with np.printoptions(precision=4, threshold=8, edgeitems=2, linewidth=80):
        return np.array2string(np.asarray(a).reshape(-1)[:6])


def flat_outputs(value: Any) -> list[np.ndarray]:
    """Arrays of a result, nested tuples/lists/dicts flattened in order."""
    if isinstance(value, dict):
        return [a for k in sorted(value) for a in flat_outputs(value[k])]
    if isinstance(value, (tuple, list)):
        return [a for v in value for a in flat_outputs(v)]
    return [np.asarray(value)]


def outputs_html(report: Compilation) -> str:
    if report.outputs is None:
        return "<p class='hs-empty'>not run</p>"
    rows = []
    for i, a in enumerate(flat_outputs(report.outputs)):
        stats = ""
        if a.size and a.dtype.kind in "fiu":
            f = a.astype(np.float64)
            stats = f"min {np.nanmin(f):.4g}, max {np.nanmax(f):.4g}, mean {np.nanmean(f):.4g}"
        rows.append((str(i), _esc(f"{a.dtype}{list(a.shape)}"), _esc(stats), f"<code>{_esc(_preview(a))}</code>"))
    return table(("output", "shape", "statistics", "first values"), rows)


ERROR_MODEL_WORDS = ("Each output is judged by its scale (its largest |value|): hloscope's error against the "
                     "program evaluated in f64 may be a few times what an f32 evaluation of the same program "
                     "is off by, plus a few ulps; integers must be equal and NaN/inf must sit in the same places.")


def run_html(report: Compilation) -> str:
    """Outputs, checks against the evaluator / numpy / jax, and timings."""
    parts = [f"<div class='hloscope hs-run'>{style_block()}<style>{CSS}</style><h4>Outputs</h4>",
             outputs_html(report)]
    if report.checks:
        rows = [(_esc(c.name), "<span class='hs-ok'>ok</span>" if c.ok else "<span class='hs-bad'>differs</span>",
                 "" if c.max_abs_error is None else f"{c.max_abs_error:.3g}", _esc(c.describe())) for c in report.checks]
        parts += ["<h4>Checked against</h4>", table(("reference", "result", "max |error|", "in words"), rows, (2,)),
                  f"<p class='hs-note'>{_esc(ERROR_MODEL_WORDS)}</p>"]
    if report.timings:
        ours = report.timing("hloscope")
        rows = []
        for t in report.timings:
            ms = "" if t.seconds is None else f"{t.seconds * 1e3:.3f}"
            rel = (f"{t.seconds / ours.seconds:.2f}x" if t.seconds and ours and ours.seconds else "")
            rows.append((_esc(t.name), ms, rel, str(t.runs or ""), _esc(t.note)))
        parts += ["<h4>Timings</h4>", table(("what", "ms per call", "vs hloscope", "runs", "note"), rows, (1, 2, 3))]
    stage = next((s for s in report.stages if s.name == "run"), None)
    if stage is not None and stage.status in ("skipped", "failed"):
        parts.append(f"<p class='hs-note'>run {stage.status}: {_esc(stage.note)}</p>")
    return "".join(parts) + "</div>"


def record_html(report: Compilation) -> str:
    """What Jupyter shows for a record on its own: overview, passes, final graph, run."""
    parts = [overview_html(report)]
    if report.records:
        parts += ["<div class='hloscope'><h4>Passes</h4></div>", records_table_html(report.records)]
    if report.module is not None:
        parts += ["<div class='hloscope'><h4>Final graph</h4></div>", graph_html(report.module)]
    if report.outputs is not None:
        parts.append(run_html(report))
    return "".join(parts)
