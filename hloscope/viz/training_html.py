"""A training step read per part: forward / backward / other counts, the fusions labelled with
their part (and which mix both passes), and the memory chart coloured by part with the table
of activations saved for the backward pass.

Every function here is for a module with a backward pass (`has_backward`); callers show
nothing extra for other modules. The classification is memory/training_parts.py's.
"""

from __future__ import annotations

import html

from ..memory.plan import MemoryPlan
from ..memory.saved_activations import SavedActivation, saved_activations, saved_bytes
from ..memory.training_parts import PARTS, classify, has_backward, part_counts
from .memory_chart import KIND_COLOR, human_bytes, memory_plan_html

PART_COLOR = {"forward": "#8250df", "backward": "#d6336c", "other": "#8c959f"}
SAVED_COLOR = "#e3b341"
MAX_ROWS = 200


def kernel_parts(module) -> dict[str, str]:
    """Entry instruction name -> forward / backward / other (mixed fusions say so), for
    labelling a kernel list; empty for a module without a backward pass."""
    if module is None or not has_backward(module):
        return {}
    return {name: p.part + (" (mixed)" if p.mixed else "") for name, p in classify(module).items()}


def _table(head: tuple, rows: list[tuple], num_cols: tuple = (), raw_cols: tuple = ()) -> str:
    """A table; cells are escaped except in `raw_cols` (already HTML)."""
    th = "".join(f"<th class='{'num' if i in num_cols else ''}'>{html.escape(h)}</th>" for i, h in enumerate(head))
    body = "".join("<tr>" + "".join(f"<td class='{'num' if i in num_cols else ''}'>"
                                    f"{c if i in raw_cols else html.escape(str(c))}</td>"
                                    for i, c in enumerate(row)) + "</tr>" for row in rows)
    return f"<table class='hs-table'><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


def _swatch(part: str) -> str:
    return f"<span style='color:{PART_COLOR[part]};font-weight:600'>{part}</span>"


def training_parts_html(module, before=None) -> str:
    """Forward / backward / other instruction counts (with `before`, the module the passes
    started from, both) and every fusion with its part."""
    if module is None or not has_backward(module):
        return ""
    counts = part_counts(module)
    line = ", ".join(f"{_swatch(p)} {counts[p]}" for p in PARTS)
    if before is not None and before is not module:
        first = part_counts(before)
        line = (", ".join(f"{_swatch(p)} {first[p]} &rarr; {counts[p]}" for p in PARTS)
                + " (before &rarr; after the passes)")
    fusions = [(n, p) for n, p in classify(module).items() if module.entry_computation[n].opcode == "fusion"]
    rows = [(n, _swatch(p.part), ", ".join(f"{k} {v}" for k, v in p.counts), "yes" if p.mixed else "")
            for n, p in fusions[:MAX_ROWS]]
    mixed = sum(1 for _, p in fusions if p.mixed)
    return (
        "<div class='hloscope hs-training-parts'><h4>Forward and backward</h4>"
        f"<p>instructions in ENTRY: {line} (from op_name scopes: <code>jvp(...)</code> is forward, "
        "<code>transpose(...)</code> backward)</p>"
        f"<p>{len(fusions)} fusions, {mixed} mixing forward and backward instructions</p>"
        + _table(("fusion", "part", "fused instructions by part", "mixes both"), rows, raw_cols=(1,)) + "</div>"
    )


def saved_activations_table_html(activations: list[SavedActivation]) -> str:
    """The table "activations saved for the backward pass", with the total."""
    rows = [(a.value, a.buffer, f"{a.size:,}", f"{a.made_at} .. {a.last_read}", ", ".join(a.readers))
            for a in activations[:MAX_ROWS]]
    more = f"<p>... {len(activations) - MAX_ROWS:,} more</p>" if len(activations) > MAX_ROWS else ""
    total = saved_bytes(activations)
    return (
        "<div class='hs-saved-activations'><h4>Activations saved for the backward pass</h4>"
        f"<p><b>{len(activations)} values, {human_bytes(total)} ({total:,} bytes)</b> made by the forward pass "
        "and read by the backward pass: their buffers stay live across the boundary. Recomputing them "
        "in the backward pass instead (rematerialization) would free these bytes between the two passes, "
        "at the price of computing them twice.</p>"
        + _table(("made by (forward)", "buffer", "bytes", "live (positions)", "read by (backward)"), rows, (2,))
        + more + "</div>"
    )


def part_buffer_colors(module, plan, activations: list[SavedActivation]) -> dict[str, str]:
    """Buffer label -> colour: saved activations, then arena buffers by the part of the value
    that defines them; other buffers keep their kind's colour."""
    parts = classify(module)
    colors = {}
    for b in plan.buffers:
        part = parts[b.name].part if b.name in parts else "other"
        if b.offset is not None and part != "other":
            colors[b.label] = PART_COLOR[part]
    for a in activations:
        colors[a.buffer] = SAVED_COLOR
    return colors


def part_legend() -> dict[str, str]:
    return {"forward": PART_COLOR["forward"], "backward": PART_COLOR["backward"], "saved for backward": SAVED_COLOR,
            "other temporary": KIND_COLOR["temporary"], "output": KIND_COLOR["output"],
            "parameter": KIND_COLOR["parameter"], "constant": KIND_COLOR["constant"]}


def shows_training(module, plan) -> bool:
    """A backward pass, and hloscope's own plan of this very module (XLA's plan of a loaded
    dump names other buffers: it is shown plain)."""
    return (module is not None and isinstance(plan, MemoryPlan) and has_backward(module)
            and set(plan.schedule) <= set(classify(module)))


def training_memory_html(module, plan, extra: str = "") -> str:
    """The memory plan coloured by part, with the saved activations; the plain plan when the
    module has no backward pass. `extra` goes between the chart and the table of buffers."""
    if not shows_training(module, plan):
        return memory_plan_html(plan, extra=extra)
    activations = saved_activations(module, plan)
    return memory_plan_html(plan, colors=part_buffer_colors(module, plan, activations), legend=part_legend(),
                            extra=saved_activations_table_html(activations) + extra)
