"""The explorer's record without widgets: static export, dump, rich reprs, the session's stages."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from jupyter_helpers import CUSTOM_CALL_HLO, SCALE_HLO, softmax

import hloscope
from hloscope import session
from hloscope.session import SessionOptions


def build_report(target, *args, options=None, **kwargs):
    return session.new(target, *args, options=options, **kwargs)


def run_stages(report, on_update=None):
    return session.run(report, on_update)

PANEL_IDS = ("panel-overview", "panel-stepper", "panel-graph", "panel-memory", "panel-ir", "panel-run")


def test_save_html_has_every_panel(softmax_explorer, tmp_path):
    path = softmax_explorer.report.save_html(tmp_path / "softmax.html")
    page = path.read_text()
    for panel in PANEL_IDS:
        assert f'id="{panel}"' in page
    assert page.count("<template") >= 3 and "pass-slider" in page  # graphs laid out for the stepper
    assert "optimized LLVM IR" in page and "assembly" in page and ">trace<" in page
    assert "numpy" in page and "evaluator" in page  # run timings
    assert "http://" not in page.replace("http://www.w3.org", "") and "https://" not in page


def test_dump_is_deterministic(tmp_path):
    reports = []
    for d in ("a", "b"):
        r = run_stages(build_report(SCALE_HLO, options=SessionOptions(run=False)))
        r.dump(tmp_path / d)
        reports.append(r)
    a, b = (sorted(p.name for p in (tmp_path / d).iterdir()) for d in ("a", "b"))
    assert a == b and "records.json" in a and "llvm_ir.ll" in a and "memory_plan.txt" in a
    for name in a:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name
    assert json.loads((tmp_path / "a" / "records.json").read_text())["passes"]


def test_report_repr_html_and_summary(softmax_explorer):
    report = softmax_explorer.report
    page = report._repr_html_()
    assert "Stages" in page and "Passes" in page and "<svg" in page and "Outputs" in page
    text = report.summary()
    assert text.splitlines()[0] == report.title and "peak memory" in text and "<" not in text
    n = len(report.stages)
    assert repr(report).startswith("<Compilation") and f"{n}/{n} stages done" in repr(report)


def test_memory_plan_and_pass_record_display_on_their_own(softmax_explorer):
    report = softmax_explorer.report
    assert "arena" in report.memory_plan._repr_html_()
    changed = next(r for r in report.records if r.changed)
    assert "Decisions" in changed._repr_html_()
    assert "HloModule" in report.module._repr_html_()


def test_stage_failure_skips_what_depends_on_it():
    report = build_report(CUSTOM_CALL_HLO, options=SessionOptions(pipeline="algsimp"))
    seen = []
    run_stages(report, on_update=lambda r: seen.append([s.status for s in r.stages]))
    statuses = {s.name: s.status for s in report.stages}
    assert statuses == {"parse": "done", "cache": "done", "verify": "done", "optimize": "done", "plan": "done",
                        "lower": "failed", "llvm-opt": "skipped", "codegen": "skipped", "load": "skipped",
                        "assembly": "skipped", "run": "skipped"}
    assert "not supported on cpu: custom-call" in report.stage("lower").note
    assert ["running" in s for s in seen].count(True) == 6  # live updates as each stage starts
    assert report.failed[0].error is not None


@pytest.mark.jax
def test_jax_comparison_runs_the_same_hlo_on_xla():
    import pytest

    pytest.importorskip("jax")
    x = np.random.default_rng(1).standard_normal((8, 16)).astype(np.float32)
    report = run_stages(build_report(softmax, x, options=SessionOptions(compare=("numpy", "jax"))))
    names = {c.name: c for c in report.checks}
    assert names["jax (XLA:CPU)"].ok and names["numpy"].ok and names["evaluator"].ok
    assert report.timing("jax (XLA:CPU)").seconds > 0


def test_module_report_and_pytrees():
    def f(params, x):
        return {"y": x @ params["w"] + params["b"], "n": x.sum()}

    params = {"w": np.ones((3, 2), np.float32), "b": np.zeros(2, np.float32)}
    report = run_stages(build_report(f, params, np.ones((4, 3), np.float32)))
    assert not report.failed and all(c.ok for c in report.checks), report.summary()
    assert hloscope.parse_hlo(report.module.to_text()).instruction_count() == report.module.instruction_count()


def test_an_invalid_module_stops_before_the_passes():
    import dataclasses

    module = hloscope.parse_hlo(SCALE_HLO)
    entry = module.entry_computation
    wrong = dataclasses.replace(entry.root_instruction, operands=("x",))  # multiply with one operand
    broken = module.with_computation(type(entry)(entry.name, entry.instructions[:-1] + (wrong,), entry.root))
    report = run_stages(build_report(broken))
    statuses = {s.name: s.status for s in report.stages}
    assert statuses["verify"] == "failed" and statuses["optimize"] == "skipped" and statuses["run"] == "skipped"
    assert "the input module is invalid" in report.stage("verify").note
    assert report.stage("optimize").note == "needs verify, which failed"


def test_a_compiled_program_with_elided_constants_shows_all_it_can(tmp_path):
    """XLA's `compile().as_text()` prints large constants as `{...}` (jax 0.12): the module
    reads, verifies, optimizes and plans; making code and running it are skipped, saying why
    and how to keep the values; every view of the explorer still shows."""
    text = (Path(__file__).resolve().parents[1] / "hlo_samples" / "jax012_compiled_elided.hlo").read_text()
    ex = hloscope.explore(text)
    try:
        statuses = {s.name: s.status for s in ex.report.stages}
        assert [statuses[n] for n in ("parse", "verify", "optimize", "plan")] == ["done"] * 4
        assert statuses["lower"] == "skipped" and not ex.report.failed
        note = ex.report.stage("lower").note
        assert "constant.5 (f32[256,256]{1,0}) has no values" in note and "--xla_dump_large_constants" in note
        assert not ex.errors, ex.errors
        assert "peak" in ex.report.stage("plan").note
        page = ex.report.save_html(tmp_path / "elided.html").read_text()
        assert 'id="panel-memory"' in page and "constant({...})" in page
    finally:
        ex.close()
    with pytest.raises(hloscope.ElidedValuesError, match="Evaluating the program needs them"):
        hloscope.evaluate(hloscope.parse_hlo(text), np.ones((2, 256), np.float32))
    with pytest.raises(hloscope.ElidedValuesError, match="Making cpu code needs them"):
        hloscope.compile(text)
