"""`%%hlo --xla` and the explorer's "vs XLA" tab: XLA compiles the cell too (through jaxlib),
the explorer shows XLA's own record with a tab comparing it to hloscope's."""

from __future__ import annotations

import numpy as np
import pytest

from jupyter_helpers import SCALE_HLO

jax = pytest.importorskip("jax")

pytestmark = pytest.mark.jax

LAYER = '''%%hlo layer(x, w) --xla
def layer(x, w):
    return np.tanh(x @ w) * 2.0
'''


def test_python_cell_with_xla_shows_xlas_record_with_a_vs_xla_tab(run, shell, monkeypatch):
    from hloscope import Compilation
    from hloscope.jupyter import magic
    from hloscope.jupyter.explorer import Explorer
    from hloscope.xla import Comparison

    shown = []
    monkeypatch.setattr(magic, "display", shown.append)
    shell.user_ns.update(x=np.ones((4, 8), np.float32), w=np.full((8, 3), 0.1, np.float32))
    result, _ = run(LAYER)
    assert result.success, result.error_in_exec
    explorer = next(s for s in shown if isinstance(s, Explorer))
    try:
        assert "xla" in explorer.panels and explorer.errors == []
        assert "hs-vs-fusions" in explorer.panels["xla"].html.value
    finally:
        explorer.close()
    report, comparison = shell.user_ns["hlo_report"], shell.user_ns["hlo_comparison"]
    assert isinstance(report, Compilation) and isinstance(comparison, Comparison)
    assert report is comparison.xla and report.target == "xla:cpu" and report.comparison is comparison
    assert len(report.records) > 10 and comparison.outputs.startswith("matches"), comparison.outputs


def test_hlo_cell_with_xla_and_args(run, shell):
    shell.user_ns["x"] = np.arange(32, dtype=np.float32).reshape(4, 8)
    result, _ = run("%%hlo --xla --args x\n" + SCALE_HLO)
    assert result.success, result.error_in_exec
    comparison = shell.user_ns["hlo_comparison"]
    assert comparison.xla.input_module.name == "scale" and comparison.outputs.startswith("matches")
    assert comparison.timing("XLA").seconds > 0


def test_xla_option_parses():
    from hloscope.jupyter.options import parse_options

    assert parse_options(["--xla"]).xla and not parse_options([]).xla
    assert parse_options(["--show", "overview,xla"]).show == ("overview", "xla")


def test_vs_xla_panel_renders_the_comparison_tables():
    import hloscope
    from hloscope.jupyter.explorer import Explorer

    def f(x, w):
        return jax.numpy.tanh(x @ w + 1.0) * 2.0 - x[:, :3]

    args = (np.ones((4, 8), np.float32), np.full((8, 3), 0.1, np.float32))
    comparison = hloscope.xla.compare(f, *args, time_budget=0.01)
    ex = hloscope.explore(comparison)
    try:
        assert ex.errors == [] and "xla" in ex.panels and ex.report.comparison is comparison
        ex.select("xla")
        html = ex.panels["xla"].html.value
        assert html.count("<table") == 5 and "Pipelines by role" in html and "s reason</th>" in html
        panel = ex.panels["xla"]
        index = next(i for i, m in enumerate(comparison.fusions) if m.xla and m.hloscope)
        panel.select(index)
        match = comparison.fusions[index]
        assert match.xla[0].name in panel.xla.value and "fused_computation" in panel.xla.value
        assert match.hloscope[0].name in panel.ours.value and match.status in panel.reason.value
        assert ex.errors == []
    finally:
        ex.close()
    on_xla = Explorer(comparison.xla)  # XLA's own record gets the tab too
    try:
        assert list(on_xla.panels)[-1] == "xla" and on_xla.errors == []
    finally:
        on_xla.close()
    plain = Explorer(comparison.xla, show=("overview",))
    try:
        assert list(plain.panels) == ["overview"]  # a chosen set of panels is kept as chosen
    finally:
        plain.close()
