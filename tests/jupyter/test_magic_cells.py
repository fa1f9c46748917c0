"""%%hlo in an IPython shell: both kinds of cell, the names it leaves, short errors."""

from __future__ import annotations

import numpy as np

from jupyter_helpers import CUSTOM_CALL_HLO, SCALE_HLO

LAYER = '''%%hlo layer(x, w)
def layer(x, w):
    h = x @ w
    return np.maximum(h, 0.0)
'''


def _no_traceback(out: str, max_lines: int = 8) -> None:
    assert "Traceback" not in out and "site-packages" not in out and "hloscope/" not in out, out
    assert len([ln for ln in out.splitlines() if ln.strip()]) <= max_lines, out


def test_python_cell_on_notebook_variables_leaves_names(run, shell):
    shell.user_ns.update(x=np.ones((4, 8), np.float32), w=np.full((8, 3), 0.5, np.float32))
    result, _ = run(LAYER)
    assert result.success, result.error_in_exec
    ns = shell.user_ns
    from hloscope.frontend.jit import Jitted
    from hloscope import Compilation

    assert isinstance(ns["layer"], Jitted)  # the function name is bound to a jitted version
    report = ns["hlo_report"]
    assert isinstance(report, Compilation) and report.done and not report.failed, report.summary()
    np.testing.assert_allclose(ns["_hlo"](ns["x"], ns["w"]), np.full((4, 3), 4.0))
    np.testing.assert_allclose(ns["layer"](ns["x"], ns["w"]), np.full((4, 3), 4.0))
    # numpy always; jax too when it is already imported (another test may have imported it)
    assert {c.name for c in report.checks} >= {"evaluator", "numpy"} and all(c.ok for c in report.checks)


def test_python_cell_with_shapes_uses_seeded_random_inputs(run, shell):
    cell = ("%%hlo sm(f32[8,16])\ndef sm(x):\n    e = np.exp(x - x.max(axis=1, keepdims=True))\n"
            "    return e / e.sum(axis=1, keepdims=True)\n")
    run(cell)
    first = shell.user_ns["hlo_report"].inputs[0].copy()
    result, _ = run(cell)
    report = shell.user_ns["hlo_report"]
    assert result.success and report.inputs[0].shape == (8, 16) and (report.inputs[0] == first).all()
    np.testing.assert_allclose(np.asarray(report.outputs).sum(axis=1), 1.0, rtol=1e-5)


def test_traced_lines_point_at_the_cell(run, shell):
    result, _ = run(LAYER.replace("layer(x, w)", "layer(f32[2,8], f32[8,3])", 1))
    assert result.success
    report = shell.user_ns["hlo_report"]
    lines = {i.metadata.source_line for _, i in report.input_module.all_instructions()
             if i.opcode in ("dot", "maximum") and i.metadata}
    assert lines == {3, 4}, report.input_module.to_text()  # line 1 is the %%hlo line, as the notebook numbers it


def test_line_magic_for_a_function_defined_above(run, shell):
    run("def double(v):\n    return v * 2")
    result, _ = run("%hlo double(f32[3]) --no-run")
    report = shell.user_ns["hlo_report"]
    assert result.success and report.stage("run").status == "skipped" and report.outputs is None


def test_hlo_cell_random_inputs_and_args(run, shell):
    result, _ = run("%%hlo --pipeline simplify\n" + SCALE_HLO)
    report = shell.user_ns["hlo_report"]
    assert result.success and report.kind == "hlo" and report.pipeline.name == "simplify"
    shell.user_ns["a"] = np.arange(32, dtype=np.float32).reshape(4, 8)
    result, _ = run("%%hlo --args a --passes algsimp,dce --name rep2\n" + SCALE_HLO)
    rep = shell.user_ns["rep2"]
    assert result.success and [r.name for r in rep.records] == [
        "layout-normalization", "batchnorm_expander", "sharding-remover", "add-dependency-remover", "algsimp", "dce", "complex-as-pairs",
        "narrow-ints-as-bytes", "small-floats-as-bytes", "kernel-strategy"]
    np.testing.assert_array_equal(rep.outputs, shell.user_ns["a"] * 2)
    np.testing.assert_array_equal(shell.user_ns["_hlo"](shell.user_ns["a"]), shell.user_ns["a"] * 2)


def test_hlo_parse_error_shows_the_cell_line_and_a_caret(run):
    result, out = run("%%hlo\nHloModule m\n\nENTRY e {\n  p = f32[4] parameter(0)\n  ROOT a = f32[4] ad(p, p)\n}\n")
    assert not result.success
    assert "HloParseError at line 6 of the cell" in out and "unknown opcode 'ad'" in out
    lines = out.splitlines()
    caret = next(i for i, ln in enumerate(lines) if ln.strip() == "^")
    assert lines[caret - 1].index("ad(") == lines[caret].index("^")
    _no_traceback(out)


def test_shape_error_shows_the_users_line(run):
    result, out = run("%%hlo bad(f32[4,5])\ndef bad(x):\n    y = x + 1\n    return x @ x\n")
    assert not result.success
    assert "ShapeError while tracing" in out and "return x @ x" in out and ":4 in bad" in out
    _no_traceback(out)


def test_errors_in_the_cells_own_code_and_in_the_call(run):
    result, out = run("%%hlo f(x)\ndef f(x):\n    return x\nraise ValueError('boom')\n")
    assert "ValueError in the cell: boom" in out and "line 4: raise ValueError('boom')" in out
    _no_traceback(out)
    result, out = run("%%hlo f(nothing_here)\ndef f(x):\n    return x\n")
    assert not result.success and "nothing_here" in out and "f32[128,256]" in out
    _no_traceback(out)
    result, out = run("%%hlo f(x) --frobnicate\ndef f(x):\n    return x\n")
    assert not result.success and "unrecognized arguments: --frobnicate" in out
    _no_traceback(out, max_lines=3)
    result, out = run("%%hlo\ndef f(x):\n    return x\n")
    assert not result.success and "say which function" in out


def test_a_python_error_while_tracing_is_short_too(run):
    result, out = run("%%hlo z(f32[2])\ndef z(x):\n    return x / 0 if 1 / 0 else x\n")
    assert not result.success and "ZeroDivisionError while tracing" in out and "in z" in out
    _no_traceback(out, max_lines=5)


def test_debug_shows_the_real_traceback(run):
    result, out = run("%%hlo bad(f32[4,5]) --debug\ndef bad(x):\n    return x @ x\n")
    assert not result.success and "Traceback" in out and "ShapeError" in out


def test_a_backend_failure_is_a_failed_stage_not_a_crash(run, shell):
    result, _ = run("%%hlo\n" + CUSTOM_CALL_HLO)
    report = shell.user_ns["hlo_report"]
    assert result.success
    assert report.stage("lower").status == "failed" and "custom-call" in report.stage("lower").note
    assert report.stage("run").status == "skipped" and report.stage("plan").status == "done"
    assert shell.user_ns["_hlo"] is None


def test_gpu_backend_shows_ptx_and_runs_only_with_a_gpu(run, shell):
    result, _ = run("%%hlo --backend gpu\n" + SCALE_HLO)
    report = shell.user_ns["hlo_report"]
    assert result.success and report.stage("ptx").status == "done", report.summary()
    assert ".entry" in report.ptx and "PTX" in report.stage("assembly").note
    run_stage = report.stage("run")
    assert run_stage.status == "done" or (run_stage.status == "skipped" and "GPU" in run_stage.note)


def test_show_limits_the_tabs(run, shell, monkeypatch):
    shown = []
    import hloscope.jupyter.magic as magic

    monkeypatch.setattr(magic, "display", lambda obj: shown.append(obj))
    result, _ = run("%%hlo --show overview,stepper\n" + SCALE_HLO)
    assert result.success and list(shown[0].panels) == ["overview", "stepper"]
    assert [shown[0].tabs.get_title(i) for i in range(2)] == ["Overview", "Pass stepper"]
