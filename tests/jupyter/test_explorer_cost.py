"""The cost model in the explorer widget: overview, stepper, graph overlay and IR tab."""

from __future__ import annotations


def test_overview_shows_estimate_vs_measured(softmax_explorer):
    text = softmax_explorer.overview.html.value
    assert "Cost model on this CPU" in text and "measured/estimated" in text


def test_stepper_says_what_fusing_saves(softmax_explorer):
    ex = softmax_explorer
    ex.select("stepper")
    st = ex.stepper
    fusion = next(i for i, r in enumerate(st.records) if r.name == "fusion" and r.changed)
    st.select_record(fusion)
    assert "fusing saves" in st.detail.value and "on H200" in st.detail.value


def test_graph_overlay_colours_nodes_and_names_the_hottest(softmax_explorer):
    ex = softmax_explorer
    ex.select("graph")
    g = ex.graph
    plain = g.graph.value
    g.overlay.value = "bytes"
    assert "hs-cost-overlay" in g.graph.value and "hottest by bytes: " in g.graph.value
    assert "fill: #ff" in g.graph.value
    g.overlay.value = ""
    assert g.graph.value == plain


def test_ir_tab_lists_each_kernels_estimates(softmax_explorer):
    table = softmax_explorer.panels["ir"].table.value
    assert "roofline estimate per kernel" in table and "H200 (est.)" in table and "CPU (est.)" in table
