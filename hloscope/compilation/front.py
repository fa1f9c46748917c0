"""The stages every compilation shares before a target takes over.

    parse / trace   the source -> the input module            (hloscope.compilation.sources)
    verify          shape inference and consistency checks    (hloscope.ir.verifier)
    optimize        the passes the target's code generator needs first (Target.required_passes),
                    the HLO pass pipeline, then those it needs last (Target.lowering_passes:
                    the CPU's type rewrites), every pass recorded (hloscope.passes)
    plan            buffer live ranges and arena offsets       (hloscope.memory)

`optimize` resolves the pipeline the compilation names (a pipeline name, or pass and
pipeline names in a list: hloscope.passes.pipelines.resolve) and verifies after every pass
that changed the module; the input is verified first, so an invalid module is blamed on
the input rather than on the first pass that trips over it.
"""

from __future__ import annotations

from ..errors import HloVerifierError
from ..gc_pause import collector_paused
from ..memory import plan_memory
from ..passes.pipeline import Pipeline
from ..passes.pipelines import resolve
from ..viz.memory_chart import human_bytes
from .record import Compilation
from .stages import Stage


SOURCE_MAKES = ("input_module", "listing", "legalization", "inputs")


def source_stage(c: Compilation) -> Stage:
    """The first stage: parse or trace the source (raises on bad input)."""
    return Stage(c.source.first_stage, c.source.load, doc="the source -> the input module", makes=SOURCE_MAKES)


def verify(c: Compilation) -> str:
    module = _input(c)
    try:
        module.verify()
    except HloVerifierError as e:
        error = HloVerifierError(f"the input module is invalid (before any pass ran): {e}")
        error.computation, error.instruction = e.computation, e.instruction
        raise error from e
    entry = module.entry_computation
    return f"{module.instruction_count()} instructions, {len(entry)} in ENTRY {entry.name}; verified"


def optimize(c: Compilation, required: Pipeline | None = None, lowering: Pipeline | None = None) -> str:
    """The passes the target's code generator needs first (`required`), the compilation's
    pipeline, then the passes it needs last (`lowering`)."""
    module = _input(c)
    pipeline = c.pipeline or resolve(c.options.get("pipeline", "default"))
    steps = [p for p in (required, pipeline, lowering) if p is not None]
    if not c.options.get("verify", True):
        steps = [without_verification(p) for p in steps]
    c.pipeline, c.records = steps[1 if required is not None else 0], []
    optimized = module
    with collector_paused():  # passes build many small acyclic objects (see gc_pause)
        for p in steps:
            optimized = p.run(optimized, c.records)
    c.optimized_module = optimized
    changed = sum(1 for r in c.records if r.changed)
    return (f"{', then '.join(p.name for p in steps)}: {len(c.records)} pass runs, {changed} changed; "
            f"{module.instruction_count()} -> {optimized.instruction_count()} instructions")


def plan(c: Compilation) -> str:
    module = c.optimized_module or _input(c)
    with collector_paused():
        c.memory_plan = plan_memory(module)
    p = c.memory_plan
    order = "" if module.is_scheduled else " (program order: the module is not scheduled)"
    return f"peak {human_bytes(p.peak_bytes)} (naive {human_bytes(p.naive_bytes)}){order}"


def front(required: Pipeline | None = None, lowering: Pipeline | None = None,
          lowering_reads: tuple[str, ...] = ()) -> tuple[Stage, ...]:
    """verify, optimize (`required`, a target's first passes, the pipeline, then `lowering`,
    its last, which read the options `lowering_reads`) and plan."""
    return (
        Stage("verify", verify, needs=("parse", "trace"), doc="shape inference and consistency checks"),
        Stage("optimize", lambda c: optimize(c, required, lowering), needs=("verify",),
              doc="the HLO pass pipeline, every pass recorded", makes=("pipeline", "records", "optimized_module"),
              reads=("pipeline", "verify", *lowering_reads)),
        Stage("plan", plan, needs=("optimize",), doc="buffer live ranges and arena offsets", makes=("memory_plan",)),
    )


def without_verification(p: Pipeline) -> Pipeline:
    """A copy of `p` (and its sub-pipelines) that skips the verifier after each pass."""
    steps = [without_verification(s) if isinstance(s, Pipeline) else s for s in p.passes]
    return Pipeline(p.name, steps, p.fixed_point, p.max_iterations, verify=False)


def _input(c: Compilation):
    if c.input_module is None:
        raise RuntimeError("no input module: the source stage did not run")
    return c.input_module
