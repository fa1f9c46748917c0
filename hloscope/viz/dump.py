"""A deterministic dump folder of a compilation, like XLA's --xla_dump_to, for diffs and CI.

    dump_record("dump/", hloscope.optimize(m))      # or exe.report, or an explorer's record

writes

    0000.<module>.before_optimizations.txt       the input HLO
    NNNN.<module>.<pipeline>.after_<pass>.txt    the HLO after each pass run that changed it
    after_optimizations.txt                      the final HLO
    records.json                                 every pass run: name, changed, sizes, decisions;
                                                 `memory`: the plan's sizes (XLA's dump: total_bytes)
    memory_plan.txt                              the buffer assignment
    llvm_ir.ll, optimized_llvm_ir.ll             the code, where the compilation made it:
    assembly.s or kernels.ptx, gpu_program.txt   assembly (CPU) or PTX and the host program (GPU)
    row_programs.txt                             CPU: the row interpreter's programs (backend/cpu/fast/rows/)
    thunks.txt, cost.json, kernels.sass          GPU: the thunks on their streams, the cost model's
                                                 counts and estimates, SASS (when a disassembler is found)
    timings.json                                 only with timings=True (times vary run to run)

Everything except timings.json is byte-identical for the same input: no times, no dates,
sorted JSON keys, a trailing newline on every file. Old NNNN.*.txt files in the folder are
removed first, so a dump never mixes two runs.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..passes.record import Decision, PassRecord
from .cost_view import cost_json
from .ir_text import row_programs

if TYPE_CHECKING:  # the record is read, never imported: views sit below it
    from ..compilation.record import Compilation

_NUMBERED = re.compile(r"^\d{4}\..*\.txt$")


def _safe(name: str) -> str:
    return re.sub(r"[^\w.\-]+", "_", name)


def _text(s: str) -> str:
    return s if s.endswith("\n") else s + "\n"


def decision_json(d: Decision) -> dict[str, Any]:
    return {
        "action": d.action,
        "subject": d.subject,
        "target": d.target,
        "rule": d.rule,
        "computation": d.computation,
        "accepted": d.accepted,
        "reason": d.reason,
    }


def records_json(records: list[PassRecord], files: dict[int, str]) -> list[dict[str, Any]]:
    """One entry per pass run, without times (those go to timings.json)."""
    return [
        {
            "index": i,
            "pipeline": r.pipeline,
            "name": r.name,
            "iteration": getattr(r, "iteration", 0),
            "changed": bool(r.changed),
            "instructions_before": r.before.instruction_count(),
            "instructions_after": r.after.instruction_count(),
            "file": files.get(i),
            "decisions": [decision_json(d) for d in r.log],
        }
        for i, r in enumerate(records)
    ]


def memory_json(c: Compilation) -> dict[str, int]:
    """The plan's sizes; for a record read from XLA's dump also XLA's own `total_bytes` (the
    memory-usage report's "Total bytes": every allocation, parameters included) and the bytes
    live at its peak."""
    memory: dict[str, int] = {}
    plan = c.memory_plan
    if plan is not None:
        memory |= {"arena_bytes": plan.peak_bytes, "naive_bytes": plan.naive_bytes, "buffers": len(plan.buffers)}
        if getattr(plan, "live_peak_bytes", 0):
            memory["live_peak_bytes"] = getattr(plan, "live_peak_bytes")
    if c.xla_memory_total_bytes:
        memory["total_bytes"] = c.xla_memory_total_bytes
    return memory


def dump_record(path_dir: str | Path, c: Compilation, timings: bool = False) -> list[Path]:
    """Write the dump folder (created if needed) and return the files written, in order."""
    module, records = c.module, c.records
    root = Path(path_dir)
    root.mkdir(parents=True, exist_ok=True)
    for old in root.iterdir():
        if old.is_file() and _NUMBERED.match(old.name):
            old.unlink()
    out: dict[str, str] = {}
    name = _safe(module.name if module is not None else "module")
    first = records[0].before if records else c.input_module
    if first is not None:
        out[f"0000.{name}.before_optimizations.txt"] = first.to_text()
    files: dict[int, str] = {}
    for i, r in enumerate(records):
        if r.changed:
            files[i] = f"{i + 1:04d}.{name}.{_safe(r.pipeline)}.after_{_safe(r.name)}.txt"
            out[files[i]] = r.after.to_text()
    if module is not None:
        out["after_optimizations.txt"] = module.to_text()
    if records:
        summary: dict[str, Any] = {"module": module.name if module else None, "passes": records_json(records, files)}
        if memory := memory_json(c):
            summary["memory"] = memory
        out["records.json"] = json.dumps(summary, indent=1, sort_keys=True)
    if c.memory_plan is not None:
        out["memory_plan.txt"] = str(c.memory_plan)
    out.update(code_files(c))
    if timings:
        out["timings.json"] = json.dumps(_timings(c), indent=1, sort_keys=True)
    written = []
    for filename, text in out.items():
        path = root / filename
        path.write_text(_text(text), encoding="utf-8")
        written.append(path)
    return written


def code_files(c: Compilation) -> dict[str, str]:
    """{file name: text} of the code the compilation made (nothing for the passes alone)."""
    assembly = "kernels.ptx" if c.assembly_language == "PTX" else "assembly.s"
    texts = (("llvm_ir.ll", c.llvm_ir), ("optimized_llvm_ir.ll", c.optimized_llvm_ir),
             (assembly, c.assembly if c.optimized_llvm_ir else ""), ("gpu_program.txt", c.program))
    files = {filename: text for filename, text in texts if text}
    if listings := row_programs(c, None):  # what the CPU's row interpreter runs, where the LLVM IR shows a call
        files["row_programs.txt"] = listings
    return files | gpu_files(c) if c.target == "gpu" else files


def gpu_files(c: Compilation) -> dict[str, str]:
    """What XLA's GPU runtime would run and what it would cost: thunks.txt, cost.json, and
    kernels.sass when the SASS could be made."""
    files: dict[str, str] = {}
    if c.thunks is not None:
        files["thunks.txt"] = c.thunks.text()
    if c.module is not None:
        files["cost.json"] = json.dumps(cost_json(c), indent=1, sort_keys=True)
    sass = getattr(c.assembler, "sass", "")
    if sass:
        files["kernels.sass"] = sass
    return files


def _timings(c: Compilation) -> dict[str, Any]:
    stages = [{"name": s.name, "seconds": s.seconds} for s in c.stages]
    passes = [{"index": i, "name": r.name, "seconds": r.seconds} for i, r in enumerate(c.records)]
    return {"passes": passes, "stages": stages}
