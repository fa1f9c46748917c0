"""One instruction of a module in HTML: its HLO, metadata, source line, and every decision
a pass logged about it (the explorer's Graph tab shows this for the picked instruction).
"""

from __future__ import annotations

import html

from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.module import HloModule
from ..ir.printer import format_instruction
from ..passes.record import PassRecord
from .conv_words import describe_convolution
from .hlo_html import hlo_block
from .ir_text import source_text
from .theme import style_block

MAX_CHOICES = 3000


def instruction_choices(module: HloModule) -> list[tuple[str, str]]:
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


def _find(module: HloModule, name: str) -> tuple[Computation, Instruction] | None:
    for comp, inst in module.all_instructions():
        if inst.name == name:
            return comp, inst
    return None


def instruction_details(module: HloModule, records: list[PassRecord], name: str) -> str:
    """HLO, metadata, source line and the decisions about one instruction."""
    found = _find(module, name)
    if found is None:
        return ""
    comp, inst = found
    parts = [f"<div class='hloscope hs-instruction'>{style_block()}<h4>{html.escape(name)}</h4>",
             hlo_block(format_instruction(inst)),
             _in_words(inst, comp),
             f"<p>in computation <b>{html.escape(comp.name)}</b>{_fusion_of(module, comp)}</p>"]
    where = module.source_of(inst)
    if where:
        parts.append(f"<p>source: <code>{html.escape(source_text(where[0], where[1]))}</code>"
                     f"{' — ' + html.escape(str(where[2])) if where[2] else ''}</p>")
    parts.append(decisions_about(records, name))
    return "".join(parts) + "</div>"


def _in_words(inst: Instruction, comp: Computation) -> str:
    """A sentence for ops whose attributes are hard to read (convolution's dim_labels, window)."""
    if inst.opcode != "convolution":
        return ""
    return f"<p class='hs-words'>{html.escape(describe_convolution(inst, comp))}</p>"


def _fusion_of(module, comp) -> str:
    for _, inst in module.all_instructions():
        if inst.opcode == "fusion" and inst.attr("calls") == comp.name:
            return f", fused into <b>{html.escape(inst.name)}</b> ({html.escape(str(inst.attr('kind')))})"
    return ""


def decisions_about(records: list[PassRecord], name: str) -> str:
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
