"""Which of XLA's passes does the job of which of hloscope's: the table that aligns the two
pipelines stage by stage.

XLA:CPU (xla/service/cpu/cpu_compiler.cc) runs about a hundred passes; hloscope runs a dozen.
They line up by role, in this order:

    role            XLA (pass, or pipeline of a `pipeline-start` snapshot)    hloscope
    inline          call-inliner, flatten-call-graph                          call-inliner
    simplify        algsimp, simplification*, dce, cse, reshape-mover, ...    algsimp, dce, cse, constant_folding,
                                                                              tuple-simplifier, reshape-mover
    layout          layout-assignment, shape-canonicalizer, hlo_normalization (none: row-major throughout)
    fusion          fusion, fusion-wrapper, dot-library-rewriter               fusion, multi_output_fusion
    copy-insertion  copy-insertion's steps                                    (none: the memory plan aliases)
    scheduling      HLO_passes_after_scheduling                               hlo-memory-scheduler
    other           everything else (sharding, async collectives, ...)

An XLA snapshot `<pipeline>.after_<pass>` belongs to the role of <pass>; a `pipeline-start`
snapshot (the module as a pipeline found it) to the role of its pipeline.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..passes.record import PassRecord

ROLES = ("inline", "simplify", "layout", "fusion", "copy-insertion", "scheduling", "other")

XLA_PASS_ROLES = {
    "call-inliner": "inline", "flatten-call-graph": "inline",
    "algsimp": "simplify", "simplification": "simplify", "dce": "simplify", "cse": "simplify",
    "reshape-mover": "simplify", "constant_folding": "simplify", "tuple-simplifier": "simplify",
    "simplify-sorts": "simplify", "transpose-folding": "simplify", "dynamic-dimension-simplifier": "simplify",
    "layout-assignment": "layout", "shape-canonicalizer": "layout", "reshape-decomposer": "layout",
    "fusion": "fusion", "fusion-wrapper": "fusion", "dot-library-rewriter": "fusion",
    "cpu-parallel-task-assigner": "fusion",
    "copy-insertion": "copy-insertion",
}
XLA_PIPELINE_ROLES = {
    "simplification": "simplify", "simplification_after_layout_assignment": "simplify",
    "post_scatter_expansion_simplification": "simplify", "hlo_normalization": "layout",
    "dot-library-passes": "fusion", "copy-insertion": "copy-insertion",
    "HLO_passes_after_scheduling": "scheduling",
}
HLOSCOPE_ROLES = {
    "call-inliner": "inline", "algsimp": "simplify", "dce": "simplify", "cse": "simplify",
    "constant_folding": "simplify", "tuple-simplifier": "simplify", "reshape-mover": "simplify",
    "fusion": "fusion", "multi_output_fusion": "fusion", "hlo-memory-scheduler": "scheduling",
}


def xla_role(record: PassRecord) -> str:
    """The role of one XLA snapshot (see the module docstring)."""
    if record.pipeline == "copy-insertion":
        return "copy-insertion"
    if record.name != "pipeline-start" and record.name in XLA_PASS_ROLES:
        return XLA_PASS_ROLES[record.name]
    return XLA_PIPELINE_ROLES.get(record.pipeline, "other")


def hloscope_role(record: PassRecord) -> str:
    return HLOSCOPE_ROLES.get(record.name, "other")


@dataclass(frozen=True)
class StageSide:
    """One compiler's runs in one role: how many, how many changed the module, the module's
    instruction counts (all computations; the ENTRY alone) after the last one, and how many
    instructions the role's runs added or removed (other roles run in between)."""

    runs: int = 0
    changed: int = 0
    instructions: int | None = None
    entry_instructions: int | None = None
    delta: int = 0  # instructions its runs added (negative: removed), all computations

    def describe(self) -> str:
        if not self.runs:
            return "-"
        return f"{self.runs} ({self.changed} changed)"

    def counts(self) -> str:
        if self.instructions is None:
            return "-"
        return f"{self.instructions} ({self.entry_instructions} in ENTRY); {self.delta:+d} by these runs"


@dataclass(frozen=True)
class StageRow:
    """One role, both compilers side by side."""

    role: str
    xla: StageSide
    hloscope: StageSide


def side(records: list[PassRecord]) -> StageSide:
    if not records:
        return StageSide()
    last = records[-1].after
    return StageSide(len(records), sum(r.changed for r in records), last.instruction_count(),
                     len(last.entry_computation), sum(r.instruction_delta for r in records))


def align(xla_records: list[PassRecord], hloscope_records: list[PassRecord]) -> list[StageRow]:
    """One row per role either compiler has runs in, in ROLES order."""
    rows = []
    for role in ROLES:
        xla_runs = [r for r in xla_records if xla_role(r) == role]
        our_runs = [r for r in hloscope_records if hloscope_role(r) == role]
        if xla_runs or our_runs:
            rows.append(StageRow(role, side(xla_runs), side(our_runs)))
    return rows
