"""A memory plan as text (like XLA's buffer-assignment dump) and as an HTML table."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # only for annotations: plan.py imports this file to print itself
    from .plan import Buffer, MemoryPlan


def _holds(b: Buffer) -> str:
    text = " -> ".join([b.label, *b.values[1:]])
    if b.aliases:
        text += f"  (aliased by {', '.join(b.aliases[:4])}{', ...' if len(b.aliases) > 4 else ''})"
    if b.donor is not None:
        text += f"  (written into parameter {b.donor}'s buffer: donated)"
    return text


def plan_text(plan: MemoryPlan) -> str:
    """A header with the totals, then one row per buffer, arena buffers by offset."""
    head = (f"MemoryPlan of {plan.computation}: {len(plan.schedule)} instructions, arena {plan.peak_bytes:,} bytes "
            f"(lower bound {plan.min_bytes:,}, naive {plan.naive_bytes:,}), alignment {plan.alignment}")
    rows = [head, f"  {'offset':>10} {'size':>10}  {'live':<12} {'kind':<10} holds"]
    order = sorted(plan.buffers, key=lambda b: (b.offset is not None, b.offset or 0, b.start))
    for b in order:
        offset = "-" if b.offset is None else f"{b.offset:,}"
        rows.append(f"  {offset:>10} {b.size:>10,}  {f'[{b.start}, {b.end}]':<12} {b.kind:<10} {_holds(b)}")
    return "\n".join(rows)


def plan_html(plan: MemoryPlan) -> str:
    """The same table in HTML (the explorer draws the chart)."""
    cells = "".join(f"<th>{h}</th>" for h in ("offset", "size", "live", "kind", "holds"))
    body = []
    for b in sorted(plan.buffers, key=lambda b: (b.offset is not None, b.offset or 0, b.start)):
        offset = "-" if b.offset is None else f"{b.offset:,}"
        row = (offset, f"{b.size:,}", f"[{b.start}, {b.end}]", b.kind, _holds(b))
        body.append("<tr>" + "".join(f"<td>{escape(str(c))}</td>" for c in row) + "</tr>")
    caption = (f"{escape(plan.computation)}: arena {plan.peak_bytes:,} bytes "
               f"(lower bound {plan.min_bytes:,}, naive {plan.naive_bytes:,})")
    return (f"<table class='hloscope-memory'><caption>{caption}</caption>"
            f"<thead><tr>{cells}</tr></thead><tbody>{''.join(body)}</tbody></table>")
