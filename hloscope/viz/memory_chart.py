"""A memory plan drawn as the classic buffer chart: time across, arena addresses up.

Each buffer is a rectangle from its first to its last schedule position (x) and from its
offset to offset + size (y), coloured by kind, with a `<title>` tooltip and a
`data-instruction` attribute so a front end can link it to the graph. Parameters and
constants live outside the arena, so they are drawn as bars in a strip below it. A dashed
line marks the arena's peak, a vertical one the position where most bytes are live.

Works with hloscope.memory.MemoryPlan or anything with the same fields (.buffers with
.name .kind .size .offset .start .end; .peak_bytes .naive_bytes .schedule).
"""

from __future__ import annotations

import html

from .theme import style_block

KIND_COLOR = {"parameter": "#4a90d9", "output": "#3a9d3a", "constant": "#9a9a9a", "temporary": "#e0892a"}
MAX_BUFFERS = 2000  # drawn rectangles; the smallest beyond this are counted, not drawn
MAX_TABLE_ROWS = 500
LEFT, TOP, STRIP_LANE = 78, 28, 7


def human_bytes(n: float) -> str:
    """1536 -> '1.5 KiB'."""
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(n) < 1024 or unit == "GiB":
            return f"{n:,.0f} {unit}" if unit == "B" else f"{n:,.1f} {unit}"
        n /= 1024
    return str(n)


def live_profile(plan) -> list[int]:
    """Bytes of arena buffers live at each schedule position."""
    n = _positions(plan)
    delta = [0] * (n + 1)
    for b in plan.buffers:
        if b.offset is not None and b.size > 0:
            delta[max(b.start, 0)] += b.size
            delta[min(b.end + 1, n)] -= b.size
    out, running = [], 0
    for d in delta[:n]:
        running += d
        out.append(running)
    return out


def _positions(plan) -> int:
    ends = [b.end for b in plan.buffers]
    return max(len(getattr(plan, "schedule", ()) or ()), max(ends, default=-1) + 1, 1)


def _lanes(buffers) -> list[int]:
    """Greedy interval packing of the outside-arena bars into as few rows as possible."""
    lane_end: list[int] = []
    lanes = []
    for b in buffers:
        lane = next((i for i, end in enumerate(lane_end) if end < b.start), len(lane_end))
        if lane == len(lane_end):
            lane_end.append(b.end)
        lane_end[lane] = b.end
        lanes.append(lane)
    return lanes


def _tooltip(b, schedule) -> str:
    where = "outside the arena" if b.offset is None else f"offset {b.offset:,}"
    first = schedule[b.start] if 0 <= b.start < len(schedule) else b.start
    last = schedule[b.end] if 0 <= b.end < len(schedule) else b.end
    return f"{b.name} ({b.kind})\n{b.size:,} bytes at {where}\nlive [{b.start}, {b.end}]: {first} .. {last}"


def _rect(b, x, y, w, h, schedule, colors=None) -> str:
    """One buffer; tiny ones get a minimum height so they can still be hovered."""
    w, h = max(w, 0.5), max(h, 1.5)
    fill = (colors or {}).get(getattr(b, "label", b.name)) or KIND_COLOR.get(b.kind, "#b07cd8")
    rect = (
        f'<rect class="buf kind-{html.escape(b.kind)}" data-instruction="{html.escape(b.name)}" '
        f'x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" '
        f'fill="{fill}" stroke="#ffffff" stroke-width="0.4">'
        f"<title>{html.escape(_tooltip(b, schedule))}</title></rect>"
    )
    if w > 6 * len(b.name) and h > 13:  # name it where it fits
        rect += (
            f'<text x="{x + 3:.1f}" y="{y + 11:.1f}" font-size="9" fill="#ffffff" '
            f'pointer-events="none">{html.escape(b.name)}</text>'
        )
    return rect


def memory_plan_svg(plan, width: int = 900, height: int = 340, max_buffers: int = MAX_BUFFERS,
                    colors: dict[str, str] | None = None, legend: dict[str, str] | None = None) -> str:
    """The chart as one `<svg>` element (inline styles only). `colors` (buffer label -> colour)
    overrides the colour by kind, `legend` (label -> colour) the legend: a training step's
    chart colours buffers by forward / backward / saved activation this way."""
    schedule = list(getattr(plan, "schedule", ()) or ())
    n = _positions(plan)
    drawn = sorted(plan.buffers, key=lambda b: -b.size)[:max_buffers]
    arena = [b for b in drawn if b.offset is not None]
    outside = [b for b in drawn if b.offset is None]
    lanes = _lanes(sorted(outside, key=lambda b: (b.start, b.end)))
    strip = (max(lanes, default=-1) + 1) * STRIP_LANE
    plot_w, plot_h = width - LEFT - 20, height - TOP - 40
    top_bytes = max([plan.peak_bytes] + [b.offset + b.size for b in arena] + [1])

    def x(pos: float) -> float:
        return LEFT + pos / n * plot_w

    def y(nbytes: float) -> float:
        return TOP + plot_h - nbytes / top_bytes * plot_h

    parts = [_frame(width, height + strip, plot_w, plot_h, top_bytes, n, y, legend)]
    for b in arena:
        parts.append(
            _rect(b, x(b.start), y(b.offset + b.size), x(b.end + 1) - x(b.start), b.size / top_bytes * plot_h,
                  schedule, colors)
        )
    base = TOP + plot_h + 22
    if outside:
        parts.append(
            f'<text x="{LEFT - 4}" y="{base + 6}" font-size="9" text-anchor="end" fill="#57606a">outside arena</text>'
        )
    for b, lane in zip(sorted(outside, key=lambda b: (b.start, b.end)), lanes):
        parts.append(
            _rect(b, x(b.start), base + lane * STRIP_LANE, x(b.end + 1) - x(b.start), STRIP_LANE - 1, schedule, colors)
        )
    parts.append(_peak_marks(plan, x, y, plot_w, schedule))
    hidden = len(plan.buffers) - len(drawn)
    if hidden:
        parts.append(
            f'<text x="{LEFT}" y="{height + strip - 4}" font-size="10" fill="#9a6700">'
            f"{hidden:,} smaller buffers not drawn (see the table)</text>"
        )
    parts.append("</svg>")
    return "".join(parts)


def _frame(width, height, plot_w, plot_h, top_bytes, n, y, legend=None) -> str:
    """The svg element, axes, tick labels and legend."""
    out = [
        (
            f'<svg class="hs-memory-chart" xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="Helvetica, Arial, sans-serif">'
        ),
        f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="#fafbfc" stroke="#d0d7de"/>',
    ]
    for frac in (0, 0.25, 0.5, 0.75, 1):
        yy = y(top_bytes * frac)
        out.append(
            f'<text x="{LEFT - 4}" y="{yy + 3:.1f}" font-size="9" text-anchor="end" fill="#57606a">'
            f"{human_bytes(top_bytes * frac)}</text>"
        )
    step = max(1, n // 10)
    for pos in range(0, n, step):
        xx = LEFT + (pos + 0.5) / n * plot_w
        out.append(
            f'<text x="{xx:.1f}" y="{TOP + plot_h + 12}" font-size="9" text-anchor="middle" fill="#57606a">{pos}</text>'
        )
    out.append(
        f'<text x="{LEFT - 4}" y="{TOP + plot_h + 16}" font-size="9" text-anchor="end" fill="#57606a">position</text>'
    )
    lx = LEFT
    for kind, color in (legend or KIND_COLOR).items():
        out.append(
            f'<rect x="{lx}" y="8" width="10" height="10" fill="{color}"/>'
            f'<text x="{lx + 14}" y="17" font-size="10">{html.escape(kind)}</text>'
        )
        lx += max(90, 20 + 6 * len(kind))
    return "".join(out)


def _peak_marks(plan, x, y, plot_w, schedule) -> str:
    """A dashed line at the arena size and a vertical line where live bytes peak."""
    yy = y(plan.peak_bytes)
    out = [
        (
            f'<line id="peak-line" class="peak" x1="{LEFT}" x2="{LEFT + plot_w}" y1="{yy:.1f}" y2="{yy:.1f}" '
            f'stroke="#cf222e" stroke-dasharray="5,3" stroke-width="1.2"/>'
        ),
        (
            f'<text class="peak-label" x="{LEFT + plot_w - 2}" y="{yy - 3:.1f}" font-size="10" text-anchor="end" '
            f'fill="#cf222e">arena peak {plan.peak_bytes:,} bytes ({human_bytes(plan.peak_bytes)})</text>'
        ),
    ]
    profile = live_profile(plan)
    if profile and max(profile) > 0:
        pos = max(range(len(profile)), key=profile.__getitem__)
        xx = x(pos + 0.5)
        at = f" ({schedule[pos]})" if pos < len(schedule) else ""
        out.append(
            f'<line class="peak-position" x1="{xx:.1f}" x2="{xx:.1f}" y1="{TOP}" y2="{y(0):.1f}" '
            f'stroke="#cf222e" stroke-opacity="0.5" stroke-width="1"><title>most live bytes: '
            f"{profile[pos]:,} at position {pos}{html.escape(at)}</title></line>"
        )
    return "".join(out)


def memory_plan_table_html(plan, max_rows: int = MAX_TABLE_ROWS) -> str:
    """One row per buffer, arena buffers by offset, then parameters and constants."""
    order = sorted(plan.buffers, key=lambda b: (b.offset is None, b.offset or 0, b.start, b.name))
    head = "".join(f"<th>{h}</th>" for h in ("instruction", "kind", "offset", "size", "live", "holds"))
    rows = []
    for b in order[:max_rows]:
        offset = "-" if b.offset is None else f"{b.offset:,}"
        holds = ", ".join(getattr(b, "values", ()) or ())
        rows.append(
            f'<tr class="kind-{html.escape(b.kind)}" data-instruction="{html.escape(b.name)}">'
            f"<td>{html.escape(b.name)}</td><td>{html.escape(b.kind)}</td><td class='num'>{offset}</td>"
            f"<td class='num'>{b.size:,}</td><td>[{b.start}, {b.end}]</td><td>{html.escape(holds)}</td></tr>"
        )
    if len(order) > max_rows:
        rows.append(f"<tr><td colspan='6'>... {len(order) - max_rows:,} more buffers</td></tr>")
    return f"<table class='hs-table hs-memory'><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def memory_plan_stats_html(plan) -> str:
    """Peak, naive and the saving, in one line."""
    naive = getattr(plan, "naive_bytes", 0) or 0
    saving = f", {100 * (1 - plan.peak_bytes / naive):.0f}% less than one buffer per value" if naive else ""
    return (
        f"<p class='hs-stats'><b>arena peak {human_bytes(plan.peak_bytes)}</b> "
        f"({plan.peak_bytes:,} bytes; naive {naive:,}{saving}); {len(plan.buffers)} buffers, "
        f"{_positions(plan)} schedule positions</p>"
    )


def memory_plan_html(plan, colors: dict[str, str] | None = None, legend: dict[str, str] | None = None,
                     extra: str = "") -> str:
    """Stats, chart and table in one block (what `_repr_html_` of a plan can return); `extra`
    goes between the chart and the table (a training step's saved activations)."""
    return (
        f'<div class="hloscope hs-memory-plan">{style_block()}{memory_plan_stats_html(plan)}'
        f"<div class='hs-scroll'>{memory_plan_svg(plan, colors=colors, legend=legend)}</div>"
        f"{extra}{memory_plan_table_html(plan)}</div>"
    )
