"""The explorer's panels and the HTML page show the parts and the saved activations for a
training step, and nothing new for other programs."""

from __future__ import annotations

import numpy as np
from autodiff_view_steps import mlp_arguments, mlp_step

import hloscope
from hloscope.memory.saved_activations import saved_activations
from hloscope.memory.training_parts import classify, part_counts
from hloscope.viz.export import export_html
from hloscope.viz.export_panels import run_panel
from hloscope.viz.training_html import PART_COLOR, SAVED_COLOR

TABLE_TITLE = "Activations saved for the backward pass"


def test_html_page_has_the_table_the_legend_and_the_counts(mlp_report):
    page = export_html(mlp_report, timeout=30)
    assert TABLE_TITLE in page and "saved for backward" in page and "Forward and backward" in page
    first, last = part_counts(mlp_report.input_module), part_counts(mlp_report.module)
    assert f"backward</span> {first['backward']} &rarr; {last['backward']}" in page
    table = page.split("hs-saved-activations", 1)[1].split("</table>", 1)[0]
    saved = saved_activations(mlp_report.module, mlp_report.memory_plan)
    assert table.count("<tr>") == len(saved) + 1  # the header, then one row per saved value
    for a in saved:
        assert f"<td class=''>{a.value}</td>" in table and f"<td class='num'>{a.size:,}</td>" in table
    assert page.count(f'fill="{SAVED_COLOR}"') >= 2  # the legend and at least one buffer


def test_page_of_a_program_without_backward_is_unchanged():
    report = hloscope.jit(lambda x: np.tanh(x) * 2).compile(np.ones((4, 8), np.float32)).report
    page = export_html(report, timeout=30)
    assert "<th class=''>part</th>" not in run_panel(report)
    assert TABLE_TITLE not in page and "Forward and backward" not in page and "saved for backward" not in page


def test_explorer_panels_render_the_parts():
    ex = hloscope.explore(mlp_step, *mlp_arguments(), no_run=True)
    try:
        assert ex.errors == []
        ex.select("memory")
        assert TABLE_TITLE in ex.panels["memory"].widget.children[0].value
        ex.select("ir")
        kernels = ex.panels["ir"].table.value
        assert "<th>part</th>" in kernels and "<td>backward</td>" in kernels and "<td>forward</td>" in kernels
        ex.select("overview")
        overview = ex.panels["overview"]
        assert "Forward and backward" in overview.parts.value and "mixing forward and backward" in overview.parts.value
    finally:
        ex.close()


def test_kernel_list_says_which_pass_each_kernel_runs(mlp_report):
    parts = classify(mlp_report.module)
    assert mlp_report.kernels
    html = run_panel(mlp_report)
    assert "<th class=''>part</th>" in html
    for k in mlp_report.kernels:
        label = parts[k.instruction].part + (" (mixed)" if parts[k.instruction].mixed else "")
        assert f"<td class=''>{k.instruction}</td>" in html and f"<td class=''>{label}</td>" in html
