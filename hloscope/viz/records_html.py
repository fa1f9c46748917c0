"""Pass records as HTML: one pass in detail, or the table of every pass run.

    pass_record_html(record)     name, explanation, changed, time, decision log, text diff
    records_table_html(records)  one row per pass run, changed ones marked

A record is hloscope.passes.record.PassRecord (or anything with the same fields).
"""

from __future__ import annotations

import html
import inspect

from .diff import text_diff_html
from .theme import style_block

MAX_DECISIONS = 400


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:.2f}"


def _count(module) -> int:
    return module.instruction_count() if module is not None else 0


def record_title(record) -> str:
    """`simplification/algsimp (iteration 1)`."""
    it = f" (iteration {record.iteration})" if getattr(record, "iteration", 0) else ""
    return f"{record.pipeline}/{record.name}{it}"


def doc_html(doc: str) -> str:
    """The pass's explanation: the first paragraph shown, the rest behind a 'more' toggle."""
    doc = inspect.cleandoc(doc or "")
    if not doc:
        return ""
    first, _, rest = doc.partition("\n\n")
    more = f"<details><summary>more</summary><div class='hs-doc'>{html.escape(rest)}</div></details>" if rest else ""
    return f"<div class='hs-doc'>{html.escape(first)}</div>{more}"


def decisions_html(decisions, max_rows: int = MAX_DECISIONS) -> str:
    """The decision log as a table; rejected candidates are tinted and marked."""
    decisions = list(decisions)
    if not decisions:
        return "<p class='hs-empty'>no decisions logged</p>"
    rejected = sum(1 for d in decisions if not d.accepted)
    head = "".join(f"<th>{h}</th>" for h in ("action", "subject", "target", "rule", "reason"))
    rows = []
    for d in decisions[:max_rows]:
        cls = "accepted" if d.accepted else "rejected"
        cells = (
            d.action if d.accepted else f"{d.action} (rejected)",
            d.subject,
            d.target or "",
            d.rule or "",
            d.reason,
        )
        rows.append(
            f"<tr class='{cls}' data-instruction='{html.escape(d.subject)}'><td class='action'>"
            + "</td><td>".join(html.escape(str(c)) for c in cells)
            + "</td></tr>"
        )
    if len(decisions) > max_rows:
        rows.append(f"<tr><td colspan='5'>... {len(decisions) - max_rows} more decisions</td></tr>")
    counts = f"<p>{len(decisions) - rejected} accepted, {rejected} rejected</p>"
    return f"{counts}<table class='hs-table hs-decisions'><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def record_header_html(record, title: bool = True) -> str:
    """Title, changed badge, time and the instruction count before -> after."""
    before, after = _count(record.before), _count(record.after)
    badge = "<span class='badge changed'>changed</span>" if record.changed else "<span class='badge'>no change</span>"
    head = f"<h3>{html.escape(record_title(record))}{badge}</h3>" if title else f"<p>{badge}</p>"
    return (
        f"{head}<p>{_ms(record.seconds)} ms; {before} &rarr; {after} instructions "
        f"({after - before:+d}); {len(record.log)} decisions</p>"
    )


def pass_record_html(record, diff: bool = True) -> str:
    """One pass run in detail (what Jupyter shows for a PassRecord)."""
    parts = [
        f'<div class="hloscope hs-record">{style_block()}',
        record_header_html(record),
        doc_html(record.doc),
        "<h4>Decisions</h4>",
        decisions_html(record.log),
    ]
    if diff and record.changed:
        parts += ["<h4>HLO diff</h4>", text_diff_html(record.before.to_text(), record.after.to_text())]
    parts.append("</div>")
    return "".join(parts)


def records_table_html(records, with_style: bool = True) -> str:
    """Every pass run: pipeline, pass, iteration, changed, time, decisions, instructions."""
    records = list(records)
    head = (
        "<tr><th class='num'>#</th><th>pipeline</th><th>pass</th><th class='num'>iter</th><th>changed</th>"
        "<th class='num'>ms</th><th class='num'>decisions</th><th class='num'>rejected</th>"
        "<th class='num'>instructions</th><th class='num'>&Delta;</th></tr>"
    )
    rows = [_record_row(i, r) for i, r in enumerate(records)]
    total = sum(r.seconds for r in records)
    changed = sum(1 for r in records if r.changed)
    foot = (
        f"<tr><td></td><td colspan='3'>{len(records)} pass runs, {changed} changed</td><td></td>"
        f"<td class='num'>{_ms(total)}</td><td colspan='4'></td></tr>"
    )
    style = style_block() if with_style else ""
    return (
        f'<div class="hloscope">{style}<table class="hs-table hs-records"><thead>{head}</thead>'
        f"<tbody>{''.join(rows)}</tbody><tfoot>{foot}</tfoot></table></div>"
    )


def _record_row(i: int, r) -> str:
    rejected = sum(1 for d in r.log if not d.accepted)
    after = _count(r.after)
    delta = after - _count(r.before)
    cls = "changed" if r.changed else "unchanged"
    return (
        f"<tr class='{cls}' data-index='{i}'><td class='num'>{i}</td><td>{html.escape(r.pipeline)}</td>"
        f"<td>{html.escape(r.name)}</td><td class='num'>{getattr(r, 'iteration', 0)}</td>"
        f"<td>{'yes' if r.changed else ''}</td><td class='num'>{_ms(r.seconds)}</td>"
        f"<td class='num'>{len(r.log)}</td><td class='num'>{rejected or ''}</td>"
        f"<td class='num'>{after}</td><td class='num'>{delta:+d}</td></tr>"
    )
