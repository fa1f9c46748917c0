"""memory_at_peak: every buffer live at the peak, why, and the rows summing to the peak."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from peak_modules import THREE_TEMPORARIES

import hloscope
from hloscope import parse_hlo
from hloscope.memory import plan_memory
from hloscope.memory.at_peak import memory_at_peak, position_totals
from hloscope.teaching.running_example import block_inputs, block_loss

DUMPS = Path(__file__).resolve().parents[1] / "xla_dumps"


def independent_peak(plan) -> tuple[int, int]:
    """(position, bytes) of the most bytes live, from the plan's own arena profile plus a
    separate count of the parameters and constants live at each position."""
    outside = [sum(b.size for b in plan.buffers if b.kind in ("parameter", "constant") and b.start <= i <= b.end)
               for i in range(len(plan.schedule))]
    totals = [a + o for a, o in zip(plan.live_bytes, outside)]
    best = max(totals)
    return totals.index(best), best


def assert_sums(plan, module=None) -> None:
    at = memory_at_peak(plan, module)
    assert sum(r.bytes for r in at.rows) == at.total_bytes == at.arena_bytes + at.outside_bytes
    assert (at.position, at.total_bytes) == independent_peak(plan)
    assert at.arena_bytes <= plan.min_bytes <= plan.peak_bytes == at.arena_peak_bytes
    assert {r.label for r in at.rows} == {b.label for b in plan.buffers if b.live_at(at.position)}


def test_three_temporaries_alive_together_are_the_peak():
    module = parse_hlo(THREE_TEMPORARIES)
    at = memory_at_peak(plan_memory(module), module)
    assert (at.position, at.instruction) == (3, "c")  # a, b and c are all live while c is made
    assert (at.total_bytes, at.arena_bytes, at.outside_bytes) == (16384, 3 * 4096, 4096)
    rows = {r.label: r for r in at.rows}
    assert set(rows) == {"p", "a", "b", "c"} and all(r.bytes == 4096 for r in at.rows)
    assert rows["p"].why == "a parameter: the caller's array for the whole call"
    assert rows["b"].last_user == "ab" and rows["b"].why == "read last by ab (add) at position 4"
    assert rows["c"].why.startswith("made here; read last by abc")
    assert rows["a"].why.startswith("read by ab, which overwrites it in place")  # then it holds the result
    assert at.profile == position_totals(plan_memory(module))


def test_a_result_lives_to_the_end_and_rows_name_source_lines():
    x, params = block_inputs()
    exe = hloscope.compile(hloscope.grad(block_loss), params, x, np.zeros_like(x))
    at = exe.report.memory_at_peak(suggest=False)
    assert at.suggestions is None
    assert_sums(exe.report.memory_plan, exe.report.module)
    outputs = [r for r in at.rows if r.kind == "output" and r.why.startswith("a result")]
    assert outputs and all(r.last_user is None for r in outputs)
    temporaries = [r for r in at.rows if r.kind == "temporary"]
    assert temporaries and all(r.last_user for r in temporaries)
    assert any("running_example.py" in r.source for r in temporaries)
    fusion = next(r for r in temporaries if r.opcode == "fusion")
    assert len(fusion.sources) >= 1  # the lines of what the fusion holds


def test_text_and_html():
    module = parse_hlo(THREE_TEMPORARIES)
    at = memory_at_peak(plan_memory(module), module)
    text = str(at)
    assert text.startswith("Memory at the peak of main: 16,384 bytes live at position 3 of 6 (c)")
    assert "16,384  total" in text and text.count("\n") >= 7
    page = at._repr_html_()
    assert "Live at the peak" in page and "hs-peak-profile" in page and "peak: position 3" in page
    assert page.count("<tr class='kind-") == 4 and "16,384" in page


def test_xlas_buffer_assignment_at_its_peak_is_xlas_own_number():
    c = hloscope.xla.load(DUMPS / "gelu_mlp")
    at = c.memory_at_peak()
    assert at.suggestions is None  # measured with hloscope's planner: not on XLA's plan
    assert_sums(c.memory_plan, c.module)
    # XLA's live-range dump: "Live ranges at 7 (peak)", 255,232 bytes
    assert (at.position, at.total_bytes) == (c.memory_plan.live_peak_position, c.memory_plan.live_peak_bytes)
    rows = {r.label: r for r in at.rows}
    assert rows["ynn_fusion.1"].instruction == "multiply_multiply_fusion"  # the value it holds there
    assert rows["ynn_fusion.1"].last_user == "ynn_fusion"


@pytest.mark.parametrize("dump", ["gelu_mlp", "gpu_synthetic"])
def test_xla_dumps_sum(dump):
    c = hloscope.xla.load(DUMPS / dump)
    assert_sums(c.memory_plan, c.module)
