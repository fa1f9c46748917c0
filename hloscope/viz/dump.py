"""A deterministic dump folder of a compilation, like XLA's --xla_dump_to, for diffs and CI.

    dump_record("dump/", module=hloscope.optimize(m))

writes

    0000.<module>.before_optimizations.txt       the input HLO
    NNNN.<module>.<pipeline>.after_<pass>.txt    the HLO after each pass run that changed it
    after_optimizations.txt                      the final HLO
    records.json                                 every pass run: name, changed, sizes, decisions
    memory_plan.txt                              the buffer assignment
    llvm_ir.ll, optimized_llvm_ir.ll, ...        texts of a report, if one is given
    timings.json                                 only with timings=True (times vary run to run)

Everything except timings.json is byte-identical for the same input: no times, no dates,
sorted JSON keys, a trailing newline on every file. Old NNNN.*.txt files in the folder are
removed first, so a dump never mixes two runs.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

REPORT_FILES = (
    ("llvm_ir", "llvm_ir.ll"),
    ("optimized_llvm_ir", "optimized_llvm_ir.ll"),
    ("assembly", "assembly.s"),
    ("ptx", "kernels.ptx"),
    ("program", "gpu_program.txt"),  # what the host runs: launches, copies, loops, branches
)
_NUMBERED = re.compile(r"^\d{4}\..*\.txt$")


def resolve_inputs(module, records, memory_plan, report):
    """Accept an OptimizeResult as `module`, or a CompileReport that holds one; fill in
    records, the final module and the memory plan from whichever is given."""
    records = list(records or ())
    result = None
    if module is not None and hasattr(module, "records") and hasattr(module, "module"):
        result, module = module, module.module
    elif report is not None and not isinstance(report, dict):
        result = getattr(report, "optimize_result", None)
    if result is not None:
        records = records or list(result.records)
        memory_plan = memory_plan if memory_plan is not None else getattr(result, "memory_plan", None)
        module = module if module is not None else result.module
    if memory_plan is None and report is not None and not isinstance(report, dict):
        memory_plan = getattr(report, "memory_plan", None)
    if module is None and records:
        module = records[-1].after
    return module, records, memory_plan


def _safe(name: str) -> str:
    return re.sub(r"[^\w.\-]+", "_", name)


def _text(s: str) -> str:
    return s if s.endswith("\n") else s + "\n"


def decision_json(d) -> dict:
    return {
        "action": d.action,
        "subject": d.subject,
        "target": d.target,
        "rule": d.rule,
        "computation": d.computation,
        "accepted": d.accepted,
        "reason": d.reason,
    }


def records_json(records, files: dict[int, str]) -> list[dict]:
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


def dump_record(
    path_dir, *, module=None, records=(), memory_plan=None, report=None, timings: bool = False
) -> list[Path]:
    """Write the dump folder (created if needed) and return the files written, in order."""
    module, records, memory_plan = resolve_inputs(module, records, memory_plan, report)
    root = Path(path_dir)
    root.mkdir(parents=True, exist_ok=True)
    for old in root.iterdir():
        if old.is_file() and _NUMBERED.match(old.name):
            old.unlink()
    out: dict[str, str] = {}
    name = _safe(module.name if module is not None else "module")
    first = records[0].before if records else module
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
        out["records.json"] = json.dumps(
            {"module": module.name if module else None, "passes": records_json(records, files)},
            indent=1,
            sort_keys=True,
        )
    if memory_plan is not None:
        out["memory_plan.txt"] = str(memory_plan)
    out.update(_report_files(report))
    if timings:
        out["timings.json"] = json.dumps(_timings(records, report), indent=1, sort_keys=True)
    written = []
    for filename, text in out.items():
        path = root / filename
        path.write_text(_text(text), encoding="utf-8")
        written.append(path)
    return written


def _report_files(report) -> dict[str, str]:
    if report is None:
        return {}
    if isinstance(report, dict):
        return {f"{_safe(str(k))}.txt": str(v) for k, v in sorted(report.items()) if v}
    out = {}
    for attr, filename in REPORT_FILES:
        try:
            text = getattr(report, attr, "")
        except Exception:  # noqa: BLE001 - a lazily produced text (assembly) may fail; skip it
            text = ""
        if text:
            out[filename] = str(text)
    return out


def _timings(records, report) -> dict:
    stages = [{"name": s.name, "seconds": s.seconds} for s in getattr(report, "stages", ()) or ()]
    passes = [{"index": i, "name": r.name, "seconds": r.seconds} for i, r in enumerate(records)]
    return {"passes": passes, "stages": stages}
