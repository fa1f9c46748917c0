"""hloscope.sweep: fusion on/off across sizes, and the figure of run time against bytes moved."""

from __future__ import annotations

import re

from whatif_helpers import softmax

import hloscope

SIZES = [64, 256]


def test_sweep_fusion_on_and_off_across_sizes(tmp_path):
    s = hloscope.sweep(softmax, sizes=SIZES, changes=[{"disable": ["fusion", "multi_output_fusion"]}], repeats=3)
    rows = s.rows()
    assert [(r[0], r[1]) for r in rows] == [
        ("original", "64x64"), ("disable=fusion,multi_output_fusion", "64x64"),
        ("original", "256x256"), ("disable=fusion,multi_output_fusion", "256x256"),
    ]
    for fused, unfused in zip(rows[0::2], rows[1::2]):
        assert unfused[2] > fused[2] and unfused[4] > fused[4]  # more bytes, more kernels
        assert fused[3] is not None and unfused[3] is not None
    assert rows[2][2] > 10 * rows[0][2]  # 16x the elements: the bytes follow
    svg = s.save(tmp_path / "sweep.svg").read_text()
    assert svg.startswith("<svg") and svg.count("<circle") == 4 and svg.count("<polyline") == 2
    assert "disable=fusion,multi_output_fusion" in svg and "bytes moved" in svg
    # every point lies inside the plot
    for cx, cy in re.findall(r"cx='([\d.]+)' cy='([\d.]+)'", svg):
        assert 70 <= float(cx) <= 760 - 240 and 30 <= float(cy) <= 400 - 50
    assert "256x256" in s.text()
