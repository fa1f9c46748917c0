"""LLVM IR and assembly for the explorer's IR panel: per-kernel slices, highlighting, and the table
that links each fusion to its kernel and to the user's source lines.

A kernel is named after the HLO instruction it computes (`exponential_reduce_fusion`), and
the backend emits one LLVM function of that name, so the three views line up by name:

    fusion instruction  ->  define void @exponential_reduce_fusion(...)  ->  asm label
             |
             +-> fused instructions' metadata -> source_file:source_line
"""

from __future__ import annotations

import html
import linecache
import os
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..ir.module import HloModule
from ..ir.printer import format_computation
from .cost_html import timeline_html
from .hlo_html import hlo_block

if TYPE_CHECKING:  # the record is read, never imported: views sit below it
    from ..compilation.record import Compilation

MAX_LINES = 4000
ROW_PROGRAMS = "row programs (CPU interpreter)"
WHOLE = "(whole module)"
_LLVM_TOKEN = re.compile(
    r"(?P<comment>;[^\n]*)|(?P<string>\"[^\"\n]*\")|(?P<global>@[\w.$\"-]+)|(?P<local>%[\w.\"-]+)"
    r"|(?P<type>\b(?:i\d+|float|double|half|bfloat|ptr|void|<\d+ x [\w]+>)\b)"
    r"|(?P<word>\b(?:define|declare|ret|br|call|load|store|getelementptr|phi|icmp|fcmp|select|label|"
    r"alloca|fadd|fmul|fsub|fdiv|add|mul|sub|and|or|xor|shl|lshr|ashr|sext|zext|trunc|bitcast|"
    r"extractelement|insertelement|shufflevector|tail|noalias|align|inbounds|nuw|nsw|fast|reassoc)\b)"
    r"|(?P<escape>[&<>])"
)
_ASM_TOKEN = re.compile(
    r"(?P<comment>#[^\n]*)|(?P<label>^[\w.$]+:)|(?P<directive>^\s*\.\w+)|(?P<register>%[a-z0-9]+)"
    r"|(?P<immediate>\$-?[\w.]+)|(?P<escape>[&<>])",
    re.MULTILINE,
)
CSS = """
.hs-ir pre { font-size: 12px; line-height: 1.35; max-height: 40em; overflow: auto; background: #fafbfc;
  border: 1px solid #eaeef2; padding: 6px; }
.hs-ir .comment { color: #6e7781; } .hs-ir .string { color: #0a3069; }
.hs-ir .global { color: #8250df; font-weight: 600; }
.hs-ir .local { color: #953800; } .hs-ir .type { color: #0550ae; } .hs-ir .word { color: #cf222e; }
.hs-ir .label { color: #8250df; font-weight: 600; } .hs-ir .directive { color: #6e7781; }
.hs-ir .register { color: #953800; } .hs-ir .immediate { color: #0550ae; }
"""


def _highlighter(pattern: re.Pattern):
    def span(m: re.Match) -> str:
        kind, text = m.lastgroup, m.group(0)
        if kind == "escape":
            return html.escape(text)
        return f'<span class="{kind}">{html.escape(text)}</span>'

    return lambda text: pattern.sub(span, text)


highlight_llvm = _highlighter(_LLVM_TOKEN)
highlight_asm = _highlighter(_ASM_TOKEN)


def code_block(text: str, kind: str, max_lines: int = MAX_LINES) -> str:
    """A highlighted <pre> of LLVM IR ("llvm"), assembly ("asm") or HLO ("hlo")."""
    if kind == "hlo":
        return hlo_block(text, max_lines=max_lines)
    lines = text.split("\n")
    more = f"<p class='hs-note'>... {len(lines) - max_lines:,} more lines</p>" if len(lines) > max_lines else ""
    body = "\n".join(lines[:max_lines])
    code = highlight_llvm(body) if kind == "llvm" else highlight_asm(body)
    return f"<div class='hloscope hs-ir'><style>{CSS}</style><pre>{code}</pre>{more}</div>"


def llvm_function(ir: str, name: str) -> str:
    """The `define ... @name(...) { ... }` of one function ("" if absent)."""
    quoted = re.escape(name)
    m = re.search(rf"^define [^\n]*@(?:{quoted}|\"{quoted}\")\(.*?^\}}$", ir, re.MULTILINE | re.DOTALL)
    return m.group(0) if m else ""


def asm_function(asm: str, name: str) -> str:
    """The assembly of one function: from its label to its `.Lfunc_end` ("" if absent)."""
    m = re.search(rf"^{re.escape(name)}:\n.*?^\.Lfunc_end\d+:", asm, re.MULTILINE | re.DOTALL)
    return m.group(0) if m else ""


def ptx_function(ptx: str, name: str) -> str:
    """The `.entry name(...) { ... }` of one PTX kernel ("" if absent)."""
    m = re.search(rf"^(?:\.visible )?\.entry {re.escape(name)}\(.*?^\}}$", ptx, re.MULTILINE | re.DOTALL)
    return m.group(0) if m else ""


@dataclass(frozen=True)
class KernelRow:
    """One kernel: its HLO instruction, kind, the fused opcodes, and the source lines."""

    kernel: str
    instruction: str
    kind: str
    fused: str
    sources: tuple[str, ...]
    notes: str


def source_text(file: str | None, line: int | None) -> str:
    """`cell.py:12  y = x @ w` (the line's text when Python still has it)."""
    if not file:
        return ""
    text = linecache.getline(file, line or 0).strip() if line else ""
    where = f"{os.path.basename(file)}:{line}" if line else os.path.basename(file)
    return f"{where}  {text}" if text else where


def instruction_sources(module, inst) -> list[str]:
    """Source lines of an instruction, or of every instruction inside a fusion it calls."""
    insts = [inst]
    if inst.opcode == "fusion" and inst.attr("calls") and module.has_computation(inst.attr("calls")):
        insts = [i for i in module.computation(inst.attr("calls")) if i.opcode != "parameter"]
    seen = []
    for i in insts:
        where = module.source_of(i)
        text = source_text(where[0], where[1]) if where else ""
        if text and text not in seen:
            seen.append(text)
    return seen


def kernel_rows(module, kernels) -> list[KernelRow]:
    """The fusion <-> kernel <-> source line table."""
    entry = module.entry_computation
    rows = []
    for k in kernels:
        inst = entry[k.instruction] if k.instruction in entry else None
        fused = ""
        if inst is not None and inst.opcode == "fusion" and module.has_computation(inst.attr("calls") or ""):
            ops = [i.opcode for i in module.computation(inst.attr("calls")) if i.opcode != "parameter"]
            fused = ", ".join(dict.fromkeys(ops))
        elif inst is not None:
            fused = inst.opcode
        sources = tuple(instruction_sources(module, inst)) if inst is not None else ()
        name = k.name if k.llvm_function == k.name else f"{k.name} (in @{k.llvm_function})"
        rows.append(KernelRow(name, k.instruction, k.kind, fused, sources, "; ".join(k.notes)))
    return rows


def kernel_table_html(rows: list[KernelRow], parts: dict[str, str] | None = None) -> str:
    """The table; with `parts` (instruction -> forward / backward / other, for a training
    step) a column says which pass each kernel runs."""
    head = "".join(f"<th>{h}</th>" for h in ("kernel (LLVM function)", "HLO instruction", "kind", "fused ops",
                                            "source lines", "notes") + (("part",) if parts else ()))
    body = "".join(
        "<tr>" + "".join(f"<td>{c}</td>" for c in (
            f"<code>{html.escape(r.kernel)}</code>", html.escape(r.instruction), html.escape(r.kind),
            html.escape(r.fused), "<br>".join(f"<code>{html.escape(s)}</code>" for s in r.sources),
            html.escape(r.notes)) + ((html.escape(parts.get(r.instruction, "")),) if parts else ())) + "</tr>"
        for r in rows
    )
    return f"<table class='hs-table'><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


STABLEHLO, LEGALIZATION = "StableHLO (input)", "StableHLO -> HLO (legalization)"


def available_views(report: Compilation) -> list[str]:
    """The texts the record has now, in the order the IR tab lists them."""
    views = []
    if report.optimized_module is not None:
        views.append("HLO (optimized)")
    if report.input_module is not None:
        views.append("HLO (input)")
    if report.listing is not None:
        views.append("trace (numpy-level)")
    if report.legalization is not None:
        views += [STABLEHLO, LEGALIZATION]
    if row_programs(report, None):
        views.append(ROW_PROGRAMS)
    if report.llvm_ir:
        views.append("LLVM IR")
    if report.optimized_llvm_ir:
        views.append("LLVM IR (optimized)")
        if report.assembly_text.known or report.assembly_language == "PTX":
            views.append(report.assembly_language)
    if report.program:
        views.append("host program (GPU)")
    if report.assembly_language == "PTX" and report.assembler is not None:
        views.append("SASS")
        if getattr(report.assembler, "sass", ""):
            views.append("PTX | SASS")
    if report.thunks is not None:
        views.append("thunks & streams (GPU)")
    return views


def view_html(report: Compilation, view: str, kernel: str | None) -> str:
    """One view, narrowed to `kernel`'s part when one is picked."""
    if view.startswith("HLO"):
        module = report.module if view == "HLO (optimized)" else report.input_module
        assert module is not None, "available_views offers an HLO view only once its module exists"
        if kernel and view == "HLO (optimized)":
            instruction = next((k.instruction for k in report.kernels if k.name == kernel), kernel)
            return code_block(_fused_text(module, instruction), "hlo")
        return code_block(module.to_text(), "hlo")
    if view.startswith("trace"):
        return code_block(str(report.listing), "asm")
    if view in (STABLEHLO, LEGALIZATION):
        from .legalization_html import legalization_html, mlir_html

        return (mlir_html if view == STABLEHLO else legalization_html)(report.legalization)
    if view == ROW_PROGRAMS:
        return code_block(row_programs(report, kernel) or f"(no row program runs {kernel})", "asm")
    if view.startswith("host program"):
        return code_block(report.program, "asm")
    if view == "SASS":
        return code_block(sass_text(report, kernel), "asm")
    if view == "PTX | SASS":  # the virtual ISA next to the machine code ptxas made of it
        ptx = ptx_function(report.ptx, kernel) if kernel else report.ptx
        column = "<div style='flex:1;min-width:0'>{}</div>"
        return ("<div style='display:flex;gap:8px'>" + column.format(code_block(ptx, "asm"))
                + column.format(code_block(sass_text(report, kernel), "asm")) + "</div>")
    if view.startswith("thunks"):
        return timeline_html(report)
    if view.startswith("LLVM"):
        text = report.optimized_llvm_ir if "optimized" in view else report.llvm_ir
        part = llvm_function(text, _function_of(report, kernel)) if kernel else text
        return code_block(part or f"(no function @{kernel} in this IR)", "llvm")
    text = report.ptx if view == "PTX" else report.assembly
    part = ((ptx_function if view == "PTX" else asm_function)(text, _function_of(report, kernel))) if kernel else text
    return code_block(part or f"(no label {kernel}: in the assembly)", "asm")


def sass_text(report: Compilation, kernel: str | None) -> str:
    """The SASS ptxas's cubin holds (one kernel's, or all), or why there is none."""
    result = report.assembler
    if kernel:
        of = getattr(result, "sass_of", None)
        return of(kernel) if of else "no SASS"
    return getattr(result, "sass", "") or getattr(result, "sass_note", "no SASS")


def _fused_text(module: HloModule, kernel: str) -> str:
    """The kernel's instruction (named `kernel`), and the fused computation it calls."""
    entry = module.entry_computation
    if kernel not in entry:
        return f"// {kernel}: not an instruction of the ENTRY"
    inst = entry[kernel]
    text = str(inst)
    called = inst.attr("calls") if inst.opcode == "fusion" else None
    if called and module.has_computation(called):
        text = format_computation(module.computation(called)) + "\n\n// in ENTRY:\n" + text
    return text


def _function_of(report: Compilation, kernel: str) -> str:
    """The LLVM function that runs `kernel` (a row program's instructions share one)."""
    return next((k.llvm_function for k in report.kernels if k.name == kernel), kernel)


def row_programs(report: Compilation, kernel: str | None) -> str:
    """The listings of the CPU's row programs (backend/cpu/fast/rows/), or of the one running
    `kernel`: what the interpreter runs where LLVM IR shows only a call."""
    function = _function_of(report, kernel) if kernel else None
    listings = [n for k in report.kernels for n in k.notes if n.startswith("row program:")
                and (function is None or k.llvm_function == function)]
    return "\n\n".join(dict.fromkeys(listings))
