"""The explorer widget, headless: its tabs exist, fill in, and respond to the controls."""

from __future__ import annotations

import re

import numpy as np
import pytest

from jupyter_helpers import SCALE_HLO, softmax

import hloscope
from hloscope.jupyter.explorer import _descendants

TABS = ["Overview", "Pass stepper", "Graph", "Memory", "Source lines", "IR", "Run", "What if"]


def _title_index(stepper) -> int:
    return int(re.search(r"data-index='(\d+)'", stepper.title_html.value).group(1))


def test_all_tabs_exist_and_are_filled(softmax_explorer):
    ex = softmax_explorer
    assert [ex.tabs.get_title(i) for i in range(len(ex.tabs.children))] == TABS
    assert ex.report.done and not ex.report.failed and ex.errors == []
    overview = ex.overview.html.value
    for stage in ("trace", "verify", "optimize", "plan", "lower", "llvm-opt", "codegen", "load", "run", "assembly"):
        assert f">{stage}</td>" in overview
    assert "✓ done" in overview and "peak memory" in overview and "matches evaluator, numpy" in overview
    assert "<svg" in ex.panels["memory"].html.value
    assert "Checked against" in ex.panels["run"].html.value
    assert "Cost by source line" in ex.panels["source"].html.value and "the lines add up" in ex.panels["source"].html.value


def test_stepper_changes_the_shown_pass(softmax_explorer):
    ex = softmax_explorer
    ex.select("stepper")
    st = ex.stepper
    st.changed_only.value = True
    assert st.visible and all(st.records[i].changed for i in st.visible)
    st.slider.value = 0
    first = (st.shown, st.title_html.value, st.after.value, st.diff.value)
    assert "<svg" in st.before.value and "<svg" in st.after.value and "+" in st.diff.value
    st.next.click()
    second = (st.shown, st.title_html.value, st.after.value, st.diff.value)
    assert second[0] == st.visible[1] and _title_index(st) == second[0]
    assert all(a != b for a, b in zip(first, second))
    st.prev.click()
    assert st.shown == first[0]
    st.changed_only.value = False  # keeps the pass on screen, now among all runs
    assert st.shown == first[0] and st.slider.max == len(st.records) - 1


def test_stepper_marks_what_a_pass_changed(softmax_explorer):
    st = softmax_explorer.stepper
    softmax_explorer.select("stepper")
    fusion = next(i for i, r in enumerate(st.records) if r.name == "fusion" and r.changed)
    st.select_record(fusion)
    assert st.shown == fusion and "fusion" in st.title_html.value
    assert "hl-added" in st.after.value or "hl-changed" in st.after.value
    assert "decisions" in st.detail.value


def test_unchanged_pass_says_so(softmax_explorer):
    st = softmax_explorer.stepper
    softmax_explorer.select("stepper")
    unchanged = next(i for i, r in enumerate(st.records) if not r.changed)
    st.select_record(unchanged)
    assert "changed nothing" in st.diff.value and "same graph" in st.after.value


def test_graph_panel_instruction_details_and_refused_fusions(softmax_explorer):
    ex = softmax_explorer
    ex.select("graph")
    g = ex.graph
    assert "<svg" in g.graph.value and "cluster" in g.graph.value
    fused = next(name for label, name in g.choice.options
                 if "[in fused_computation" in label and "(parameter)" not in label)
    g.choice.value = fused
    assert "fused into" in g.details.value and "source:" in g.details.value
    assert f'data-instruction=\\"{fused}\\"' in g.graph.value or f'data-instruction="{fused}"' in g.graph.value
    assert "Decisions about it" in g.details.value
    g.rejected.value = True
    assert g.graph.value  # drawn again (with dashed edges where fusion was refused)
    g.rejected.value = False


def test_ir_panel_views_and_kernel_correspondence(softmax_explorer):
    ex = softmax_explorer
    ex.select("ir")
    ir = ex.panels["ir"]
    assert set(ir.view.options) >= {"HLO (optimized)", "HLO (input)", "trace (numpy-level)", "LLVM IR",
                                    "LLVM IR (optimized)", "assembly"}
    assert "fusion" in ir.table.value and "source lines" in ir.table.value
    kernel = next(k for k in ir.kernel.options if "fusion" in k)
    ir.kernel.value = kernel
    function = ex.report.kernel(kernel).llvm_function  # softmax: the row program's, which all three share
    assert f"@{function}" in ir.table.value
    ir.view.value = "LLVM IR (optimized)"
    ir.form.value = "as it runs"  # (the default shows the plain loops the row program stands for)
    assert f"@{function}" in ir.code.value.replace("</span>", "").replace('<span class="global">', "")
    ir.form.value = "plain loops"
    ir.view.value = "assembly"
    assert function in ir.code.value
    ir.view.value = "HLO (optimized)"
    assert "fused_computation" in ir.code.value
    ir.kernel.value = "(whole module)"


def test_explore_a_module_and_hlo_text_with_options():
    ex = hloscope.explore(SCALE_HLO, np.ones((4, 8), np.float32), pipeline="simplify", show="overview,run")
    assert list(ex.panels) == ["overview", "run"] and ex.report.outputs[0, 0] == 2.0
    ex.close()
    module = hloscope.parse_hlo(SCALE_HLO)
    ex = hloscope.explore(module, no_run=True)
    assert ex.report.stage("run").status == "skipped" and ex.report.executable is not None
    ex.close()


def test_explore_rejects_bad_input_before_any_widget():
    with pytest.raises(hloscope.ShapeError):
        hloscope.explore(lambda x: x @ x, np.ones((2, 3), np.float32))
    with pytest.raises(hloscope.HloParseError):
        hloscope.explore("HloModule m\nENTRY e {\n ROOT p = f32[] parmeter(0)\n}\n")


def test_without_a_graph_renderer_there_is_a_message_and_text(monkeypatch):
    from hloscope.viz import layout, render

    monkeypatch.setattr(render, "available_engines", lambda: [])
    layout.clear_cache()
    ex = hloscope.explore(softmax, np.ones((4, 8), np.float32), show="stepper,graph", no_run=True)
    ex.select("graph")
    assert "<svg" not in ex.graph.graph.value and "no graph layout" in ex.graph.graph.value
    assert "hloscope-hlo" in ex.graph.graph.value  # the HLO text instead
    ex.select("stepper")
    ex.stepper.step(+1)
    assert "no graph layout" in ex.stepper.before.value and ex.errors == []
    ex.close()
    layout.clear_cache()


def test_a_failing_view_is_contained(monkeypatch):
    from hloscope.jupyter.panels import memory

    def broken(plan):
        raise RuntimeError("drawing failed")

    monkeypatch.setattr(memory, "memory_plan_html", broken)
    ex = hloscope.explore(softmax, np.ones((4, 8), np.float32), no_run=True)
    assert ex.report.stage("plan").finished  # the compilation went on (or came from the cache)
    assert len(ex.errors) == 1 and "this view failed" in ex.panels["memory"].widget.children[-1].value
    ex.close()


def test_close_releases_the_widgets_and_the_compilation():
    import gc
    import weakref

    from ipywidgets.widgets.widget import _instances

    ex = hloscope.explore(softmax, np.ones((4, 8), np.float32))
    ex.select("stepper")
    prefetch = ex._prefetcher  # the background layout run() started
    mine = {w.model_id for w in _descendants(ex)} | {ex.model_id}
    assert len(mine) > 50 and mine <= set(_instances)  # every tab, button, layout and style is open
    record = weakref.ref(ex.report)
    ex.close()
    assert not mine & set(_instances)  # ipywidgets no longer keeps any of them
    assert prefetch is not None and prefetch.cancelled
    prefetch.join()  # it stops after the layout in progress, and lets the explorer's graphs go
    del ex, prefetch
    gc.collect()
    assert record() is None  # nothing else kept the compilation alive


def test_gpu_ir_view_narrows_ptx_to_a_kernel():
    ex = hloscope.explore(softmax, np.ones((4, 8), np.float32), backend="gpu", show="ir")
    ir = ex.panels["ir"]
    assert "PTX" in ir.view.options
    ir.view.value = "PTX"
    kernel = next(k for k in ir.kernel.options if "fusion" in k)
    ir.kernel.value = kernel
    assert f".entry {kernel}(" in ir.code.value and ir.code.value.count(".entry") == 1
    ex.close()


def test_gpu_host_program_view_shows_the_loop():
    def damped(x):
        return hloscope.fori_loop(0, 3, lambda i, v: 0.5 * v + 1.0, x)

    ex = hloscope.explore(damped, np.ones(64, np.float32), backend="gpu", show="ir")
    ir = ex.panels["ir"]
    ir.view.value = "host program (GPU)"
    assert "while " in ir.code.value and "condition:" in ir.code.value and "launch " in ir.code.value
    ex.close()


def test_explore_shows_an_executable_and_its_record_without_compiling_again():
    import gc

    x = np.random.default_rng(1).standard_normal((4, 8)).astype(np.float32)
    exe = hloscope.compile(hloscope.jit(softmax).lower(x), cache=False)
    for shown in (exe, exe.report):
        ex = hloscope.explore(shown, x)
        c = ex.report
        assert c.executable is exe and c.llvm_ir is exe.report.llvm_ir  # the same code, not a recompile
        assert [s.name for s in c.stages][-2:] == ["run", "assembly"] and c.done and not c.failed, c.summary()
        np.testing.assert_allclose(c.outputs, softmax(x), rtol=1e-5)
        prefetch = ex._prefetcher
        ex.close()
        if prefetch is not None:
            prefetch.join()  # a background layout in progress keeps the explorer until it ends

    record = exe.report
    del exe, ex, c, shown, prefetch
    gc.collect()
    with pytest.raises(hloscope.HloscopeError, match="freed"):  # the record does not keep machine code alive
        hloscope.explore(record)
    with pytest.raises(hloscope.HloscopeError, match="made none"):
        hloscope.explore(hloscope.optimize(hloscope.jit(softmax).lower(x)))


def test_ir_panel_times_llvm_per_kernel_on_request(softmax_explorer):
    ir = softmax_explorer.panels["ir"]
    assert ir.llvm_times.value == ""  # nothing is compiled again until asked
    ir.time_llvm.click()
    assert "LLVM time by kernel" in ir.llvm_times.value
    assert all(k.llvm_function in ir.llvm_times.value for k in softmax_explorer.report.kernels)


def test_the_llvm_timing_button_says_a_failure_in_the_view(softmax_explorer, monkeypatch):
    ir = softmax_explorer.panels["ir"]
    import hloscope.jupyter.panels.ir as ir_module

    def broken(report):
        raise KeyError("no kernel named 'x' in the LLVM module")

    monkeypatch.setattr(ir_module, "llvm_time_by_kernel", broken)
    ir.time_llvm.click()
    assert "timing LLVM failed: KeyError" in ir.llvm_times.value
    ir.llvm_times.value = ""  # the explorer is shared with other tests


def test_explore_asks_the_target_for_its_own_view_before_compiling_it():
    class HasItsOwnView:
        def _hloscope_explore_(self, *args, run=True, **options):
            return ("own view", args, run, options)

    assert hloscope.explore(HasItsOwnView(), 1, run=False, pipeline="simplify") == (
        "own view", (1,), False, {"pipeline": "simplify"})


def test_a_softmax_shows_its_loops_by_default_and_why_it_runs_as_a_row_program(softmax_explorer):
    softmax_explorer.select("ir")
    ir = softmax_explorer.panels["ir"]
    kinds = {k.kind for k in softmax_explorer.report.kernels}
    assert kinds == {"row-program"}  # 16 rows of 32 f32: the row interpreter runs it
    assert "runs as <code>row-program</code>" in ir.decisions.value or "run as <code>row-program</code>" in ir.decisions.value
    assert "precompiled row interpreter" in ir.decisions.value and "library=False: plain loops" in ir.decisions.value
    assert ir.form.value == "plain loops" and ir.form.layout.display == ""
    ir.view.value = "LLVM IR"
    whole = ir.code.value
    ir.kernel.value = softmax_explorer.report.kernels[0].name
    one = ir.code.value
    assert "define" in one and "rows" not in one.split("define", 1)[1].split("(", 1)[0]  # a loop kernel, not the program
    assert re.search(r"\.(header|body)", one)  # its loop nest's blocks
    assert len(one) < len(whole)
    ir.form.value = "as it runs"
    assert ir.code.value != one and "as it runs" in ir.form.value
    assert "pick <i>plain loops</i>" in ir.decisions.value
    ir.form.value = "plain loops"


def test_plain_loops_of_an_executable_compute_what_it_computes_and_leave_it_alone():
    x = np.random.default_rng(2).standard_normal((64, 128)).astype(np.float32)
    exe = hloscope.compile(hloscope.jit(softmax).lower(x))
    loops = hloscope.plain_loops(exe)
    assert {k.kind for k in exe.report.kernels} == {"row-program"}
    assert {k.kind for k in loops.kernels} <= {"reduce", "loop"}
    assert {k.instruction for k in loops.kernels} == {k.instruction for k in exe.report.kernels}
    assert re.search(r"<\d+ x float>", loops.optimized_llvm_ir)  # the row loops vectorize, at this CPU's width
    assert hloscope.plain_loops(exe.report) is loops  # made once per compile
    np.testing.assert_allclose(exe(x), softmax(x), rtol=1e-5)
