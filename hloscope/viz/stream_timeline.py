"""A timeline of the GPU program: one lane per stream, each thunk a bar as long as its
roofline estimate, starting when its stream is free and the events it waits on are done.

    timeline_svg(c.thunks, {kernel: seconds}, bandwidth)   an SVG string

This is what the stream assignment buys: two independent kernels side by side instead of
one after the other. A loop or a conditional is drawn as one bar holding its nested thunks
once (one iteration, one branch: the trip count is known only when it runs).
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from ..runtime.thunks import Thunk, ThunkSequence

LANE, BAR, LEFT, WIDTH = 34, 22, 90, 760
COLORS = {"kernel": "#6e9bd1", "copy": "#b7b7b7", "while": "#e0a95f", "conditional": "#e0a95f"}


@dataclass(frozen=True)
class Bar:
    thunk: Thunk
    start: float
    seconds: float

    @property
    def end(self) -> float:
        return self.start + self.seconds


def thunk_seconds(t: Thunk, kernel_seconds: dict[str, float], bandwidth: float, nested: list[Thunk]) -> float:
    """A thunk's estimated duration: its kernel's estimate, a copy's bytes over bandwidth,
    or a loop / conditional's nested thunks once."""
    if t.kind == "kernel":
        return kernel_seconds.get(t.name, 0.0)
    if t.kind == "copy":
        return 2 * t.bytes / bandwidth
    return sum(thunk_seconds(n, kernel_seconds, bandwidth, []) for n in nested)


def schedule(thunks: ThunkSequence, kernel_seconds: dict[str, float], bandwidth: float) -> list[Bar]:
    """Top-level thunks placed in time: after their stream's previous bar and their events."""
    free: dict[int, float] = {}
    done: dict[int, float] = {}
    bars: list[Bar] = []
    top = [t for t in thunks.thunks if t.depth == 0]
    for k, t in enumerate(top):
        end_index = top[k + 1].index if k + 1 < len(top) else len(thunks.thunks)
        nested = list(thunks.thunks[t.index + 1:end_index])
        start = max([free.get(t.stream, 0.0)] + [done[w] for w in t.waits if w in done])
        if t.kind in ("while", "conditional"):  # host-driven: waits for every stream
            start = max([start] + list(free.values()))
        bar = Bar(t, start, thunk_seconds(t, kernel_seconds, bandwidth, nested))
        free[t.stream] = done[t.index] = bar.end
        bars.append(bar)
    return bars


def timeline_svg(thunks: ThunkSequence, kernel_seconds: dict[str, float], bandwidth: float,
                 target: str = "H200") -> str:
    """The SVG: a lane per stream, bars labelled with their kernel, a time axis."""
    bars = schedule(thunks, kernel_seconds, bandwidth)
    total = max((b.end for b in bars), default=0.0) or 1e-9
    lanes = thunks.streams
    height = 30 + lanes * LANE + 24
    scale = WIDTH / total
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="hs-stream-timeline" width="{LEFT + WIDTH + 20}" '
             f'height="{height}" font-family="Helvetica" font-size="11">',
             f'<text x="4" y="16" font-weight="bold">estimated on {html.escape(target)}: '
             f'{total * 1e6:.3g} µs end to end, {lanes} stream(s)</text>']
    for s in range(lanes):
        y = 30 + s * LANE
        parts.append(f'<text x="4" y="{y + 15}">stream {s}</text>')
        parts.append(f'<line x1="{LEFT}" y1="{y + BAR + 4}" x2="{LEFT + WIDTH}" y2="{y + BAR + 4}" stroke="#ddd"/>')
    for b in bars:
        x, y, w = LEFT + b.start * scale, 30 + b.thunk.stream * LANE, max(b.seconds * scale, 1.5)
        name = html.escape(b.thunk.name)
        waits = f", waits on {', '.join(map(str, b.thunk.waits))}" if b.thunk.waits else ""
        parts.append(f'<g data-instruction="{html.escape(b.thunk.instruction)}"><title>{b.thunk.index} {name}: '
                     f'{b.seconds * 1e6:.3g} µs from {b.start * 1e6:.3g} µs{waits}</title>'
                     f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{BAR}" rx="3" '
                     f'fill="{COLORS.get(b.thunk.kind, "#999")}" stroke="#333" stroke-width="0.5"/>')
        if w > 40:
            parts.append(f'<text x="{x + 3:.1f}" y="{y + 15}" fill="#fff">{name[: int(w / 6.5)]}</text>')
        parts.append("</g>")
    axis_y = 30 + lanes * LANE + 14
    parts.append(f'<text x="{LEFT}" y="{axis_y}">0</text>'
                 f'<text x="{LEFT + WIDTH}" y="{axis_y}" text-anchor="end">{total * 1e6:.3g} µs</text></svg>')
    return "".join(parts)
