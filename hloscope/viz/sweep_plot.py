"""A what-if sweep's figure (hloscope.whatif.sweep): run time against bytes moved, one
series per experiment, log scales, as a self-contained SVG (no plotting library).

Points of one series are joined in order of size, so a learner sees each line climb the
memory wall: where bytes grow, time follows them, and the unfused series sits further right.
"""

from __future__ import annotations

import html
import math
from typing import Sequence

Point = tuple[str, str, float, float]  # (series, size label, bytes moved, seconds)
COLORS = ("#0969da", "#cf222e", "#1a7f37", "#8250df", "#9a6700", "#bf3989")
W, H, LEFT, BOTTOM, TOP, RIGHT = 760, 400, 70, 50, 30, 240


def sweep_svg(points: Sequence[Point], title: str = "run time against bytes moved") -> str:
    """The figure; points without a measured time are left out."""
    pts = [p for p in points if p[2] > 0 and p[3] > 0]
    if not pts:
        return "<svg xmlns='http://www.w3.org/2000/svg' width='320' height='40'><text x='8' y='24'>nothing measured</text></svg>"
    xs, ys = [math.log10(p[2]) for p in pts], [math.log10(p[3]) for p in pts]
    x0, x1 = math.floor(min(xs)), math.ceil(max(xs)) + (max(xs) == math.ceil(max(xs)))
    y0, y1 = math.floor(min(ys)), math.ceil(max(ys)) + (max(ys) == math.ceil(max(ys)))

    def at(b: float, s: float) -> tuple[float, float]:
        px = LEFT + (math.log10(b) - x0) / (x1 - x0) * (W - LEFT - RIGHT)
        py = H - BOTTOM - (math.log10(s) - y0) / (y1 - y0) * (H - TOP - BOTTOM)
        return px, py

    out = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{W}' height='{H}' font-family='sans-serif' "
           f"font-size='11'><rect width='{W}' height='{H}' fill='white'/>",
           f"<text x='{LEFT}' y='18' font-size='13' font-weight='600'>{html.escape(title)}</text>"]
    for e in range(x0, x1 + 1):
        px, _ = at(10.0 ** e, 10.0 ** y0)
        out.append(f"<line x1='{px:.1f}' y1='{TOP}' x2='{px:.1f}' y2='{H - BOTTOM}' stroke='#eaeef2'/>"
                   f"<text x='{px:.1f}' y='{H - BOTTOM + 14}' text-anchor='middle'>{_bytes(10.0 ** e)}</text>")
    for e in range(y0, y1 + 1):
        _, py = at(10.0 ** x0, 10.0 ** e)
        out.append(f"<line x1='{LEFT}' y1='{py:.1f}' x2='{W - RIGHT}' y2='{py:.1f}' stroke='#eaeef2'/>"
                   f"<text x='{LEFT - 6}' y='{py + 4:.1f}' text-anchor='end'>{_seconds(10.0 ** e)}</text>")
    out.append(f"<text x='{(LEFT + W - RIGHT) / 2:.0f}' y='{H - 12}' text-anchor='middle'>bytes moved (cost model)</text>"
               f"<text x='14' y='{(TOP + H - BOTTOM) / 2:.0f}' text-anchor='middle' "
               f"transform='rotate(-90 14 {(TOP + H - BOTTOM) / 2:.0f})'>measured run time (median)</text>")
    series = list(dict.fromkeys(p[0] for p in pts))
    for n, name in enumerate(series):
        color = COLORS[n % len(COLORS)]
        mine = [p for p in pts if p[0] == name]
        line = " ".join(f"{at(p[2], p[3])[0]:.1f},{at(p[2], p[3])[1]:.1f}" for p in mine)
        out.append(f"<polyline points='{line}' fill='none' stroke='{color}' stroke-width='1.5'/>")
        for p in mine:
            px, py = at(p[2], p[3])
            tip = html.escape(f"{name}, {p[1]}: {_bytes(p[2])}, {_seconds(p[3])}")
            out.append(f"<circle cx='{px:.1f}' cy='{py:.1f}' r='3.5' fill='{color}'><title>{tip}</title></circle>")
        ly = TOP + 16 * n + 10
        out.append(f"<rect x='{W - RIGHT + 12}' y='{ly - 8}' width='10' height='10' fill='{color}'/>"
                   f"<text x='{W - RIGHT + 26}' y='{ly + 1}'>{html.escape(name)}</text>")
    out.append("</svg>")
    return "".join(out)


def _bytes(n: float) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n:.3g} {unit}"
        n /= 1000
    return str(n)


def _seconds(s: float) -> str:
    if s >= 1:
        return f"{s:.3g} s"
    if s >= 1e-3:
        return f"{s * 1e3:.3g} ms"
    return f"{s * 1e6:.3g} us"
