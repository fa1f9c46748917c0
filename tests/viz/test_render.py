"""The layout engines: one worker process, the system `dot`, clean SVG, and graph_html's
fallback to a summary (the service around them is tested in test_layout.py)."""

from __future__ import annotations

import os
import sys
import time

import pytest
from viz_helpers import chain_module

from hloscope.viz import layout, render
from hloscope.viz.graph import module_to_dot
from hloscope.viz.graph_view import graph_html
from hloscope.viz.render import LayoutWorker, clean_svg, render_with_dot

needs_pygraphviz = pytest.mark.skipif(
    "pygraphviz" not in render.available_engines(), reason="pygraphviz is not installed"
)


@pytest.fixture
def worker():
    w = LayoutWorker()
    yield w
    w.close()


@needs_pygraphviz
def test_a_worker_lays_out_graphs_one_after_another(worker):
    pid = worker.proc.pid
    first = worker.render("digraph g { a -> b; }", 30)
    second = worker.render("digraph g { c -> d; }", 30)
    assert first.ok and second.ok and "<title>c</title>" in second.svg
    assert worker.alive and worker.proc.pid == pid


@needs_pygraphviz
def test_a_worker_past_its_timeout_is_killed(worker):
    worker.render("digraph g { warm -> up; }", 30)
    dot = module_to_dot(chain_module(600), max_nodes=10_000)
    start = time.perf_counter()
    result = worker.render(dot, 0.1)
    assert time.perf_counter() - start < 5
    assert result.svg is None and "stopped after 0.1 s" in result.message and not worker.alive


@needs_pygraphviz
def test_a_worker_reports_a_broken_dot_text_and_goes_on(worker):
    result = worker.render("digraph { this is not dot ", 30)
    assert result.svg is None and "graph layout failed" in result.message and worker.alive
    assert worker.render("digraph g { a -> b; }", 30).ok


def test_the_system_dot_failing_keeps_both_reasons(tmp_path, monkeypatch):
    script = tmp_path / "dot"
    script.write_text(f"#!{sys.executable}\nimport sys\nsys.stderr.write('Warning: x\\nError: bad\\n')\nsys.exit(2)\n")
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ.get('PATH', '')}")
    result = render_with_dot("digraph { a }", 10, earlier_failure="pygraphviz: gone")
    assert result.svg is None and result.engine == "dot"
    assert "(pygraphviz: gone; dot: Error: bad)" in result.message


def test_no_system_dot_is_a_message(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty folder: no `dot` on it
    result = render_with_dot("digraph { a }", 10)
    assert result.svg is None and "graph layout failed (dot:" in result.message


def test_clean_svg_tags_nodes_and_clusters():
    svg = (
        '<?xml version="1.0"?>\n<!DOCTYPE svg>\n<!-- x -->\n<svg><g id="n1" class="node hlo&#45;node op&#45;add">'
        '\n<title>f/add.1</title></g><g id="c" class="cluster hlo&#45;fusion">\n<title>cluster_fusion.2</title></g></svg>'
    )
    out = clean_svg(svg)
    assert out.startswith("<svg") and 'data-instruction="add.1"' in out and 'data-instruction="fusion.2"' in out


def test_graph_html_falls_back_to_a_summary_and_the_text(monkeypatch, softmax_opt):
    monkeypatch.setattr(render, "available_engines", list)
    layout.clear_cache()
    out = graph_html(softmax_opt)
    assert "<svg" not in out and "pip install pygraphviz" in out
    assert "fusion" in out and "HLO of main.3" in out
    big = graph_html(chain_module(400))
    assert "showing a summary" in big and "<svg" not in big


@needs_pygraphviz
def test_graph_html_shows_the_svg(softmax_opt):
    out = graph_html(softmax_opt, timeout=30)
    assert "<svg" in out and "laid out by" in out and "http" not in out.replace("http://www.w3.org", "")
