"""render_svg / render_many: SVG with instruction names, bounded time, never a traceback."""

from __future__ import annotations

import time

import pytest
from viz_helpers import chain_module

from hloscope.viz import render
from hloscope.viz.graph import module_to_dot
from hloscope.viz.graph_view import graph_html
from hloscope.viz.render import clean_svg, render_many, render_svg

needs_layout = pytest.mark.skipif(not render.available_engines(), reason="no pygraphviz and no dot")


@needs_layout
def test_small_module_renders_to_svg_with_instruction_names(softmax_opt):
    result = render_svg(module_to_dot(softmax_opt, id_prefix="g-"), timeout=30)
    assert result.ok and result.message == "" and result.engine in ("pygraphviz", "dot")
    svg = result.svg
    assert svg.startswith("<svg") and "<?xml" not in svg and "<!DOCTYPE" not in svg
    drawn = [softmax_opt.entry] + [i.attr("calls") for i in softmax_opt.entry_computation if i.opcode == "fusion"]
    for comp in map(softmax_opt.computation, drawn):
        for inst in comp:
            if inst.opcode != "parameter" or comp.name == softmax_opt.entry:
                assert f'data-instruction="{inst.name}"' in svg
    assert 'id="g-x.1"' in svg and "<title>x.1</title>" in svg
    assert 'class="cluster hlo-fusion kind-kCustom"' in svg  # Graphviz's &#45; turned back into '-'


@needs_layout
def test_layouts_are_cached_by_dot_text(softmax_opt):
    dot = module_to_dot(softmax_opt, id_prefix="cache-")
    first = render_svg(dot, timeout=30)
    assert render_svg(dot, timeout=30) is first


@needs_layout
def test_timeout_gives_a_message_not_an_exception_or_a_hang():
    dot = module_to_dot(chain_module(600), max_nodes=10_000)
    start = time.perf_counter()
    result = render_svg(dot, timeout=0.05)
    assert time.perf_counter() - start < 5
    assert result.svg is None and "stopped after 0.05 s" in result.message


@needs_layout
def test_render_many_survives_a_timeout_and_renders_the_rest(softmax_opt):
    big = module_to_dot(chain_module(600), max_nodes=10_000) + "// many\n"
    small = module_to_dot(softmax_opt, id_prefix="many-")
    render.clear_cache()
    results = render_many([big, small, small], timeout=0.3, workers=1)
    assert results[0].svg is None and "stopped after" in results[0].message
    assert results[1].ok and results[2] is results[1]


def test_no_engine_means_a_message(monkeypatch):
    monkeypatch.setattr(render, "available_engines", list)
    result = render._render_uncached("digraph { a -> b }", 1.0)
    assert result.svg is None and "pip install pygraphviz" in result.message and result.engine == "none"


@needs_layout
def test_a_broken_dot_text_is_reported():
    result = render_svg("digraph { this is not dot ", timeout=10)
    assert result.svg is None and "failed" in result.message


def test_clean_svg_tags_nodes_and_clusters():
    svg = (
        '<?xml version="1.0"?>\n<!DOCTYPE svg>\n<!-- x -->\n<svg><g id="n1" class="node hlo&#45;node op&#45;add">'
        '\n<title>f/add.1</title></g><g id="c" class="cluster hlo&#45;fusion">\n<title>cluster_fusion.2</title></g></svg>'
    )
    out = clean_svg(svg)
    assert out.startswith("<svg") and 'data-instruction="add.1"' in out and 'data-instruction="fusion.2"' in out


def test_graph_html_falls_back_to_a_summary_and_the_text(monkeypatch, softmax_opt):
    monkeypatch.setattr(render, "available_engines", list)
    render.clear_cache()
    out = graph_html(softmax_opt)
    assert "<svg" not in out and "pip install pygraphviz" in out
    assert "fusion" in out and "HLO of main.3" in out
    big = graph_html(chain_module(400))
    assert "showing a summary" in big and "<svg" not in big
    render.clear_cache()


@needs_layout
def test_graph_html_shows_the_svg(softmax_opt):
    out = graph_html(softmax_opt, timeout=30)
    assert "<svg" in out and "laid out by" in out and "http" not in out.replace("http://www.w3.org", "")
