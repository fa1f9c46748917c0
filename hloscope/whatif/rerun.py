"""Compile again with changes, from the first stage they affect: the stages before it are
reused (their artifacts copied from the original record, their rows marked "reused").

    parse/trace  input_module, listing, inputs
    verify       (nothing to copy: the same input is valid)
    optimize     the pipeline, the pass records, the optimized module
    plan         the memory plan
    lower (cpu)  the LLVM IR, the kernels, the entry's name and arena size

The compile-cache lookup still runs (an experiment made twice compiles once).
"""

from __future__ import annotations

from ..compilation.front import front, source_stage
from ..compilation.record import Compilation
from ..compilation.stages import Stage, plan_stages, run_stages
from ..compiler import compile_table, new_compilation
from .changes import Changes

# What each reusable stage leaves in the record.
ARTIFACTS = {
    "parse": ("input_module", "listing", "inputs"),
    "trace": ("input_module", "listing", "inputs"),
    "verify": (),
    "optimize": ("pipeline", "records", "optimized_module"),
    "plan": ("memory_plan",),
    "lower": ("llvm_ir", "kernels", "entry_name", "arena_bytes"),
}


def rerun(base: Compilation, changes: Changes, title: str = "") -> Compilation:
    """A new record: `base` compiled again with `changes` (strict: a failure raises)."""
    first = changes.first_stage(base.target)
    pipeline = base.pipeline or base.options.get("pipeline", "default")
    if changes.touches_passes:
        from ..passes.pipelines import resolve

        pipeline = changes.pipeline(resolve(pipeline))
    c = new_compilation(base.source, base.target or None, pipeline, title or f"{base.title} (what if)",
                        **changes.options(base.options))
    c.run_settings = base.run_settings
    table = compile_table(c) if base.target else [source_stage(c), *front()]
    reuse(c, base, table, first)
    run_stages(c, table)
    return c


def reuse(c: Compilation, base: Compilation, table: list[Stage], first: str) -> list[str]:
    """Mark the stages of `table` before `first` reused, copying what they made; their names."""
    plan_stages(c, table)
    reused = []
    for stage in table:
        if stage.name == first:
            break
        if stage.name not in ARTIFACTS or not base.has_stage(stage.name) or not base.stage(stage.name).finished:
            continue  # the cache lookup runs again; a stage the original lacks cannot be reused
        for name in ARTIFACTS[stage.name]:
            setattr(c, name, getattr(base, name))
        record = c.stage(stage.name)
        record.status, record.note = "reused", f"reused from {base.title!r}: {base.stage(stage.name).note}"
        reused.append(stage.name)
    return reused
