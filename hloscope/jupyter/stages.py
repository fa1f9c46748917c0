"""Building an HloReport and running its stages one at a time, so a front end can show each
result as soon as it exists:

    report = python_report(f, (x, w), {}, options)     # or hlo_report(text, inputs, options)
    run_stages(report, on_update=explorer.refresh)     # trace/parse, HLO, passes, memory
                                                       # plan, LLVM, assembly, run

The first stage (trace or parse) raises on bad input: there is nothing to show without it.
A later stage that fails is marked failed with a short message, the stages that need its
result are skipped, and the rest of the report stays usable.
"""

from __future__ import annotations

import time
import traceback
from contextlib import contextmanager

from . import backend, compare
from .options import ExploreOptions
from .report import HloReport, StageInfo

PYTHON_STAGES = ("trace", "HLO", "passes", "memory plan", "LLVM", "assembly", "run")
HLO_STAGES = ("parse", "HLO", "passes", "memory plan", "LLVM", "assembly", "run")


def python_report(fn, args: tuple, kwargs: dict, options: ExploreOptions, title: str | None = None) -> HloReport:
    plain = backend.plain_function(fn)
    name = getattr(plain, "__name__", "fn")
    report = HloReport(title or f"hloscope: {name}", "python", options, function=plain,
                       jitted=backend.as_jitted(fn), call_args=tuple(args), call_kwargs=dict(kwargs))
    report.stages = [StageInfo(s) for s in PYTHON_STAGES]
    return report


def hlo_report(text: str, inputs: list | None, options: ExploreOptions, title: str | None = None) -> HloReport:
    report = HloReport(title or "hloscope: HLO module", "hlo", options, source=text, inputs=inputs)
    report.stages = [StageInfo(s) for s in HLO_STAGES]
    return report


def module_report(module, inputs: list | None, options: ExploreOptions, title: str | None = None) -> HloReport:
    """A report on an HloModule object (its `parse` stage is already done)."""
    report = hlo_report("", inputs, options, title or f"hloscope: {module.name}")
    report.input_module = module
    report.stages[0] = StageInfo("parse", "done", 0.0, "given as an HloModule")
    return report


def _noop(report):
    return None


def run_stages(report: HloReport, on_update=_noop, limit: int | None = None) -> HloReport:
    """Run the pending stages in order (at most `limit` of them), calling on_update(report)
    as each starts and ends."""
    steps = {
        "trace": _trace, "parse": _parse, "HLO": _hlo, "passes": _passes, "memory plan": _memory,
        "LLVM": _llvm, "assembly": _assembly, "run": _run,
    }
    for stage in report.stages:
        if stage.status != "pending":
            continue
        if limit is not None:
            if limit <= 0:
                break
            limit -= 1
        blocker = _blocked(report, stage.name)
        if blocker:
            stage.status, stage.note = "skipped", blocker
            on_update(report)
            continue
        first = stage.name in ("trace", "parse")
        with _timed(report, stage, on_update, reraise=first):
            stage.note = steps[stage.name](report) or ""
    return report


@contextmanager
def _timed(report: HloReport, stage: StageInfo, on_update, reraise: bool):
    stage.status = "running"
    on_update(report)
    start = time.perf_counter()
    try:
        yield
        stage.status = "done"
    except Exception as e:  # noqa: BLE001 - a stage's failure is shown in the report
        stage.status = "failed"
        stage.note = failure_note(e)
        stage.error = e
        if reraise or report.options.debug:
            stage.seconds = time.perf_counter() - start
            on_update(report)
            raise
    stage.seconds = time.perf_counter() - start
    on_update(report)


def failure_note(e: BaseException) -> str:
    """`ErrorType: first line of the message` (the explorer shows the whole message on request)."""
    from ..errors import HloscopeError

    text = str(e).strip().split("\n", 1)[0]
    if not isinstance(e, HloscopeError):
        where = traceback.extract_tb(e.__traceback__)[-1:] if e.__traceback__ else []
        text += f" (at {where[0].filename.rsplit('/', 1)[-1]}:{where[0].lineno})" if where else ""
    return f"{type(e).__name__}: {text}"


def _blocked(report: HloReport, name: str) -> str:
    """Why stage `name` cannot run (an earlier stage it needs failed), or ""."""
    needs = {
        "HLO": ("input_module", "no module"), "passes": ("input_module", "no module"),
        "memory plan": ("optimize_result", "the passes did not finish"),
        "LLVM": ("optimize_result", "the passes did not finish"),
        "assembly": ("executable", "nothing was compiled"), "run": ("executable", "nothing was compiled"),
    }
    attr, why = needs.get(name, (None, ""))
    if name == "run" and not report.options.run:
        return "--no-run"
    if name == "passes" and any(s.name == "HLO" and s.status == "failed" for s in report.stages):
        return "the input module did not verify"
    if name == "run" and report.executable is not None and report.options.backend == "gpu":
        return _no_device(report.executable)
    return why if attr is not None and getattr(report, attr) is None else ""


def _no_device(exe) -> str:
    """Why a GPU executable cannot run here ("" when it can)."""
    try:
        exe.device
    except Exception as e:  # noqa: BLE001 - NotSupportedError with the reason (no GPU, no bindings)
        return str(e)
    return ""


# ---- the stages (each returns the note shown next to its time) ----
def _trace(report: HloReport) -> str:
    module, listing, flat = backend.trace_call(report.jitted, report.call_args, report.call_kwargs)
    report.input_module, report.listing, report.inputs = module, listing, flat
    return f"{len(listing.lines()) - 2} numpy-level operations"


def _parse(report: HloReport) -> str:
    from ..ir import parse_hlo

    report.input_module = parse_hlo(report.source)
    if report.inputs is None:
        from .inputs import parameter_inputs

        report.inputs = parameter_inputs(report.input_module, report.options.seed)
        return f"random inputs (seed {report.options.seed})"
    return f"{len(report.inputs)} inputs given"


def _hlo(report: HloReport) -> str:
    module = report.input_module.verify()
    entry = module.entry_computation
    return f"{module.instruction_count()} instructions, {len(entry)} in ENTRY {entry.name}; verified"


def _passes(report: HloReport) -> str:
    from ..passes.optimize import OptimizeResult
    from ..passes.pipelines import for_backend
    from .pipeline_spec import pipeline_from_spec

    pipeline = pipeline_from_spec(for_backend(report.options.pipeline, report.options.backend))
    records: list = []
    start = time.perf_counter()
    module = pipeline.run(report.input_module, records)
    report.optimize_result = OptimizeResult(report.input_module, module, pipeline, records, None,
                                            time.perf_counter() - start)
    changed = sum(1 for r in records if r.changed)
    return (f"{pipeline.name}: {len(records)} pass runs, {changed} changed; "
            f"{report.input_module.instruction_count()} -> {module.instruction_count()} instructions")


def _memory(report: HloReport) -> str:
    from ..memory import plan_memory
    from ..viz.memory_chart import human_bytes

    plan = plan_memory(report.optimize_result.module)
    report.memory_plan = report.optimize_result.memory_plan = plan
    return f"peak {human_bytes(plan.peak_bytes)} (naive {human_bytes(plan.naive_bytes)})"


def _llvm(report: HloReport) -> str:
    exe = backend.compile_optimized(report.optimize_result.module, report.options.backend, report.options.opt_level)
    report.executable, report.compile_report = exe, exe.report
    skip = ("parse", "cache", "optimize", "plan")  # done by the explorer's own stages
    parts = [f"{s.name} {s.seconds * 1e3:.0f} ms" for s in exe.report.stages if s.name not in skip]
    return f"{len(exe.report.kernels)} kernels; " + ", ".join(parts)


def _assembly(report: HloReport) -> str:
    text = report.ptx if report.options.backend == "gpu" else report.assembly
    return f"{text.count(chr(10)):,} lines of {'PTX' if report.options.backend == 'gpu' else 'assembly'}"


def _run(report: HloReport) -> str:
    exe, args = report.executable, report.inputs
    report.outputs = exe(*args)
    timings = [compare.time_call("hloscope", lambda: exe(*args))]
    checks = []
    expected, seconds = _evaluate(report)
    checks.append(compare.compare_outputs("evaluator", expected, report.outputs))
    timings.append(compare.Timing("evaluator", seconds, 1, "the reference interpreter, one run"))
    if report.kind == "python" and compare.numpy_wanted(report.options.compare):
        fn, a, k = report.function, report.call_args, report.call_kwargs
        timings.append(compare.time_call("numpy", lambda: fn(*a, **k)))
        if timings[-1].seconds is not None:
            checks.append(compare.compare_outputs("numpy", fn(*a, **k), report.outputs))
    if compare.jax_wanted(report.options.compare):
        checks, timings = _jax(report, checks, timings)
    report.checks, report.timings = checks, timings
    return _run_note(report)


def _evaluate(report: HloReport):
    from ..evaluator import evaluate

    start = time.perf_counter()
    out = evaluate(report.input_module, *report.inputs)
    return out, time.perf_counter() - start


def _jax(report: HloReport, checks: list, timings: list):
    runner, why = compare.jax_runner(report.input_module)
    name = "jax (XLA:CPU)"
    if runner is None:
        return checks, timings + [compare.Timing(name, None, 0, why)]
    buffers = runner.put(report.inputs)
    timing = compare.time_call(name, lambda: runner.execute(buffers), note="XLA compiling the same HLO")
    if timing.seconds is not None:
        checks = checks + [compare.compare_outputs(name, runner.outputs(report.inputs), report.outputs)]
    return checks, timings + [timing]


def _run_note(report: HloReport) -> str:
    ours = report.timing("hloscope")
    parts = [f"{ours.seconds * 1e3:.3f} ms per call"]
    bad = [c.name for c in report.checks if not c.ok]
    parts.append(f"differs from {', '.join(bad)}" if bad else f"matches {', '.join(c.name for c in report.checks)}")
    return "; ".join(parts)
