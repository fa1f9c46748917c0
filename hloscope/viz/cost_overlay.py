"""A graph overlay: instructions and fusions coloured by bytes, flops or estimated time
(as Model Explorer overlays per-node data), with the hottest named.

The graph is not laid out again: the colours are CSS on the SVG's `data-instruction` groups,
scoped to the box the overlay is drawn in.
"""

from __future__ import annotations

import html

from ..cost import GPUS, analyze, estimate
from ..ir.module import HloModule
from .cost_view import megabytes, seconds

METRICS = ("bytes", "flops", "estimated time (H200)")
SCOPE = "hs-cost-overlay"


def overlay_values(module: HloModule, metric: str) -> dict[str, float]:
    """{top-level instruction: value} for the ENTRY's instructions that do work."""
    if metric not in METRICS:
        raise ValueError(f"unknown overlay metric {metric!r}; choose one of {METRICS}")
    entry = module.entry_computation.name
    out = {}
    for name, c in analyze(module).items():
        if c.computation != entry or c.fused_in:
            continue
        value = {"bytes": c.bytes_accessed, "flops": c.flops + c.transcendentals}.get(metric)
        if value is None:
            value = estimate(c, GPUS["H200"]) if c.bytes_accessed or c.flops or c.transcendentals else 0.0
        if value:
            out[name] = float(value)
    return out


def _color(fraction: float) -> str:
    """White (cold) to red (hot)."""
    f = max(0.0, min(1.0, fraction))
    return f"#ff{int(255 - 200 * f):02x}{int(255 - 220 * f):02x}"


def overlay_css(values: dict[str, float]) -> str:
    """Fill colours for the groups of the instructions in `values`, relative to the largest."""
    top = max(values.values(), default=0.0) or 1.0
    rules = []
    for name, v in values.items():
        q = html.escape(name).replace('"', '\\"')
        sel = ", ".join(f'.{SCOPE} g[data-instruction="{q}"] > {shape}' for shape in ("polygon", "ellipse", "path"))
        rules.append(f"{sel} {{ fill: {_color(v / top)} !important; }}")
    return "\n".join(rules)


def describe(metric: str, value: float) -> str:
    if metric == "bytes":
        return megabytes(value)
    if metric == "flops":
        return f"{value / 1e6:.3g} MFLOP"
    return seconds(value)


def hottest(values: dict[str, float], metric: str, n: int = 5) -> str:
    """"hottest by bytes: fusion.3 (4.19 MB), dot.1 (1.05 MB), ..." ("" when nothing counts)."""
    ranked = sorted(values.items(), key=lambda kv: -kv[1])[:n]
    if not ranked:
        return ""
    return f"hottest by {metric}: " + ", ".join(f"{name} ({describe(metric, v)})" for name, v in ranked)


def overlay_html(graph_html: str, module: HloModule, metric: str) -> str:
    """The graph wrapped with the overlay's colours and a line naming the hottest."""
    values = overlay_values(module, metric)
    return (f"<div class='{SCOPE}'><style>{overlay_css(values)}</style>"
            f"<div class='hloscope'><p>{html.escape(hottest(values, metric))}</p></div>{graph_html}</div>")
