"""The per-source-line table: each line's instructions, kernels, flops, bytes and time, adding
up to the module's totals across fusion, control flow and XLA's own optimized modules."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import hloscope
from hloscope.cost.analysis import module_totals
from hloscope.cost.source_lines import cost_by_line
from hloscope.teaching.running_example import block_inputs, transformer_block

TESTS = Path(__file__).resolve().parents[1]


def _assert_adds_up(module):
    table = cost_by_line(module)
    totals = module_totals(module)
    assert table.total.bytes_read == totals.bytes_read
    assert table.total.bytes_written == totals.bytes_written
    assert table.total.flops == totals.flops and table.total.transcendentals == totals.transcendentals
    assert sum(r.bytes_accessed for r in table.rows) == totals.bytes_accessed
    assert all(r.bytes_read >= 0 and r.bytes_written >= 0 and r.flops >= 0 for r in table.rows)
    return table


def _lines_of(fn):
    import inspect

    source, first = inspect.getsourcelines(fn)
    return {text.strip().split(" = ")[0]: first + i for i, text in enumerate(source)}


def two_lines(x, w):
    h = x @ w
    return np.tanh(h) * 2.0


def test_each_line_gets_its_own_work_and_the_lines_add_up():
    x, w = np.ones((64, 32), np.float32), np.ones((32, 16), np.float32)
    exe = hloscope.compile(two_lines, x, w)
    table = _assert_adds_up(exe.report.module)
    lines = _lines_of(two_lines)
    matmul, tail = table.row(lines["h"]), table.row(lines["return np.tanh(h) * 2.0"])
    assert matmul is not None and tail is not None
    assert matmul.flops == 2 * 64 * 32 * 16  # the dot's multiply-adds, on the line that wrote it
    assert tail.transcendentals == 64 * 16 and tail.flops == 64 * 16  # tanh, and the multiply
    assert tail.bytes_written == 64 * 16 * 4  # the result, written by the fusion of that line
    assert "x @ w" in matmul.text


def test_a_fusion_keeps_the_lines_of_all_it_holds():
    x, params = block_inputs()
    exe = hloscope.compile(lambda x, p: transformer_block(x, p), x, params)
    table = _assert_adds_up(exe.report.module)
    example = [r for r in table.rows if r.file.endswith("running_example.py")]
    assert len(example) >= 8  # layer norm, attention, gelu, residuals: each its own line
    kernels_by_line = {r.line: r.kernels for r in example}
    shared = [k for k in set().union(*kernels_by_line.values()) if sum(k in ks for ks in kernels_by_line.values()) > 1]
    assert shared, "some fusion holds instructions of several lines, and each of those lines lists it"
    assert "Cost by source line" in str(table) and "total" in str(table)


@pytest.mark.parametrize("name", sorted(json.loads((TESTS / "models" / "manifest.json").read_text())["cases"]))
def test_the_lines_add_up_on_real_models_optimized_by_hloscope(name):
    module = hloscope.parse_hlo((TESTS / "models" / f"{name}.hlo").read_text())
    _assert_adds_up(hloscope.optimize(module).module)


def test_xla_optimized_modules_with_their_own_metadata():
    folder = TESTS / "xla_dumps" / "gelu_mlp"
    text = next(folder.glob("*cpu_after_optimizations.txt")).read_text()
    module = hloscope.parse_hlo(text)
    table = _assert_adds_up(module)
    named = [r for r in table.rows if r.file]
    assert named and all(r.line > 0 for r in named)  # JAX's metadata names the lines of the user's code
    assert sum(r.flops for r in named) > 0


def test_control_flow_bodies_go_to_their_own_lines():
    def loop(x):
        return hloscope.fori_loop(0, 4, lambda i, acc: np.tanh(acc) + 1.0, x)

    exe = hloscope.compile(loop, np.ones(128, np.float32))
    table = _assert_adds_up(exe.report.module)
    assert any(r.transcendentals >= 128 for r in table.rows if r.file)


def test_the_html_and_the_explorer_tab():
    pytest.importorskip("ipywidgets")
    x, w = np.ones((64, 32), np.float32), np.ones((32, 16), np.float32)
    exe = hloscope.compile(two_lines, x, w)
    page = hloscope.cost_by_line(exe)._repr_html_()
    assert "Cost by source line" in page and "h = x @ w" in page and "heat" in page
    ex = hloscope.explore(two_lines, x, w)
    panel = ex.panels["source"]
    assert ex.errors == [] and panel.table is not None and "x @ w" in panel.html.value
    panel.metric.value = "flops"
    assert "flops" in panel.html.value


def test_measured_kernel_time_is_split_among_the_lines():
    x, w = np.ones((128, 64), np.float32), np.ones((64, 32), np.float32)
    exe = hloscope.compile(two_lines, x, w)
    table = hloscope.cost_by_line(exe, x, w, repeat=5)
    assert table.measured and table.total.measured_seconds is not None and table.total.measured_seconds > 0
    lines = _lines_of(two_lines)
    matmul = table.row(lines["h"])
    assert matmul is not None and matmul.measured_seconds is not None and matmul.measured_seconds > 0
    assert all(r.measured_seconds is not None and r.measured_seconds >= 0 for r in table.rows)
    assert "measured time" in str(table)
    # the split keeps every kernel's seconds: the lines add up to the kernels given
    module = exe.report.module
    given = {inst.name: 1e-3 * (k + 1) for k, inst in enumerate(module.entry_computation.instructions)}
    split = cost_by_line(module, given)
    assert split.total.measured_seconds == pytest.approx(sum(given.values()), rel=1e-12)


def test_a_kernel_inside_a_loop_counts_for_its_loop_line():
    def loop(x):
        return hloscope.fori_loop(0, 3, lambda i, acc: np.tanh(acc @ acc), x)

    x = np.eye(16, dtype=np.float32)
    exe = hloscope.compile(loop, x)
    table = hloscope.cost_by_line(exe, x, repeat=3)
    assert table.total.measured_seconds is not None and table.total.measured_seconds > 0
    assert sum(r.measured_seconds or 0.0 for r in table.rows if r.file) > 0
