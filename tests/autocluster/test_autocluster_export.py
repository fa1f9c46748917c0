"""An autojit call saved as HTML: the program page (every stage's graph, decisions, timings)
links one compilation page per cluster."""

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


def test_the_html_export_links_each_clusters_page(tmp_path):
    f = hloscope.autojit(solve_between)
    f(A, V)
    page = f.record(A, V).save_html(tmp_path / "solve.html")
    text = page.read_text()
    assert text.count("<svg") == 4 and "after build_xla_ops" in text and "would create" not in text
    assert "href='solve.cluster_0.html'" in text and "href='solve.cluster_1.html'" in text
    cluster_page = (tmp_path / "solve.cluster_1.html").read_text()
    assert 'id="panel-stepper"' in cluster_page and "exponential" in cluster_page
