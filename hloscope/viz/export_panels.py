"""The panels of the HTML export other than the stepper: Overview, Graph, Memory, IR, Run,
and vs XLA for a record that is part of a hloscope.xla.compare.

Each function returns the inner HTML of one `<section class="panel">`; none needs a browser.
"""

from __future__ import annotations

import html
from collections import Counter
from typing import TYPE_CHECKING, Any

from .cost_view import estimate_vs_measured_line
from .hlo_html import hlo_block
from .memory_chart import human_bytes, memory_plan_html
from .memory_peak_html import memory_peak_section
from .records_html import records_table_html
from .training_html import kernel_parts, training_memory_html, training_parts_html

if TYPE_CHECKING:  # the record is read, never imported: views sit below it
    from ..compilation.record import Compilation

MAX_IR_LINES = 20_000

def _table(head: tuple, rows: list[tuple], num_cols: tuple = ()) -> str:
    th = "".join(f"<th class='{'num' if i in num_cols else ''}'>{html.escape(h)}</th>" for i, h in enumerate(head))
    body = "".join(
        "<tr>"
        + "".join(f"<td class='{'num' if i in num_cols else ''}'>{html.escape(str(c))}</td>" for i, c in enumerate(row))
        + "</tr>"
        for row in rows
    )
    return f"<table class='hs-table'><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


def module_counts(module) -> list[tuple[str, str]]:
    """(what, how many) facts about a module for the overview."""
    kinds = Counter(str(i.attr("kind")) for _, i in module.all_instructions() if i.opcode == "fusion")
    entry = module.entry_computation
    facts = [
        ("computations", str(len(module.computations))),
        ("instructions", str(module.instruction_count())),
        (f"instructions in ENTRY {entry.name}", str(len(entry))),
    ]
    facts += [(f"{kind} fusions", str(n)) for kind, n in sorted(kinds.items())]
    return facts


def overview_panel(c: Compilation, stepper_seconds: float) -> str:
    """Stages, module counts, the memory peak, and the table of every pass run."""
    parts = []
    records, module, memory_plan = c.records, c.module, c.memory_plan
    if c.stages:
        rows = [(s.name, f"{s.seconds * 1e3:.2f}", s.note) for s in c.stages]
        parts += ["<h4>Compiler stages</h4>", _table(("stage", "ms", "note"), rows, (1,))]
    facts = []
    if records:
        first = records[0].before
        changed = sum(1 for r in records if r.changed)
        facts += [
            ("input instructions", str(first.instruction_count())),
            ("pass runs", f"{len(records)} ({changed} changed the module)"),
            ("time in passes", f"{sum(r.seconds for r in records) * 1e3:.2f} ms"),
        ]
    if module is not None:
        facts += module_counts(module)
    if memory_plan is not None:
        facts.append(("memory arena peak", f"{human_bytes(memory_plan.peak_bytes)} ({memory_plan.peak_bytes:,} bytes)"))
    if cost_line := estimate_vs_measured_line(c):
        facts.append(("cost model", cost_line))
    facts.append(("graph layout at export", f"{stepper_seconds:.2f} s"))
    parts += ["<h4>Summary</h4>", _table(("", "value"), facts)]
    # nothing unless the module has a backward pass
    parts.append(training_parts_html(module, records[0].before if records else None))
    if records:
        parts += [
            "<h4>Passes</h4><p>Click a row to open it in the pass stepper.</p>",
            records_table_html(records, with_style=False),
        ]
    return "".join(parts)


def memory_panel(memory_plan, module=None) -> str:
    """The plan's chart and table; for a training step's module, coloured by forward /
    backward with the activations saved for the backward pass."""
    if memory_plan is None:
        return "<p class='hs-empty'>no memory plan given</p>"
    return training_memory_html(module, memory_plan, extra=memory_peak_section(memory_plan, module))


def ir_texts(c: Compilation) -> list[tuple[str, str, bool]]:
    """(title, text, is_hlo) for every IR the export shows: HLO after and before the
    passes, then LLVM IR, assembly or PTX, and the host program."""
    texts = []
    if c.module is not None:
        texts.append(("HLO (optimized)" if c.records else "HLO", c.module.to_text(), True))
    if c.records:
        texts.append(("HLO (input, before any pass)", c.records[0].before.to_text(), True))
    code = (("LLVM IR", c.llvm_ir), ("optimized LLVM IR", c.optimized_llvm_ir),
            (c.assembly_language, c.assembly if c.optimized_llvm_ir else ""), ("host program (GPU)", c.program),
            ("SASS", getattr(c.assembler, "sass", "")),
            ("thunks on streams (GPU)", c.thunks.text() if c.thunks else ""))
    if c.legalization is not None:  # StableHLO given: the text and what each operation became
        from .legalization_html import legalization_text

        code = (("StableHLO (input)", c.legalization.mlir_text),
                ("StableHLO -> HLO (legalization)", legalization_text(c.legalization)), *code)
    return texts + [(title, text, False) for title, text in code if text]


def _plain_block(text: str, max_lines: int = MAX_IR_LINES) -> str:
    lines = text.split("\n")
    more = f"<p class='hs-note'>... {len(lines) - max_lines:,} more lines</p>" if len(lines) > max_lines else ""
    return f"<pre class='plain'>{html.escape(chr(10).join(lines[:max_lines]))}</pre>{more}"


def ir_panel(texts: list[tuple[str, str, bool]]) -> str:
    """Each text in a collapsible section; HLO is syntax-highlighted, the rest plain."""
    if not texts:
        return "<p class='hs-empty'>no IR given</p>"
    parts = []
    for i, (title, text, is_hlo) in enumerate(texts):
        body = hlo_block(text, max_lines=MAX_IR_LINES) if is_hlo else _plain_block(text)
        lines = text.count("\n") + 1
        parts.append(
            f"<details class='ir' id='ir-{i}'{' open' if i == 0 else ''}><summary><b>{html.escape(title)}</b> "
            f"({lines:,} lines)</summary>{body}</details>"
        )
    return "".join(parts)


def run_panel(c: Compilation) -> str:
    """The run's timings and the compilation's kernels."""
    parts = []
    rows = [(name, f"{seconds * 1e3:.3f}", note) for name, seconds, note in c.timing_rows()]
    if rows:
        parts += ["<h4>Timings</h4>", _table(("what", "ms", "note"), rows, (1,))]
    if c.kernels:
        krows: list[tuple[Any, ...]] = [(k.name, k.instruction, k.kind, k.partitions, "; ".join(k.notes))
                                        for k in c.kernels]
        head: tuple = ("kernel", "instruction", "kind", "partitions", "notes")
        part = kernel_parts(c.module)  # a training step's kernels say which pass they run
        if part:
            krows = [row + (part.get(k.instruction, ""),) for row, k in zip(krows, c.kernels)]
            head += ("part",)
        parts += ["<h4>Kernels</h4>", _table(head, krows, (3,))]
    return "".join(parts) or "<p class='hs-empty'>not run, and no kernels: the passes alone</p>"


def vs_xla_panel(c: Compilation) -> str:
    """The comparison's tables (hloscope.xla.Comparison draws itself: views never import it)."""
    comparison = c.comparison
    if comparison is None:
        return "<p class='hs-empty'>not compared with XLA (hloscope.xla.compare)</p>"
    return comparison.html()


def whatif_panel(c: Compilation) -> str:
    """The what-if experiments run from this record (hloscope.whatif), newest last; each
    draws itself (views never import the experiment)."""
    if not c.experiments:
        return "<p class='hs-empty'>no what-if experiment was run (hloscope.whatif)</p>"
    return "".join(e.html(graphs=False) for e in c.experiments)
