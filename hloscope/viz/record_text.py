"""A compilation as plain text: what `print(exe.report)` and `hlo_report.summary()` show.

    hloscope cpu compile (miss), 128.4 ms
      parse       0.31 ms  12 lines
      ...
      3 kernels, arena 66,048 B, object 5,120 B
        softmax_fusion     reduce  x2 threads  ...

For the passes alone (`hloscope.optimize`) it is the table of pass runs instead; for an
explorer's record it adds what the compiler achieved (sizes, fusions, memory, speed).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from .memory_chart import human_bytes

if TYPE_CHECKING:  # the record is read, never imported: views sit below it
    from ..compilation.record import Compilation


def summary(c: Compilation) -> str:
    lines = [_head(c)]
    lines += [_stage_line(s) for s in c.stages]
    if (not c.target or c.target.startswith("xla:")) and c.records:  # XLA's dump: its passes are the story
        lines += ["", *pass_table(c)]
    if c.has_stage("run"):  # a session's record: say what the compiler achieved
        lines += [f"  {k}: {v}" for k, v in facts(c)]
    lines += _code_lines(c)
    if c.xla_memory_total_bytes:
        lines.append(f"  XLA buffer assignment: {c.xla_memory_total_bytes:,} B in all")
    return "\n".join(lines)


def _head(c: Compilation) -> str:
    if c.title != "hloscope":
        return c.title
    where = f" ({c.cache})" if c.cache else ""
    what = f"{c.target} compile" if c.target else "passes"
    sm = f" for {c.sm}" if c.sm else ""
    return f"hloscope {what}{sm}{where}, {c.total_seconds * 1e3:.1f} ms"


def _stage_line(s) -> str:
    ms = f"{s.seconds * 1e3:8.2f} ms" if s.status in ("done", "failed") else " " * 11
    status = "" if s.status == "done" else f"[{s.status}] "
    return f"  {s.name:<10} {ms}  {status}{s.note}"


def pass_table(c: Compilation) -> list[str]:
    """One row per pass run, then the instruction counts and the passes' time."""
    rows = [("pass", "pipeline", "iter", "changed", "ms", "decisions", "instructions")]
    for r in c.records:
        rows.append((r.name, r.pipeline, str(r.iteration), "yes" if r.changed else "", f"{r.seconds * 1e3:.2f}",
                     str(len(r.log)), str(r.after.instruction_count())))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    before = c.input_module.instruction_count() if c.input_module is not None else 0
    after = c.module.instruction_count() if c.module is not None else 0
    seconds = sum(r.seconds for r in c.records)
    lines.append(f"{before} -> {after} instructions, {len(c.changed_records)} of {len(c.records)} pass runs "
                 f"changed the module, {seconds * 1e3:.1f} ms")
    return lines


def facts(c: Compilation) -> list[tuple[str, str]]:
    """(what, value) rows: sizes before/after, fusions, memory, kernels, speed."""
    out = []
    before, final = c.input_module, c.module
    if before is not None and final is not None:
        optimized = c.optimized_module is not None
        out.append(("instructions", f"{before.instruction_count()} in, {final.instruction_count()} out"
                    if optimized else str(before.instruction_count())))
        out.append(("instructions in ENTRY",
                    f"{len(before.entry_computation)} in, {len(final.entry_computation)} out"))
    if c.optimized_module is not None:
        kinds = Counter(str(i.attr("kind")) for _, i in c.optimized_module.all_instructions() if i.opcode == "fusion")
        out.append(("fusions", ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())) or "none"))
        out.append(("pass runs", f"{len(c.records)} ({len(c.changed_records)} changed the module), "
                                  f"{sum(r.seconds for r in c.records) * 1e3:.1f} ms"))
    plan = c.memory_plan
    if plan is not None:
        share = f" ({plan.peak_bytes / plan.naive_bytes:.0%} of naive)" if plan.naive_bytes else ""
        out.append(("peak memory", f"{human_bytes(plan.peak_bytes)} vs {human_bytes(plan.naive_bytes)} naive{share}"))
    if c.kernels:
        out.append(("kernels", str(len(c.kernels))))
    return out + speed_facts(c)


def speed_facts(c: Compilation) -> list[tuple[str, str]]:
    """The run time next to numpy's and XLA's, and whether every check matched."""
    ours = c.timing("hloscope")
    if ours is None or ours.seconds is None:
        return []
    out = [("run time", f"{ours.seconds * 1e3:.3f} ms (hloscope)")]
    for t in c.timings:
        if t.name in ("hloscope", "evaluator"):
            continue
        if t.seconds is None:
            out.append((f"vs {t.name}", t.note))
        else:
            ratio = t.seconds / ours.seconds if ours.seconds else float("inf")
            out.append((f"vs {t.name}", f"{t.seconds * 1e3:.3f} ms: hloscope is {ratio:.2f}x "
                                        f"{'faster' if ratio >= 1 else 'as fast'}"))
    bad = [ch.name for ch in c.checks if not ch.ok]
    out.append(("results", f"differs from {', '.join(bad)}" if bad else f"matches {', '.join(ch.name for ch in c.checks)}"))
    return out + [(f"vs {ch.name}", ch.describe()) for ch in c.checks]


def xla_code_facts(c: Compilation) -> list[str]:
    """What a record read from XLA's dump says about its memory and code."""
    facts = []
    plan = c.memory_plan
    if plan is not None:
        facts.append(f"XLA's outputs and temporaries {plan.peak_bytes:,} B")
    if c.object_size:
        facts.append(f"object files {c.object_size:,} B")
    if c.ptx:
        facts.append(f"PTX {len(c.ptx):,} chars")
    return facts or ["no memory or code files in the dump"]


def _code_lines(c: Compilation) -> list[str]:
    if not c.target or not c.kernels:
        return []
    xla = c.target.startswith("xla:")
    if xla:  # XLA's dump: its own numbers, not hloscope's arena and object
        lines = [f"  {len(c.kernels)} kernels, {', '.join(xla_code_facts(c))}"]
    else:
        what = "device arena" if c.assembly_language == "PTX" else "arena"
        size = f"PTX {c.object_size:,} chars" if c.assembly_language == "PTX" else f"object {c.object_size:,} B"
        lines = [f"  {len(c.kernels)} kernels, {what} {c.arena_bytes:,} B, {size}"]
    if c.assembler is not None or (c.assembly_language == "PTX" and not xla):
        lines.append(f"  {c.ptxas_note.splitlines()[0] if c.ptxas_note else ''}")
    for k in c.kernels:
        if k.launch is not None:
            usage = f"  [{k.usage.describe()}]" if k.usage is not None else ""
            lines.append(f"    {k.name:<32} {k.kind:<13} {k.launch}{usage}")
        else:
            split = f" x{k.partitions} threads" if k.partitions > 1 else ""
            lines.append(f"    {k.name:<32} {k.kind:<10}{split}  {'; '.join(k.notes)}")
    if xla and c.program:  # XLA:GPU's thunk sequence: too long to list here (gpu_program.txt in a dump)
        lines.append(f"  thunk sequence: {len(c.program.splitlines())} lines")
    elif any(not line.startswith("launch ") for line in c.program.splitlines()):
        lines.append("  host program (loops and branches read their predicate back):")
        lines += [f"    {line}" for line in c.program.splitlines()]
    return lines
