"""The explorer's Graph panel on a model with name scopes: open, close, search, and the stepper's
list of changed scopes (headless widgets, as the other explorer tests)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

import hloscope
from hloscope.jupyter.explorer import Explorer
from hloscope.viz.name_scopes import scope_tree
from hloscope.viz.render import available_engines

ROOT = Path(__file__).resolve().parents[2]


def _make_scoped_module(n: int) -> str:
    spec = importlib.util.spec_from_file_location("generate_scoped", ROOT / "benchmarks" / "generate_scoped.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.make_scoped_module(n)


@pytest.fixture(scope="module")
def scoped_explorer():
    if not available_engines():
        pytest.skip("no Graphviz engine: these check the drawn graph")
    module = hloscope.parse_hlo(_make_scoped_module(1200))
    # the record of the passes alone (no fusion, so the scopes stay apart; no LLVM: it is slow here)
    ex = Explorer(hloscope.optimize(module, pipeline="simplify"), show=["graph"])
    assert ex.errors == []
    yield ex
    ex.close()


def _closed_scopes(svg_html: str) -> list[str]:
    return re.findall(r'class=\\?"node hlo-scope[^"\\]*\\?" data-scope=\\?"([^"\\]+)', svg_html)


def test_the_graph_opens_grouped_and_a_picked_scope_opens(scoped_explorer):
    ex = scoped_explorer
    ex.select("graph")
    g = ex.graph
    assert g.scopes.widget.layout.display != "none"
    closed = _closed_scopes(g.graph.value)
    assert closed, "a 1,200-instruction model opens with closed scopes"
    target = closed[0]
    g.scopes.pick.value = ("scope", target)
    assert f'data-scope="{target}"' in g.graph.value
    assert target not in _closed_scopes(g.graph.value)  # now an open box
    tree = scope_tree(g.module, g.module.entry_computation)
    scope = tree.by_key(target)
    assert scope is not None
    # opening a scope draws what is directly inside it: its instructions and its child scopes
    assert set(scope.members) <= set(re.findall(r'data-instruction="([^"]+)"', g.graph.value))
    assert {"/".join(c) for c in scope.children} <= set(re.findall(r'data-scope="([^"]+)"', g.graph.value))
    assert scope.members or scope.children
    g.scopes.close_button.click()
    assert target in _closed_scopes(g.graph.value)
    g.scopes.first_button.click()
    assert g.scopes.view == g.scopes.base


def test_search_finds_an_instruction_in_a_closed_scope_and_selects_it(scoped_explorer):
    ex = scoped_explorer
    ex.select("graph")
    g = ex.graph
    g.scopes.first_button.click()
    tree = scope_tree(g.module, g.module.entry_computation)
    hidden = next(n for n, p in tree.path_of.items() if p and p not in g.scopes.view.expanded)
    g.scopes.search.value = hidden
    hits = [v for _, v in g.scopes.pick.options if v is not None]
    assert ("instruction", hidden) in hits
    g.scopes.pick.value = ("instruction", hidden)
    assert g.choice.value == hidden
    assert f'data-instruction="{hidden}"' in g.graph.value  # its scope was opened to draw it
    assert hidden in g.details.value
    g.scopes.search.value = "layer_0/mlp"
    found = [(label, v) for label, v in g.scopes.pick.options if v is not None]
    assert found and all(kind == "scope" and "layer_0/mlp" in name for _, (kind, name) in found)
    assert all(label.startswith(name) for label, (_, name) in found)  # whole keys: forward and backward apart


def test_the_stepper_names_the_scopes_a_pass_changed():
    module = hloscope.parse_hlo(_make_scoped_module(300))
    ex = Explorer(hloscope.optimize(module), show=["stepper"])
    try:
        ex.select("stepper")
        st = ex.stepper
        st.changed_only.value = True
        assert st.visible
        st.select_record(st.visible[0])
        assert "scopes changed:" in st.detail.value
    finally:
        ex.close()
