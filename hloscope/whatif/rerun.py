"""Compile again with changes, from the first stage they affect: the stages before it are
reused (what they make, by their declarations, Stage.makes, copied from the original record;
their rows marked "reused"). The first stage affected is the first that reads an option the
changes give another value (Stage.reads), or "optimize" for a changed pipeline.

The compile-cache lookup still runs (an experiment made twice compiles once).
"""

from __future__ import annotations

from ..compilation.front import front, source_stage
from ..compilation.record import TRANSIENT, Compilation
from ..compilation.stages import Stage, first_reading, plan_stages, run_stages
from ..compiler import compile_table, new_compilation
from .changes import Changes


def rerun(base: Compilation, changes: Changes, title: str = "") -> Compilation:
    """A new record: `base` compiled again with `changes` (strict: a failure raises)."""
    pipeline = base.pipeline or base.options.get("pipeline", "default")
    if changes.touches_passes:
        from ..passes.pipelines import resolve

        pipeline = changes.pipeline(resolve(pipeline))
    c = new_compilation(base.source, base.target or None, pipeline, title or f"{base.title} (what if)",
                        **changes.options(base.options))
    c.run_settings = base.run_settings
    table = compile_table(c) if base.target else [source_stage(c), *front()]
    changed = {k for k in set(c.options) | set(base.options)
               if k != "pipeline" and c.options.get(k) != base.options.get(k)}  # the passes: touches_passes
    first = "optimize" if changes.touches_passes else first_reading(table, changed) or "load"
    first = _first_passing_on(table, first)
    reuse(c, base, table, first)
    run_stages(c, table)
    return c


def _first_passing_on(table: list[Stage], first: str) -> str:
    """`first`, or an earlier stage that makes what only lives until the next stage uses it
    (TRANSIENT: the GPU's lowering): the original has dropped it, so that stage runs again."""
    for stage in table:
        if stage.name == first:
            return first
        if set(stage.makes) & set(TRANSIENT):
            later = [s.name for s in table[table.index(stage) + 1:]]
            return stage.name if first in later else first
    return first


def reuse(c: Compilation, base: Compilation, table: list[Stage], first: str) -> list[str]:
    """Mark the stages of `table` before `first` reused, copying what they made; their names."""
    plan_stages(c, table)
    reused = []
    for stage in table:
        if stage.name == first:
            break
        if stage.name == "cache" or not base.has_stage(stage.name) or not base.stage(stage.name).finished:
            continue  # the cache lookup runs again; a stage the original lacks cannot be reused
        for name in stage.makes:
            if name not in TRANSIENT:
                setattr(c, name, getattr(base, name))
        record = c.stage(stage.name)
        record.status, record.note = "reused", f"reused from {base.title!r}: {base.stage(stage.name).note}"
        reused.append(stage.name)
    return reused
