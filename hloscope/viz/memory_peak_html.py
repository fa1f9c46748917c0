"""Memory at the peak as HTML: the live bytes over the schedule with the peak marked, the
table of every buffer live there (biggest first, with its maker's source lines and why it is
still live) and the measured suggestions. Reads a hloscope.memory.at_peak.MemoryAtPeak;
`memory_peak_section(plan, module)` makes one (with suggestions for hloscope's own plan).
"""

from __future__ import annotations

import html

from ..memory import MemoryPlan
from ..memory.at_peak import MemoryAtPeak, PeakRow, PeakSuggestion, memory_at_peak
from ..passes.peak_suggestions import suggest
from .ir_text import source_text
from .memory_chart import KIND_COLOR, human_bytes
from .theme import style_block

MAX_ROWS = 200
WIDTH, HEIGHT, LEFT = 720, 90, 60
MAX_BARS = 600  # positions drawn one bar each; a longer schedule is binned


def memory_peak_section(plan: MemoryPlan | None, module=None, suggestions: bool = True) -> str:
    """The section for a plan ("" without one): suggestions only for hloscope's own plan,
    which planning the changed module again reproduces."""
    if plan is None:
        return ""
    at = memory_at_peak(plan, module)
    if suggestions and module is not None and type(plan) is MemoryPlan:
        at.suggestions = suggest(module, at)
    return memory_peak_html(at)


def memory_peak_html(at: MemoryAtPeak) -> str:
    """Totals, the live bytes over the schedule with the peak marked, the table and the suggestions."""
    head = (f"<h4>Live at the peak: {human_bytes(at.total_bytes)} ({at.total_bytes:,} bytes) at position "
            f"{at.position} of {at.positions}, <code>{html.escape(at.instruction)}</code></h4>"
            f"<p class='hs-stats'>arena {at.arena_bytes:,} bytes (the arena's size {at.arena_peak_bytes:,}) + "
            f"parameters and constants {at.outside_bytes:,} bytes; {len(at.rows)} buffers, summing to the total</p>")
    profile = _profile_svg(at.profile, at) if at.profile else ""
    return (f"<div class='hloscope hs-memory-peak'>{style_block()}{head}{profile}{_table(at)}"
            f"{suggestions_html(at.suggestions)}</div>")


def _table(at: MemoryAtPeak) -> str:
    cols = ("bytes", "share", "kind", "buffer", "made by", "source", "why still live")
    head = "".join(f"<th class='num'>{c}</th>" if c in ("bytes", "share") else f"<th>{c}</th>" for c in cols)
    rows = [_row(r, at.total_bytes) for r in at.rows[:MAX_ROWS]]
    if len(at.rows) > MAX_ROWS:
        rest = sum(r.bytes for r in at.rows[MAX_ROWS:])
        rows.append(f"<tr><td class='num'>{rest:,}</td><td colspan='6'>{len(at.rows) - MAX_ROWS:,} more buffers</td></tr>")
    rows.append(f"<tr class='hs-total'><td class='num'><b>{at.total_bytes:,}</b></td><td colspan='6'><b>total</b></td></tr>")
    return f"<table class='hs-table hs-peak-table'><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def _row(r: PeakRow, total: int) -> str:
    share = r.bytes / total if total else 0.0
    bar = (f"<span style='display:inline-block;width:{share * 60:.0f}px;height:8px;"
           f"background:{KIND_COLOR.get(r.kind, '#888')}'></span> {100 * share:.1f}%")
    lines = "<br>".join(html.escape(source_text(f, n)) for f, n in r.sources)
    why = html.escape(r.why)
    if r.last_user_sources:
        why += "<br><span class='hs-note'>" + html.escape(source_text(*r.last_user_sources[0])) + "</span>"
    cells = (f"<td class='num'>{r.bytes:,}</td><td style='white-space:nowrap'>{bar}</td><td>{html.escape(r.kind)}</td>"
             f"<td><code>{html.escape(r.label)}</code></td>"
             f"<td><code>{html.escape(r.instruction)}</code> ({html.escape(r.opcode)})</td><td>{lines}</td><td>{why}</td>")
    return f"<tr class='kind-{html.escape(r.kind)}' data-instruction='{html.escape(r.instruction)}'>{cells}</tr>"


def suggestions_html(suggestions: list[PeakSuggestion] | None) -> str:
    if suggestions is None:
        return ""
    if not suggestions:
        return ("<p class='hs-note hs-peak-suggestions'>No suggestion lowers the peak: donating an input, "
                "rematerializing a cheap value and reordering were each measured and none helped.</p>")
    head = "".join(f"<th>{c}</th>" for c in ("change", "peak before", "peak after", "saved", "what"))
    rows = "".join(
        f"<tr><td>{html.escape(s.kind)}</td><td class='num'>{s.before_bytes:,}</td><td class='num'>{s.after_bytes:,}</td>"
        f"<td class='num'>{s.saved_bytes:,} ({100 * s.saved_bytes / s.before_bytes:.1f}%)</td>"
        f"<td>{html.escape(s.what)}</td></tr>" for s in suggestions)
    return ("<h4>Suggestions, each measured by planning the changed module again</h4>"
            f"<table class='hs-table hs-peak-suggestions'><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>")


def _profile_svg(totals: list[int], at: MemoryAtPeak) -> str:
    """Bytes live at each position (arena + parameters + constants), the peak marked; a long
    schedule is drawn in bins (each its most bytes)."""
    per = max(1, -(-len(totals) // MAX_BARS))
    bins = [max(totals[i:i + per]) for i in range(0, len(totals), per)] or [0]
    n, top, peak = len(bins), max(bins + [1]), at.position // per
    w, h = (WIDTH - LEFT - 10) / n, HEIGHT - 24
    bars = "".join(f"<rect x='{LEFT + i * w:.1f}' y='{HEIGHT - 14 - t / top * h:.1f}' width='{max(w - 0.5, 0.5):.1f}' "
                   f"height='{t / top * h:.1f}' fill='{'#cf222e' if i == peak else '#8c959f'}'>"
                   f"<title>position {i * per}{f'-{min(i * per + per, len(totals)) - 1}' if per > 1 else ''}: "
                   f"{t:,} bytes live</title></rect>" for i, t in enumerate(bins))
    x = LEFT + (peak + 0.5) * w
    return (f"<svg class='hs-peak-profile' viewBox='0 0 {WIDTH} {HEIGHT}' width='100%' style='max-width:{WIDTH}px' xmlns='http://www.w3.org/2000/svg'>"
            f"<text x='{LEFT - 4}' y='16' font-size='10' text-anchor='end' fill='#57606a'>{human_bytes(top)}</text>"
            f"<text x='{LEFT - 4}' y='{HEIGHT - 14}' font-size='10' text-anchor='end' fill='#57606a'>0</text>{bars}"
            f"<text class='hs-peak-mark' x='{x:.1f}' y='{HEIGHT - 2}' font-size='10' text-anchor='middle' fill='#cf222e'>"
            f"peak: position {at.position}</text></svg>")
