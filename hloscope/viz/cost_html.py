"""The cost model in the explorer: per-kernel estimates, the CPU's estimate against its
measured time, what a fusion pass saved, and the GPU program's stream timeline.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from ..cost import GPUS, analyze, module_totals
from ..cost.analysis import nbytes
from ..passes.record import PassRecord
from .cost_view import estimate_vs_measured, kernel_estimates, megabytes, seconds
from .stream_timeline import timeline_svg

if TYPE_CHECKING:  # the record is read, never imported: views sit below it
    from ..compilation.record import Compilation

SAVING_TARGET = "H200"
MAX_LINES = 8  # per-fusion and per-decision lines shown under a pass run


def kernel_estimates_html(c: Compilation) -> str:
    """A table: each kernel's flops, bytes and roofline estimate per target."""
    rows = kernel_estimates(c)
    if not rows:
        return ""
    names = list(rows[0].estimates)
    head = "".join(f"<th>{h}</th>" for h in ["kernel", "flops", "transc.", "bytes"] + [f"{n} (est.)" for n in names])
    body = "".join(
        "<tr>" + "".join(f"<td>{v}</td>" for v in [f"<code>{html.escape(k.name)}</code>", f"{k.cost.flops:,}",
                                                   f"{k.cost.transcendentals:,}", megabytes(k.cost.bytes_accessed)]
                         + [seconds(k.estimates[n]) for n in names]) + "</tr>"
        for k in rows)
    return ("<div class='hloscope'><h4>Cost model: work and roofline estimate per kernel</h4>"
            f"<table class='hs-table'><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>")


def estimate_vs_measured_html(c: Compilation) -> str:
    """"estimated 1.2 ms vs measured 1.5 ms (1.25x)" for a CPU record that ran."""
    pair = estimate_vs_measured(c)
    if pair is None:
        return ""
    est, measured = pair
    return (f"<div class='hloscope'><p><b>Cost model on this CPU</b>: estimated {seconds(est)} "
            f"(roofline, sum over kernels) vs measured {seconds(measured)}: measured/estimated "
            f"{measured / est:.2f}x</p></div>")


def fusion_saving_text(r: PassRecord, target: str = SAVING_TARGET) -> str:
    """What a fusion pass run saved in memory traffic, in words ("" when it fused nothing or
    saved nothing)."""
    if not r.changed or not any(d.accepted and d.action == "fused" for d in r.log):
        return ""
    saved = module_totals(r.before).bytes_accessed - module_totals(r.after).bytes_accessed
    if saved <= 0:
        return ""
    lines = [f"fusing saves {megabytes(saved)} of traffic, about {seconds(saved / GPUS[target].bandwidth)} "
             f"on {target}"]
    before, after = analyze(r.before), analyze(r.after)
    new = [c for c in after.values() if c.opcode == "fusion" and not c.fused_in and c.name not in before]
    for fusion in new[:MAX_LINES]:
        inside = [after[n] for n in after if after[n].fused_in == fusion.name and after[n].opcode != "parameter"]
        unfused = sum(before[i.name].bytes_accessed for i in inside if i.name in before and not before[i.name].fused_in)
        if unfused > fusion.bytes_accessed:
            lines.append(f"{fusion.name}: {megabytes(unfused - fusion.bytes_accessed)} less "
                         f"({megabytes(unfused)} unfused, {megabytes(fusion.bytes_accessed)} fused)")
    return "\n".join(lines + decision_savings(r, target))


def decision_savings(r: PassRecord, target: str = SAVING_TARGET) -> list[str]:
    """Per accepted fusion decision: the producer's result is no longer written to memory
    and read back by its consumer, so 2x its bytes are saved (once per fusion decision)."""
    entry = r.before.entry_computation
    lines = []
    fused = [d for d in r.log if d.accepted and d.action == "fused" and d.subject in entry]
    for d in fused[:MAX_LINES]:
        saved = 2 * nbytes(entry[d.subject].shape)
        into = f" into {d.target}" if d.target else ""
        lines.append(f"fused {d.subject}{into}: saves {megabytes(saved)} of traffic, about "
                     f"{seconds(saved / GPUS[target].bandwidth)} on {target}")
    if len(fused) > MAX_LINES:
        lines.append(f"... and {len(fused) - MAX_LINES} more fusion decisions")
    return lines


def fusion_saving_html(r: PassRecord) -> str:
    text = fusion_saving_text(r)
    if not text:
        return ""
    first, *rest = text.splitlines()
    more = "".join(f"<li>{html.escape(line)}</li>" for line in rest)
    return f"<p class='hs-fusion-saving'><b>{html.escape(first)}</b></p>" + (f"<ul>{more}</ul>" if more else "")


def timeline_html(c: Compilation, target: str = SAVING_TARGET) -> str:
    """The GPU program's thunks on their streams, as estimated on `target`, and the listing."""
    if c.thunks is None:
        return "<div class='hloscope'><p>no thunk sequence: this is not a GPU compilation</p></div>"
    peaks = GPUS[target]
    estimates = {k.name: k.estimates[target] for k in kernel_estimates(c, cpu=False)}
    svg = timeline_svg(c.thunks, estimates, peaks.bandwidth, target)
    return (f"<div class='hloscope'>{svg}<pre class='hs-code'>{html.escape(c.thunks.text())}</pre></div>")
