"""A summary of a computation for when its graph is too big (or too slow) to draw.

Instead of a hairball: how many instructions of each opcode, and each fusion with its kind
and size. Shown as HTML next to the HLO text, or as a one-node DOT graph.
"""

from __future__ import annotations

import html
from collections import Counter
from dataclasses import dataclass

from .dot_style import quote

MAX_FUSION_ROWS = 200


@dataclass(frozen=True)
class FusionInfo:
    name: str
    kind: str
    computation: str
    size: int  # instructions in the fused computation, parameters excluded
    opcodes: str  # e.g. "broadcast, subtract, exponential"


@dataclass(frozen=True)
class ComputationSummary:
    computation: str
    instructions: int
    opcodes: tuple[tuple[str, int], ...]  # most frequent first
    fusions: tuple[FusionInfo, ...]


def computation_summary(module, comp) -> ComputationSummary:
    """Opcode counts of `comp` and a row per fusion instruction in it."""
    counts = Counter(inst.opcode for inst in comp)
    fusions = []
    for inst in comp:
        name = inst.attr("calls") if inst.opcode == "fusion" else None
        if name and module.has_computation(name):
            body = [i for i in module.computation(name) if i.opcode != "parameter"]
            ops = ", ".join(dict.fromkeys(i.opcode for i in body))
            fusions.append(FusionInfo(inst.name, str(inst.attr("kind", "?")), name, len(body), ops))
    ranked = tuple(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
    return ComputationSummary(comp.name, len(comp), ranked, tuple(fusions))


def summary_html(summary: ComputationSummary, message: str = "") -> str:
    """Two small tables (opcodes, fusions) with an optional note saying why no graph is drawn."""
    note = f'<p class="hs-note">{html.escape(message)}</p>' if message else ""
    ops = "".join(f"<tr><td>{html.escape(op)}</td><td class='num'>{n}</td></tr>" for op, n in summary.opcodes)
    rows = [
        f"<tr><td>{html.escape(f.name)}</td><td>{html.escape(f.kind)}</td><td class='num'>{f.size}</td>"
        f"<td>{html.escape(f.opcodes)}</td></tr>"
        for f in summary.fusions[:MAX_FUSION_ROWS]
    ]
    more = len(summary.fusions) - MAX_FUSION_ROWS
    if more > 0:
        rows.append(f"<tr><td colspan='4'>... {more} more fusions</td></tr>")
    fusion_table = (
        "<table class='hs-table'><thead><tr><th>fusion</th><th>kind</th><th>size</th><th>fused opcodes</th>"
        f"</tr></thead><tbody>{''.join(rows)}</tbody></table>"
        if rows
        else ""
    )
    return (
        f'<div class="hs-summary">{note}<p><b>{html.escape(summary.computation)}</b>: '
        f"{summary.instructions} instructions, {len(summary.fusions)} fusions</p>"
        "<table class='hs-table'><thead><tr><th>opcode</th><th>count</th></tr></thead>"
        f"<tbody>{ops}</tbody></table>{fusion_table}</div>"
    )


def summary_dot(summary: ComputationSummary, reason: str, id_prefix: str = "") -> str:
    """A one-node graph listing the opcode counts (what `module_to_dot` gives past max_nodes)."""
    lines = [f"{summary.computation}: {summary.instructions} instructions - summary", f"({reason})", ""]
    lines += [f"{op} x {n}" for op, n in summary.opcodes[:40]]
    kinds = Counter(f.kind for f in summary.fusions)
    lines += [f"{kind} fusions x {n}" for kind, n in sorted(kinds.items())]
    label = "\\l".join(line.replace("\\", "\\\\").replace('"', '\\"') for line in lines) + "\\l"
    return (
        f"digraph {quote(summary.computation + ' (summary)')} {{\n"
        f"  // hloscope: summary\n  summary [id={quote(id_prefix + 'summary')}, shape=note, "
        f'fontname="Helvetica", fontsize=10, label="{label}"];\n}}\n'
    )
