"""A small SVG plot for the course (points and lines, linear or log-log axes), so a figure
needs no plotting library and still shows on a page without a kernel.

    SVGPlot("bytes moved", "seconds", log=True)
        .line("copy bandwidth", [(1e6, 1e-4), (1e8, 1e-2)])
        .points("fused", [(4e6, 3e-4), ...])
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, field

COLOURS = ("#0550ae", "#cf222e", "#1a7f37", "#8250df", "#9a6700", "#57606a")
WIDTH, HEIGHT, LEFT, BOTTOM, TOP, RIGHT = 560, 320, 70, 46, 14, 150


@dataclass
class SVGPlot:
    xlabel: str
    ylabel: str
    log: bool = False
    series: list[tuple[str, str, list[tuple[float, float]]]] = field(default_factory=list)  # (kind, label, points)

    def points(self, label: str, xy: list[tuple[float, float]]) -> "SVGPlot":
        self.series.append(("points", label, list(xy)))
        return self

    def line(self, label: str, xy: list[tuple[float, float]]) -> "SVGPlot":
        self.series.append(("line", label, list(xy)))
        return self

    def _scale(self, values: list[float], size: float, flip: bool):
        f = (lambda v: math.log10(v)) if self.log else (lambda v: v)
        used = [f(v) for v in values if v > 0 or not self.log]
        low, high = min(used), max(used)
        if not self.log:
            low = min(low, 0.0)
        if high == low:
            high = low + 1
        pad = (high - low) * 0.04
        low, high = low - pad, high + pad

        def to_pixel(v: float) -> float:
            t = (f(v) - low) / (high - low)
            return (1 - t) * size if flip else t * size

        return to_pixel, low, high

    def _ticks(self, low: float, high: float) -> list[float]:
        if self.log:
            return [10.0 ** e for e in range(math.ceil(low), math.floor(high) + 1)]
        step = 10 ** math.floor(math.log10((high - low) / 4))
        step *= 2 if (high - low) / step > 8 else 1
        return [i * step for i in range(math.ceil(low / step), math.floor(high / step) + 1)]

    def svg(self) -> str:
        xs = [x for _, _, xy in self.series for x, _ in xy]
        ys = [y for _, _, xy in self.series for _, y in xy]
        plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
        px, xlow, xhigh = self._scale(xs, plot_w, flip=False)
        py, ylow, yhigh = self._scale(ys, plot_h, flip=True)
        out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
               f'font-family="sans-serif" font-size="11">',
               f'<g transform="translate({LEFT},{TOP})">',
               f'<rect width="{plot_w}" height="{plot_h}" fill="none" stroke="#d0d7de"/>']
        for v in self._ticks(xlow, xhigh):
            x = px(v)
            out.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{plot_h}" y2="{plot_h + 4}" stroke="#57606a"/>'
                       f'<text x="{x:.1f}" y="{plot_h + 16}" text-anchor="middle">{_number(v)}</text>')
        for v in self._ticks(ylow, yhigh):
            y = py(v)
            out.append(f'<line x1="-4" x2="0" y1="{y:.1f}" y2="{y:.1f}" stroke="#57606a"/>'
                       f'<text x="-6" y="{y + 4:.1f}" text-anchor="end">{_number(v)}</text>')
        out.append(f'<text x="{plot_w / 2}" y="{plot_h + 34}" text-anchor="middle">{html.escape(self.xlabel)}</text>')
        out.append(f'<text transform="translate(-56,{plot_h / 2}) rotate(-90)" text-anchor="middle">'
                   f'{html.escape(self.ylabel)}</text>')
        for i, (kind, label, xy) in enumerate(self.series):
            colour = COLOURS[i % len(COLOURS)]
            if kind == "line":
                path = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in xy)
                out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="1.5" '
                           f'stroke-dasharray="5,3"/>')
            else:
                out.extend(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3.5" fill="{colour}"/>' for x, y in xy)
            out.append(f'<rect x="{plot_w + 12}" y="{i * 16}" width="10" height="10" fill="{colour}"/>'
                       f'<text x="{plot_w + 26}" y="{i * 16 + 9}">{html.escape(label)}</text>')
        out.append("</g></svg>")
        return "".join(out)

    def _repr_html_(self) -> str:
        return self.svg()


def _number(v: float) -> str:
    """A tick label: 1e-05, 0.5, 200, 3e+09."""
    return f"{v:.0e}" if v and (abs(v) >= 1e5 or abs(v) < 1e-2) else f"{v:g}"
