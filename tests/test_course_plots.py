"""The course's SVG plot (hloscope.teaching.plots): a well-formed drawing with a marker per point,
a line per curve, a legend entry per series, and log axes ticked at powers of ten."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from hloscope.teaching.plots import SVGPlot

SVG = "{http://www.w3.org/2000/svg}"


def test_points_lines_and_legend():
    plot = SVGPlot("bytes", "seconds", log=True)
    plot.points("fused", [(1e6, 1e-4), (1e7, 1e-3), (1e8, 1e-2)]).line("copy", [(1e6, 5e-5), (1e8, 5e-3)])
    root = ET.fromstring(plot._repr_html_())
    assert len(root.findall(f".//{SVG}circle")) == 3 and len(root.findall(f".//{SVG}polyline")) == 1
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert {"fused", "copy", "bytes", "seconds"} <= set(texts)
    assert {"1e+06", "1e+07", "1e+08"} <= set(texts)  # decades on the log x axis


def test_a_linear_plot_puts_bigger_values_higher():
    root = ET.fromstring(SVGPlot("x", "y").points("p", [(1, 1), (2, 4)]).svg())
    (a, b) = root.findall(f".//{SVG}circle")
    assert float(b.get("cx")) > float(a.get("cx")) and float(b.get("cy")) < float(a.get("cy"))  # SVG's y grows down
