"""A Comparison's tables as plain rows, markdown (for notes), HTML (notebooks, the explorer's
"vs XLA" tab) and text (print)."""

from __future__ import annotations

import html as html_lib
from typing import TYPE_CHECKING, Sequence

from ..viz.memory_peak_html import memory_peak_html

if TYPE_CHECKING:  # compare.py imports this module
    from .compare import Comparison

STAGE_HEAD = ("role", "XLA steps", "XLA instructions after", "hloscope passes", "hloscope instructions after")
FUSION_HEAD = ("match", "XLA", "hloscope", "hloscope's reason")
SUMMARY_HEAD = ("", "XLA", "hloscope")


def stage_rows(c: Comparison) -> list[tuple[str, str, str, str, str]]:
    return [(r.role, r.xla.describe(), r.xla.counts(), r.hloscope.describe(), r.hloscope.counts()) for r in c.stages]


def summary_rows(c: Comparison) -> list[tuple[str, str, str]]:
    """(what, XLA, hloscope): the module, the stages, fusions, memory, time, outputs."""
    xla, ours = c.xla, c.hloscope
    rows = [("input instructions", _count(xla.input_module), _count(ours.input_module if ours else None))]
    rows += [(f"{r.role}: runs (changed)", r.xla.describe(), r.hloscope.describe()) for r in c.stages]
    rows.append(("optimized instructions (ENTRY)", _count(xla.optimized_module, entry=True),
                 _count(ours.optimized_module if ours else None, entry=True)))
    rows.append(("fusions", str(sum(len(m.xla) for m in c.fusions)), str(sum(len(m.hloscope) for m in c.fusions))))
    rows.append(("fusion matches", ", ".join(f"{n} {s}" for s, n in c.status_counts().items()), ""))
    names = ("total bytes", "parameters + constants", "scratch (temps + output)", "live at the peak")
    rows += [(f"memory: {n}", a, b) for n, a, b in zip(names, c.xla_memory.cells(), c.hloscope_memory.cells())]
    xt, ht = c.timing("XLA"), c.timing("hloscope")
    rows.append(("run time (median)", _seconds(xt), _seconds(ht)))
    if c.outputs:
        rows.append(("outputs", "", c.outputs))
    return rows


def _count(module, entry: bool = False) -> str:
    if module is None:
        return "-"
    return str(len(module.entry_computation) if entry else module.instruction_count())


def _seconds(t) -> str:
    if t is None:
        return "-"
    if t.seconds is None:
        return t.note
    return f"{t.seconds * 1e6:,.1f} µs ({t.runs} runs)"


# ---- markdown ----
def _md_table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    def cell(text: str) -> str:
        return str(text).replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(cell(x) for x in row) + " |" for row in rows]
    return "\n".join(lines)


def markdown(c: Comparison) -> str:
    parts = [f"### {c.name}: XLA vs hloscope", _md_table(SUMMARY_HEAD, summary_rows(c)),
             "#### Pipelines by role", _md_table(STAGE_HEAD, stage_rows(c)),
             "#### Fusions", _md_table(FUSION_HEAD, c.fusion_rows())]
    if c.problems:
        parts.append("Not compared: " + "; ".join(c.problems))
    return "\n\n".join(parts) + "\n"


# ---- HTML ----
def _html_table(head: Sequence[str], rows: Sequence[Sequence[str]], cls: str) -> str:
    th = "".join(f"<th>{html_lib.escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{html_lib.escape(str(x))}</td>" for x in row) + "</tr>" for row in rows)
    return f"<table class='hs-table {cls}'><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


def html(c: Comparison) -> str:
    problems = "".join(f"<p class='hs-note'>not compared: {html_lib.escape(p)}</p>" for p in c.problems)
    return (f"<div class='hloscope hs-vs-xla'><h4>{html_lib.escape(c.name)}: XLA vs hloscope</h4>{problems}"
            f"{_html_table(SUMMARY_HEAD, summary_rows(c), 'hs-vs-summary')}"
            f"<h4>Pipelines by role</h4>{_html_table(STAGE_HEAD, stage_rows(c), 'hs-vs-stages')}"
            f"<h4>Fusions, matched by the operations they cover</h4>"
            f"{_html_table(FUSION_HEAD, c.fusion_rows(), 'hs-vs-fusions')}{_peaks_html(c)}"
            + (c.partitioning._repr_html_() if c.partitioning is not None else "") + "</div>")


def _peaks_html(c: Comparison) -> str:
    """Both plans' memory at the peak, side by side: every buffer live there and why."""
    sides = [(name, side.at_peak) for name, side in (("XLA", c.xla_memory), ("hloscope", c.hloscope_memory))]
    if all(at is None for _, at in sides):
        return ""
    cells = "".join(f"<div style='flex:1;min-width:0;overflow:auto'><h4>{name}</h4>"
                    + (memory_peak_html(at) if at is not None else "<p class='hs-note'>no memory plan</p>") + "</div>"
                    for name, at in sides)
    plan = c.xla.memory_plan
    own, where = getattr(plan, "live_peak_bytes", 0), getattr(plan, "live_peak_position", None)
    note = (f"<p class='hs-note'>XLA's own live-range dump puts its peak at position {where} with "
            f"{own:,} bytes: it adds up values, so two that take one buffer in turn count twice where their "
            f"ranges touch; the table adds up buffers.</p>" if own else "")
    return f"<h4>Memory at the peak</h4>{note}<div class='hs-vs-peaks' style='display:flex;gap:12px'>{cells}</div>"


# ---- text ----
def text(c: Comparison) -> str:
    width = max(len(r[0]) for r in summary_rows(c))
    lines = [f"{c.name}: XLA vs hloscope"]
    lines += [f"  {what:<{width}}  {a:>24}  {b}" for what, a, b in summary_rows(c)]
    lines += ["fusions:"] + [f"  {s:<13} {x} | {h}" + (f"\n      {why}" if why else "")
                             for s, x, h, why in c.fusion_rows()]
    return "\n".join(lines + [f"not compared: {p}" for p in c.problems])
