"""Views of a lazy-tensor run (hloscope.lazy): the steps as a timeline, one step's graph, and
the diff between the graphs of two steps that missed the cache.

Plain functions from step records to HTML (the records are duck-typed: `index`, `trigger`,
`source`, `cache_hit`, `compile_s`, `run_s`, `graph_size`, `listing`, ...), so they are
tested without Jupyter and shown by the explorer's lazy view (jupyter/panels/lazy_steps.py).
"""

from __future__ import annotations

import html
from typing import Any, Sequence

from .theme import style_block

_BAR_PX = 220  # the longest time's bar


def steps_timeline_html(steps: Sequence[Any]) -> str:
    """One row per step: compiled or a cache hit, compile and run time as bars, the graph's
    size, in-place updates, and what triggered it (mark_step, or an implicit sync and its line)."""
    if not steps:
        return style_block() + "<div class='hloscope'><p>no steps yet: run some lazy operations and lz.mark_step()</p></div>"
    longest = max(max(s.compile_s, s.run_s) for s in steps) or 1.0
    misses = sum(not s.cache_hit for s in steps)
    syncs = sum(s.implicit for s in steps)
    rows = []
    for s in steps:
        badge = ("<span class='badge'>cache hit</span>" if s.cache_hit
                 else "<span class='badge rejected'>compiled</span>")
        trigger = ("mark_step" if not s.implicit
                   else f"<span class='hs-note'>implicit sync: {html.escape(s.trigger)} at {html.escape(s.source)}</span>")
        rows.append(
            f"<tr class='{'unchanged' if s.cache_hit else 'rejected'}'><td class='num'>{s.index}</td><td>{badge}</td>"
            f"<td>{_bar(s.compile_s, longest, '#cf222e')} {_ms(s.compile_s) if not s.cache_hit else ''}</td>"
            f"<td>{_bar(s.run_s, longest, '#0969da')} {_ms(s.run_s)}</td>"
            f"<td class='num'>{s.graph_size}</td><td class='num'>{s.parameters}/{s.outputs}/{len(s.aliases)}</td>"
            f"<td><code>{html.escape(s.key_digest)}</code></td><td>{trigger}</td><td>{_why(s)}</td></tr>")
    head = ("<tr><th class='num'>step</th><th>graph cache</th><th>compile</th><th>run</th><th class='num'>nodes</th>"
            "<th class='num'>in/out/in place</th><th>key</th><th>triggered by</th><th>why it compiled</th></tr>")
    summary = (f"<p>{len(steps)} steps: {misses} compiled, {len(steps) - misses} cache hits, "
               f"{syncs} implicit syncs</p>")
    return (style_block() + "<div class='hloscope'><h3>Lazy steps</h3>" + summary
            + f"<div class='hs-scroll'><table class='hs-table'>{head}{''.join(rows)}</table></div></div>")


def _why(step: Any) -> str:
    """A compiled step's causes and the first way to avoid them (lazy/why.py)."""
    why = getattr(step, "why", None)
    if why is None or step.cache_hit:
        return ""
    if why.compared_with is None:
        return "<span class='hs-note'>first step</span>"
    advice = f"<br><span class='hs-note'>avoid: {html.escape(why.advice[0])}</span>" if why.advice else ""
    return html.escape("; ".join(why.causes)) + advice


def step_graph_html(step: Any) -> str:
    """The step's graph, one node per line, with the user's line of each operation."""
    head = html.escape(step.summary())
    lines = html.escape(step.graph_text())
    return (style_block() + f"<div class='hloscope'><h4>{head}</h4>"
            f"<div class='hs-scroll'><pre>{lines}</pre></div></div>")


def graph_diff_html(diff: Any) -> str:
    """What changed between two steps' graphs, the root changes first."""
    if not diff.changes:
        return style_block() + f"<div class='hloscope'><p>{html.escape(diff.summary())}</p></div>"
    rows = "".join(
        f"<tr class='{'rejected' if c.cause else 'unchanged'}'><td>{c.kind}</td>"
        f"<td>{'root change' if c.cause else 'follows'}</td><td><code>{html.escape(c.text())}</code></td></tr>"
        for c in sorted(diff.changes, key=lambda c: not c.cause))
    summary = html.escape(diff.summary()).replace("\n", "<br>")
    return (style_block() + f"<div class='hloscope'><h4>Why step {diff.after.index} missed the cache</h4>"
            f"<p>{summary}</p><table class='hs-table'><tr><th>what</th><th></th><th>change</th></tr>{rows}"
            "</table></div>")


def _bar(seconds: float, longest: float, color: str) -> str:
    width = max(1, int(_BAR_PX * seconds / longest)) if seconds > 0 else 0
    return f"<span style='display:inline-block;height:8px;width:{width}px;background:{color}'></span>"


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:.2f} ms"
