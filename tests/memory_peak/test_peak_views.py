"""Memory at the peak in the record (exe.report.memory_at_peak()), the explorer's memory
panel, the HTML export and the vs XLA lens."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import hloscope
from hloscope.teaching.running_example import block_inputs, block_loss

GELU_DUMP = Path(__file__).resolve().parents[1] / "xla_dumps" / "gelu_mlp"


@pytest.fixture(scope="module")
def training():
    x, params = block_inputs()
    return hloscope.compile(hloscope.grad(block_loss), params, x, np.zeros_like(x))


def test_the_record_answers_with_measured_suggestions(training):
    at = training.report.memory_at_peak()
    assert at.total_bytes == sum(r.bytes for r in at.rows) > training.report.memory_plan.peak_bytes
    assert at.suggestions is not None
    for s in at.suggestions:
        assert s.after_bytes < s.before_bytes == at.total_bytes


def test_the_memory_panel_shows_it_between_chart_and_table(training):
    pytest.importorskip("ipywidgets")
    from hloscope.jupyter.panels.memory import MemoryPanel

    panel = MemoryPanel()
    panel.update(training.report)
    page = panel.html.value
    assert "<svg" in page and "Live at the peak" in page and "peak: position" in page
    assert page.index("Live at the peak") < page.index("hs-memory'")  # before the table of buffers
    assert "hs-peak-suggestions" in page


def test_the_html_export_has_it(training, tmp_path):
    page = training.report.save_html(tmp_path / "page.html").read_text()
    assert "Live at the peak" in page and "why still live" in page


def test_the_lens_reads_xlas_buffer_assignment_at_its_peak():
    from hloscope.xla.memory_compare import xla_memory

    side = xla_memory(hloscope.xla.load(GELU_DUMP))
    assert side.at_peak is not None and side.at_peak.total_bytes == 255232
    assert side.cells()[3] == "255,232"


@pytest.mark.jax
def test_the_vs_xla_view_puts_both_peaks_side_by_side():
    c = hloscope.xla.compare(hloscope.xla.load(GELU_DUMP), time_budget=0.02)
    rows = {what: (a, b) for what, a, b in c.table()}
    assert rows["memory: live at the peak"][0] == "255,232"
    assert rows["memory: live at the peak"][1] == f"{c.hloscope.memory_at_peak(suggest=False).total_bytes:,}"
    page = c.html()
    assert "Memory at the peak" in page and page.count("Live at the peak") == 2
    assert "XLA's own live-range dump puts its peak at position 7 with 255,232 bytes" in page
