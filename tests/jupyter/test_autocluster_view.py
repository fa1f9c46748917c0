"""The explorer view of an auto-clustered call: every stage's graph draws, each pass's
decisions show, and a cluster's own compilation opens in the usual explorer."""

from __future__ import annotations

import numpy as np

import hloscope

rng = np.random.default_rng(0)
A = rng.standard_normal((4, 4))
V = rng.standard_normal(4)


def solve_between(a, v):
    m = a @ a.T + 4.0 * np.eye(4)
    y = np.linalg.solve(m, v)
    return np.exp(y) * 3.0 - y


def test_the_view_draws_every_stage_and_opens_a_cluster():
    f = hloscope.autojit(solve_between)
    view = hloscope.explore(f, A, V)
    try:
        assert view.record.calls == 1  # explored calls run once, so clusters have their compilations
        tables = view.children[0].value
        assert "cluster_0" in tables and "numpy.linalg.solve" in tables and "no lowering" in tables
        for label in ["traced", "after mark_for_compilation", "after encapsulate_subgraphs", "after build_xla_ops"]:
            view.select_stage(label)
            assert "<svg" in view.graph.value, label
        assert "XlaRun" in view.graph.value and "host: numpy.linalg.solve" in view.graph.value
        assert "would create" not in view.decisions.value  # build_xla_ops only rewrites
        view.select_stage("after mark_for_compilation")
        assert "left out" in view.decisions.value and "clustered" in view.decisions.value
        explorer = view.open_cluster("cluster_1")
        assert explorer is not None and explorer.errors == [] and view.errors == []
        assert explorer.report is not None and explorer.report.module is not None
        assert view.cluster_box.children == (explorer,)
        assert view.open_cluster("") is None and view.cluster_box.children == ()
    finally:
        view.close()


def test_the_dot_marks_host_nodes_and_clusters_apart():
    from hloscope.viz.autocluster import program_dot

    rec = hloscope.autojit(solve_between).record(A, V)
    marked = program_dot(rec.passes[0].after)
    assert 'subgraph "cluster_cluster_0"' in marked and 'subgraph "cluster_cluster_1"' in marked
    assert 'shape="folder"' in marked  # the host call
    final = program_dot(rec.final)
    assert final.count('shape="hexagon"') == 2 and final.count('shape="box3d"') == 2  # XlaCompile, XlaRun

