"""Graph: the final module, fusions drawn as clusters.

Pick an instruction from the list to see its HLO, its metadata, the user's source line, and
every decision any pass logged about it (fused, kept, rewritten...); the node is outlined in
the graph (by CSS, so no new layout). "show refused fusions" adds the candidates the fusion
passes turned down as dashed red edges, each with its reason as a tooltip. A graph too big to
draw well is replaced by a summary and the HLO text, saying why.
"""

from __future__ import annotations

import html

import ipywidgets as w

from ...ir.printer import format_instruction
from ...viz.hlo_html import hlo_block
from ...viz.theme import style_block
from ..graphs import graph_block, graph_spec, rejections
from ..ir_text import source_text
from .base import Panel, waiting

MAX_CHOICES = 3000


class GraphPanel(Panel):
    title = "Graph"

    def __init__(self, layouts=None):
        super().__init__(layouts)
        self.module = None
        self.records: list = []
        self.choice = w.Dropdown(options=[("(none)", "")], description="instruction", layout=w.Layout(width="460px"))
        self.rejected = w.Checkbox(False, description="show refused fusions", indent=False)
        self.graph = w.HTML(waiting("the passes"))
        self.details = w.HTML()
        self.widget = w.VBox([w.HBox([self.choice, self.rejected]), self.details, self.graph])
        self.choice.observe(lambda _: self._select(), names="value")
        self.rejected.observe(lambda _: self._draw(), names="value")

    def update(self, report) -> None:
        module = report.module if report.optimize_result is not None else None
        if module is None or module is self.module:
            return
        self.module, self.records = module, report.records
        self.choice.options = [("(none)", "")] + instruction_choices(module)
        if self.active:
            self._draw()

    def activate(self) -> None:
        super().activate()
        self._draw()

    def spec(self):
        rejected = ()
        if self.rejected.value:
            rejected = tuple(x for r in self.records for x in rejections(r))
        return graph_spec(self.module, rejected=rejected, id_prefix="g-")

    def _draw(self) -> None:
        if self.module is not None and self.active:
            self.graph.value = graph_block(self.layouts, self.spec(), self.choice.value or None)

    def _select(self) -> None:
        name = self.choice.value
        self.details.value = instruction_details(self.module, self.records, name) if name else ""
        self._draw()


def instruction_choices(module) -> list[tuple[str, str]]:
    """(label, name) for every instruction, the ENTRY first, then fused computations."""
    entry = module.entry_computation
    comps = [entry] + [c for c in module.computations if c is not entry]
    out = []
    for comp in comps:
        for inst in comp:
            where = "" if comp is entry else f"  [in {comp.name}]"
            out.append((f"{inst.name}  ({inst.opcode}){where}", inst.name))
            if len(out) >= MAX_CHOICES:
                return out
    return out


def _find(module, name: str):
    for comp, inst in module.all_instructions():
        if inst.name == name:
            return comp, inst
    return None, None


def instruction_details(module, records, name: str) -> str:
    """HLO, metadata, source line and the decisions about one instruction."""
    comp, inst = _find(module, name)
    if inst is None:
        return ""
    parts = [f"<div class='hloscope hs-instruction'>{style_block()}<h4>{html.escape(name)}</h4>",
             hlo_block(format_instruction(inst)),
             f"<p>in computation <b>{html.escape(comp.name)}</b>{_fusion_of(module, comp)}</p>"]
    where = module.source_of(inst)
    if where:
        parts.append(f"<p>source: <code>{html.escape(source_text(where[0], where[1]))}</code>"
                     f"{' — ' + html.escape(str(where[2])) if where[2] else ''}</p>")
    parts.append(decisions_about(records, name))
    return "".join(parts) + "</div>"


def _fusion_of(module, comp) -> str:
    for _, inst in module.all_instructions():
        if inst.opcode == "fusion" and inst.attr("calls") == comp.name:
            return f", fused into <b>{html.escape(inst.name)}</b> ({html.escape(str(inst.attr('kind')))})"
    return ""


def decisions_about(records, name: str) -> str:
    rows = []
    for i, r in enumerate(records):
        for d in r.log:
            if name in (d.subject, d.target):
                mark = "accepted" if d.accepted else "rejected"
                rows.append(f"<tr class='{mark}'><td class='num'>{i}</td><td>{html.escape(r.name)}</td>"
                            f"<td class='action'>{html.escape(d.action)}{'' if d.accepted else ' (refused)'}</td>"
                            f"<td>{html.escape(d.subject)}</td><td>{html.escape(d.target or '')}</td>"
                            f"<td>{html.escape(d.reason)}</td></tr>")
    if not rows:
        return "<p style='color:#57606a'>no pass logged a decision about it</p>"
    head = "<tr><th>#</th><th>pass</th><th>action</th><th>subject</th><th>target</th><th>reason</th></tr>"
    table = f"<table class='hs-table'><thead>{head}</thead><tbody>{''.join(rows)}</tbody></table>"
    return f"<h4>Decisions about it</h4>{table}"
