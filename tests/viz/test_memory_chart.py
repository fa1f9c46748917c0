"""The memory chart: one rectangle per buffer, the peak line, tooltips, bounded size."""

from __future__ import annotations

import re

from viz_helpers import StandInBuffer, StandInPlan

from hloscope.viz.memory_chart import (
    human_bytes,
    live_profile,
    memory_plan_html,
    memory_plan_svg,
    memory_plan_table_html,
)


def test_one_rect_per_buffer_with_tooltip_and_instruction(small_plan):
    svg = memory_plan_svg(small_plan)
    rects = re.findall(r'<rect class="buf kind-(\w+)" data-instruction="([^"]+)"[^>]*><title>([^<]*)</title>', svg)
    assert sorted(name for _, name, _ in rects) == sorted(b.name for b in small_plan.buffers)
    kinds = {name: kind for kind, name, _ in rects}
    assert kinds["p0"] == "parameter" and kinds["out"] == "output" and kinds["a"] == "temporary"
    tip = next(t for _, name, t in rects if name == "a")
    assert "128 bytes at offset 0" in tip and "live [1, 2]: a .. b" in tip
    assert "outside the arena" in next(t for _, name, t in rects if name == "p0")


def test_rect_geometry_follows_offsets_and_live_ranges(small_plan):
    svg = memory_plan_svg(small_plan)
    geo = {
        m[0]: tuple(map(float, m[1:]))
        for m in re.findall(
            r'data-instruction="(\w+)" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"', svg
        )
    }
    a, b = geo["a"], geo["b"]
    assert b[0] > a[0]  # b starts later
    assert abs(a[3] - 2 * b[3]) < 0.2  # a is twice b's size
    assert b[1] + b[3] <= a[1] + 0.2  # b sits above a (higher offset)


def test_peak_line_and_label(small_plan):
    svg = memory_plan_svg(small_plan)
    assert 'id="peak-line"' in svg and "arena peak 192 bytes" in svg
    assert live_profile(small_plan) == [0, 128, 192, 128]
    assert "most live bytes: 192 at position 2 (b)" in svg


def test_thousands_of_buffers_stay_bounded():
    buffers = [StandInBuffer(f"t{i}", (i % 50) * 64, 64 + i, i % 300, i % 300 + 3) for i in range(5000)]
    plan = StandInPlan(buffers, peak_bytes=50 * 64 + 5064, naive_bytes=10**7, schedule=[f"t{i}" for i in range(303)])
    svg = memory_plan_svg(plan, max_buffers=1000)
    assert svg.count('class="buf') == 1000 and "4,000 smaller buffers not drawn" in svg
    assert len(svg) < 400_000
    table = memory_plan_table_html(plan)
    assert table.count("<tr class=") == 500 and "4,500 more buffers" in table


def test_html_has_stats_chart_and_table(small_plan):
    out = memory_plan_html(small_plan)
    assert "arena peak 192 B" in out and "<svg" in out and out.count('<tr class="kind-') == 5
    assert "http" not in out.replace("http://www.w3.org", "")


def test_human_bytes():
    assert human_bytes(100) == "100 B" and human_bytes(1536) == "1.5 KiB" and human_bytes(3 * 2**20) == "3.0 MiB"


def test_real_memory_plan():
    from viz_helpers import corpus_module

    from hloscope.memory import plan_memory
    from hloscope import optimize

    result = optimize(corpus_module("softmax"))
    plan = result.memory_plan or plan_memory(result.module)
    svg = memory_plan_svg(plan)
    assert svg.count('class="buf') == len(plan.buffers) and 'id="peak-line"' in svg
    assert f"arena peak {plan.peak_bytes:,} bytes" in svg
