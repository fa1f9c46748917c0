"""Real-model graphs grouped by the model's own name scopes (op_name metadata).

Grouping is checked on metadata JAX really wrote: the recorded GPT-2 training step of
tests/models (no named scopes: JAX writes `jvp()`, `transpose(jvp())` and jitted helpers'
names) and, live, a GPT-2 step written with `jax.named_scope` (tests/viz/scoped_jax.py).
Then what the DOT holds for closed and open scopes, highlighting, and the flat fallback.
"""

from __future__ import annotations

import html
import importlib.util
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import hloscope
from hloscope.viz import export_html, graph_html, module_to_dot
from hloscope.viz.export_assets import PAGE_JS
from hloscope.viz.graph_scopes import FIRST_VIEW_EDGES, FIRST_VIEW_NODES, drawing_tree, scoped_dot, scoped_graph
from hloscope.viz.name_scopes import PARAMETERS, TOP, common_prefix, scope_path, scope_tree
from hloscope.viz.scope_changes import scope_changes, scope_changes_html
from hloscope.viz.scope_view import ScopeView, default_view, find, open_view, view_showing
from hloscope.xla.capture import DUMP_OPTIONS

TESTS = Path(__file__).resolve().parents[1]
GPT2_OPT = TESTS / "models" / "gpt2_train_step.opt.hlo"


def _load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # a dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


make_scoped_module = _load(TESTS.parent / "benchmarks" / "generate_scoped.py", "generate_scoped").make_scoped_module


@pytest.fixture(scope="module")
def gpt2_opt():
    return hloscope.parse_hlo(GPT2_OPT.read_text())


@pytest.fixture(scope="module")
def scoped_5k():
    return hloscope.parse_hlo(make_scoped_module(5000))


@pytest.fixture(scope="module")
def named_gpt2():
    """(module JAX hands XLA, XLA's optimized module) of the named-scope GPT-2 step."""
    pytest.importorskip("jax")
    sys.path.insert(0, str(Path(__file__).parent))
    from scoped_jax import gpt2_texts

    before, after = gpt2_texts()
    return hloscope.parse_hlo(before), hloscope.parse_hlo(after)


# ---- op_name -> scope path ----


@pytest.mark.parametrize(
    "op_name, path",
    [
        ("jit(train_step)/jvp(block)/attn/dot_general", ("forward", "block", "attn")),
        ("jit(train_step)/transpose(jvp(block))/attn/mul", ("backward", "block", "attn")),
        ("jit(<lambda>)/transpose(jvp())/dot_general", ("backward",)),  # anonymous: just the phase
        ("jit(<lambda>)/jvp(jit(log_softmax))/exp", ("forward", "log_softmax")),  # nested jit: a function
        ("jit(<lambda>)/transpose(jvp(bqhd,bkhd->bhqk))/dot_general", ("backward", "bqhd,bkhd->bhqk")),
        ("jit(f)/vmap(layer)/remat(mlp)/tanh", ("layer", "mlp")),
        ("jit(f)/jvp(block)/transpose(jvp(attn))/mul", ("forward", "block", "backward", "attn")),
        ("jit(<lambda>)/add", TOP),
        ("xs[3]", TOP),  # a parameter: named after the argument
        ("reduce_sum", TOP),
        ("", TOP),
        (None, TOP),
        # XLA joins merged instructions' names with ';': their common scope
        ("jit(s)/transpose(jvp(attn))/mul;jit(s)/transpose(jvp(mlp))/mul", ("backward",)),
        ("jit(s)/a/b/x;jit(s)/a/c/y", ("a",)),
        ("jit(f)/jvp(a/b)/x", ("forward", "a\u2215b")),  # a slash inside a name does not split scopes
        ("jit(f)/a;b/x", ("a;b",)),  # a ';' that does not join two whole op_names is part of a name
    ],
)
def test_scope_path_of_op_names(op_name, path):
    assert scope_path(op_name) == path


ODD_NAMES = r'''HloModule odd

ENTRY %main (p0: f32[8]) -> f32[8] {
  %p0 = f32[8]{0} parameter(0)
  %a = f32[8]{0} add(%p0, %p0), metadata={op_name="jit(f)/jvp(we\"ird <b>&amp;)/sub scope/add"}
  %b = f32[8]{0} multiply(%a, %a), metadata={op_name="jit(f)/back\\slash/q'uote/mul"}
  ROOT %c = f32[8]{0} tanh(%b), metadata={op_name="jit(f)/back\\slash/tanh"}
}
'''


def test_odd_scope_names_survive_dot_and_svg_as_keys():
    from hloscope.viz.render import available_engines

    module = hloscope.parse_hlo(ODD_NAMES)
    tree = scope_tree(module, module.entry_computation)
    keys = {"/".join(p) for p in tree.scopes if p}
    assert len(keys) == 5 and not any("\\" in k or "&" in k for k in keys)
    if not available_engines():
        pytest.skip("no Graphviz engine: the SVG half needs one")
    page = graph_html(module, timeout=10)
    assert {html.unescape(k) for k in re.findall(r'data-scope="([^"]*)"', page)} == keys


def test_common_prefix():
    assert common_prefix([("a", "b", "c"), ("a", "b"), ("a", "b", "d")]) == ("a", "b")
    assert common_prefix([("a",), ("b",)]) == TOP
    assert common_prefix([]) == TOP


# ---- grouping real JAX metadata ----


def test_recorded_gpt2_train_step_groups_into_forward_and_backward(gpt2_opt):
    comp = gpt2_opt.entry_computation
    tree = scope_tree(gpt2_opt, comp)
    for path in [("forward",), ("backward",), ("forward", "log_softmax"), ("backward", "log_softmax"),
                 ("forward", "bqhd,bkhd->bhqk"), ("backward", "take_along_axis")]:
        assert path in tree.scopes, path
    # every instruction is in exactly one scope, and sizes add up
    assert sum(len(s.members) for s in tree.scopes.values()) == len(comp)
    assert tree.scopes[TOP].size == len(comp)
    assert tree.scopes[("forward",)].size == sum(
        len(s.members) for p, s in tree.scopes.items() if p[:1] == ("forward",))
    # its 51 parameters (op_name "xs[N]", no scope) are grouped, not left to crowd the top level
    params = [i.name for i in comp if i.opcode == "parameter"]
    assert len(params) == 51 and tree.scopes[PARAMETERS].members == params
    assert tree.scopes[TOP].children[0] == PARAMETERS and not set(params) & set(tree.scopes[TOP].members)


def test_a_fusion_sits_in_the_common_scope_of_its_fused_instructions(gpt2_opt):
    comp = gpt2_opt.entry_computation
    tree = scope_tree(gpt2_opt, comp)
    checked = 0
    for inst in comp:
        if inst.opcode != "fusion":
            continue
        fused = gpt2_opt.computation(inst.attr("calls"))
        # fused instructions without a scope (constants, top-level glue) do not count
        paths = [p for i in fused if i.opcode != "parameter" and i.metadata is not None
                 and (p := scope_path(i.metadata.op_name))]
        if paths:
            assert tree.path_of[inst.name] == common_prefix(paths), inst.name
            checked += 1
    assert checked > 80
    # XLA fused forward-only ops together: some fusions sit inside a phase, some across both
    fusion_paths = {tree.path_of[i.name] for i in comp if i.opcode == "fusion"}
    assert ("forward",) in fusion_paths and TOP in fusion_paths


@pytest.mark.jax
def test_named_scopes_of_a_live_jax_gpt2_step(named_gpt2):
    for module in named_gpt2:
        tree = scope_tree(module, module.entry_computation)
        for path in [("forward", "block", "attn", "qkv"), ("forward", "block", "mlp", "fc"),
                     ("backward", "block", "attn"), ("forward", "head")]:
            assert path in tree.scopes, path
        assert sum(len(s.members) for s in tree.scopes.values()) == len(module.entry_computation)
    before = named_gpt2[0]
    tree = scope_tree(before, before.entry_computation)
    assert ("sgd",) in tree.scopes  # the update is outside differentiation: no phase
    assert [p for p in tree.scopes if p and p[0] not in ("forward", "backward", "sgd")] == []


# ---- the DOT of closed and open scopes ----


def _node_ids(dot: str) -> set[str]:
    return set(re.findall(r'^\s*"([^"]+)" \[label=', dot, re.M))


def test_a_5000_instruction_module_opens_with_its_scopes_closed(scoped_5k):
    g = scoped_graph(scoped_5k)
    assert g is not None and g.dot is not None and g.view is not None
    assert g.nodes <= FIRST_VIEW_NODES, g.note  # a first graph Graphviz lays out quickly
    nodes = _node_ids(g.dot)
    boxes = {n for n in nodes if n.startswith("scope:")}
    assert "scope:forward/model/layer_0/attn" in boxes or "scope:forward/model/layer_0" in boxes
    assert len(nodes) == g.nodes
    # instructions are drawn only for the top level (two parameters) and the scopes opened
    opened = {m for p in g.view.expanded for m in g.tree.scopes[p].members}
    assert nodes - boxes == {"x", "w"} | opened
    assert len(opened) < 50
    # a closed scope's label counts what it holds; edges between scopes are merged
    assert re.search(r'"scope:backward/model/layer_\d+" \[label="layer_\d+\\n48 instructions"', g.dot)
    edges = re.findall(r'^\s*"([^"]+)" -> "([^"]+)"', g.dot, re.M)
    assert len(edges) == len(set(edges))
    assert "hlo-scope-edge" in g.dot


def test_opening_a_scope_draws_its_instructions_in_a_box(scoped_5k):
    tree = scope_tree(scoped_5k, scoped_5k.entry_computation)
    inner = ("forward", "model", "layer_3", "mlp", "gelu")
    g = scoped_graph(scoped_5k, expanded=[inner])
    assert g is not None and g.dot is not None and g.view is not None
    assert set(tree.ancestors(inner)) | {inner} <= g.view.expanded
    for path in [*tree.ancestors(inner), inner]:
        assert f'subgraph "cluster_scope:{"/".join(path)}"' in g.dot
    nodes = _node_ids(g.dot)
    assert set(tree.scopes[inner].members) <= nodes
    assert "scope:forward/model/layer_3/mlp/fc" in nodes  # its siblings stay closed
    assert "scope:forward/model/layer_3/mlp/gelu" not in nodes


@pytest.mark.jax
def test_a_small_scoped_module_is_drawn_whole_in_scope_boxes(named_gpt2):
    after = named_gpt2[1]
    g = scoped_graph(after)
    assert g is not None and g.dot is not None and g.view is not None
    assert g.nodes <= FIRST_VIEW_NODES and g.view.expanded == set(g.tree.scopes) - {TOP}
    nodes = _node_ids(g.dot)
    assert not any(n.startswith("scope:") for n in nodes)
    assert set(after.entry_computation.by_name) - nodes <= _shared_leaf_names(after)
    assert "cluster_scope:forward/block/attn" in g.dot


def _enclosing_clusters(dot: str) -> dict[str, str]:
    """Each subgraph's name -> the name of the subgraph it is written in ("" at the top)."""
    parents, stack = {}, [""]
    for line in dot.splitlines()[1:]:
        opened = re.match(r'\s*subgraph "([^"]+)" \{', line)
        if opened:
            parents[opened.group(1)] = stack[-1]
            stack.append(opened.group(1))
        elif line.strip() == "}":
            stack.pop()
    return parents


@pytest.mark.jax
def test_fusions_stay_clusters_inside_their_scope(named_gpt2):
    after = named_gpt2[1]
    tree = scope_tree(after, after.entry_computation)
    everything_open = ScopeView(frozenset(p for p in tree.scopes if p), collapse_fusions=False)
    g = scoped_graph(after, view=everything_open, max_nodes=10**6)
    assert g is not None and g.dot is not None
    parents = _enclosing_clusters(g.dot)
    fusions = [i.name for i in after.entry_computation if i.opcode == "fusion"]
    assert len(fusions) > 50
    for name in fusions:
        path = tree.path_of[name]
        assert parents[f"cluster_{name}"] == (f"cluster_scope:{'/'.join(path)}" if path else ""), name
    assert any(tree.path_of[n] for n in fusions) and any(not tree.path_of[n] for n in fusions)


@pytest.mark.jax
def test_fusions_across_scopes_are_placed_by_their_root_when_the_top_level_overflows(named_gpt2):
    after = named_gpt2[1]
    comp = after.entry_computation
    strict = scope_tree(after, comp)
    assert drawing_tree(after, comp, 40) is strict  # fits: fusions in their common scope
    fallback = drawing_tree(after, comp, 30)  # the 34 top-level ones do not fit in 30 nodes
    assert fallback.fusions_by_root and len(fallback.scopes[TOP].members) < len(strict.scopes[TOP].members)
    for inst in comp:
        if inst.opcode == "fusion" and inst.metadata is not None:
            assert fallback.path_of[inst.name] == scope_path(inst.metadata.op_name)
    g = scoped_graph(after, max_nodes=30)
    assert g is not None and g.nodes <= 30 and "placed by their root's scope" in g.note


def test_the_first_view_opens_fewer_scopes_when_edges_would_crowd_it(gpt2_opt, scoped_5k):
    """Edges between boxes are what makes Graphviz slow (XLA's GPT-2 step: 117 nodes with 525
    edges), so the first view opens fewer scopes than the node budget alone would."""
    tree = drawing_tree(gpt2_opt, gpt2_opt.entry_computation)
    by_nodes = default_view(gpt2_opt, tree, FIRST_VIEW_NODES)
    assert by_nodes is not None
    crowded = scoped_dot(gpt2_opt, gpt2_opt.entry_computation, tree, by_nodes)[0]
    assert len(_edges(crowded)) > FIRST_VIEW_EDGES
    g = scoped_graph(gpt2_opt)
    assert g is not None and g.dot is not None and g.view is not None
    assert g.view.expanded < by_nodes.expanded and len(_edges(g.dot)) < len(_edges(crowded))
    # a module whose first view has few edges keeps its full node budget
    g5k = scoped_graph(scoped_5k)
    assert g5k is not None and g5k.dot is not None
    assert len(_edges(g5k.dot)) <= FIRST_VIEW_EDGES and g5k.nodes > FIRST_VIEW_NODES - 10


def _edges(dot: str) -> list[str]:
    return re.findall(r'^\s*"[^"]+" -> "[^"]+"', dot, re.M)


def test_opening_a_scope_prefers_a_light_view_over_keeping_others_open(scoped_5k):
    tree = scope_tree(scoped_5k, scoped_5k.entry_computation)
    first = scoped_graph(scoped_5k)
    assert first is not None and first.view is not None
    base = first.view
    target = ("backward", "model", "layer_20", "mlp")
    line = set(tree.ancestors(target)) | {target}
    kept = open_view(scoped_5k, tree, base, target, 250)
    assert kept is not None and kept.expanded == base.expanded | line
    heavy = base.expanded | line
    alone = open_view(scoped_5k, tree, base, target, 250, light=lambda v: v.expanded != heavy)
    assert alone is not None and alone.expanded == line  # the others closed: a quicker layout
    last = open_view(scoped_5k, tree, base, target, 250, light=lambda v: False)
    assert last is not None and last.expanded == line and last.collapse_fusions  # nothing light: the smallest


def test_find_and_the_view_that_shows_a_hit(scoped_5k):
    tree = scope_tree(scoped_5k, scoped_5k.entry_computation)
    hits = find(tree, "LAYER_3/MLP/G")
    assert hits == [("scope", "forward/model/layer_3/mlp/gelu"), ("scope", "backward/model/layer_3/mlp/gelu")]
    assert find(tree, "  ") == [] and len(find(tree, "add", limit=5)) == 5
    first = scoped_graph(scoped_5k)
    assert first is not None and first.view is not None
    base = first.view
    hidden = tree.scopes[("backward", "model", "layer_30", "attn", "out")].members[0]
    assert ("instruction", hidden) in find(tree, hidden)
    view = view_showing(scoped_5k, tree, base, "instruction", hidden, 250)
    assert view is not None and ("backward", "model", "layer_30", "attn", "out") in view.expanded
    assert view_showing(scoped_5k, tree, view, "instruction", hidden, 250) is view  # already drawn
    assert view_showing(scoped_5k, tree, base, "scope", "forward", 250) is base  # a top-level scope is drawn


def _shared_leaf_names(module) -> set[str]:
    """Constants and broadcasts drawn once per user (so not under their own name)."""
    return {i.name for i in module.entry_computation if i.opcode in ("constant", "iota", "broadcast")}


def test_highlight_marks_the_closed_scopes_that_hold_changes(scoped_5k):
    tree = scope_tree(scoped_5k, scoped_5k.entry_computation)
    fc = tree.scopes[("backward", "model", "layer_2", "mlp", "fc")].members
    g = scoped_graph(scoped_5k, highlight={"changed": fc[:2], "added": fc[2:3]})
    assert g is not None and g.dot is not None
    box = re.search(r'"scope:backward/model/layer_2" \[label="([^"]*)"[^\]]*class="([^"]*)"', g.dot)
    assert box is not None, "layer_2 of the backward pass is closed in the first view"
    assert box.group(1).endswith("+1 ~2") and "hl-changed" in box.group(2)
    assert 'class="hlo-scope"' in g.dot  # scopes without changes stay plain


@pytest.mark.jax
def test_a_few_parameters_stay_at_the_top_level(named_gpt2):
    before = named_gpt2[0]
    tree = scope_tree(before, before.entry_computation)
    params = [i.name for i in before.entry_computation if i.opcode == "parameter"]
    assert len(params) <= 16 and PARAMETERS not in tree.scopes
    assert all(tree.path_of[p] == TOP for p in params)


def test_a_module_without_scopes_is_drawn_flat_as_before():
    text = make_scoped_module(40)
    flat = hloscope.parse_hlo(re.sub(r", metadata=\{[^}]*\}", "", text))
    assert scoped_graph(flat) is None
    assert scope_tree(flat, flat.entry_computation).has_scopes is False
    assert graph_html(flat, timeout=10) == graph_html(flat, timeout=10, scopes=False)
    assert "scope:" not in module_to_dot(flat)


@pytest.mark.jax
def test_graph_html_of_a_scoped_module_tags_scopes_in_the_svg(named_gpt2):
    from hloscope.viz.render import available_engines

    if not available_engines():
        pytest.skip("no Graphviz engine: the SVG step needs one")
    page = graph_html(named_gpt2[0], timeout=20)
    assert 'data-scope="forward/block' in page
    assert "grouped by" in page


# ---- the stepper: which scopes a pass changed ----


def test_scope_changes_name_the_scopes_a_pass_touched(scoped_5k):
    tree = scope_tree(scoped_5k, scoped_5k.entry_computation)
    gelu = tree.scopes[("forward", "model", "layer_1", "mlp", "gelu")].members
    victim = next(scoped_5k.entry_computation[n] for n in gelu if scoped_5k.entry_computation[n].opcode == "add")
    # a "pass" that turns one add of forward/model/layer_1/mlp/gelu into a multiply
    after = hloscope.parse_hlo(scoped_5k.to_text().replace(f"%{victim.name} = f32[16,64]{{1,0}} add(",
                                                           f"%{victim.name} = f32[16,64]{{1,0}} multiply(", 1))
    changes = scope_changes(scoped_5k, after)
    assert changes.counts["changed"] == {"forward/model/layer_1/mlp/gelu": 1}
    marks = changes.marks()
    assert marks["changed"] == ["forward", "forward/model", "forward/model/layer_1", "forward/model/layer_1/mlp",
                                "forward/model/layer_1/mlp/gelu"]
    assert marks["added"] == marks["removed"] == []
    assert "forward/model/layer_1/mlp/gelu</b> ~1" in scope_changes_html(changes)
    assert scope_changes_html(scope_changes(scoped_5k, scoped_5k)) == ""


# ---- the HTML page: scope views, search index, stepper marks ----


@pytest.fixture(scope="module")
def named_gpt2_page(named_gpt2):
    from hloscope.viz.render import available_engines

    if not available_engines():
        pytest.skip("no Graphviz engine: the page's graphs need one")
    return export_html(hloscope.optimize(named_gpt2[0]), layout_budget=120)


def _scope_index(page: str) -> dict:
    found = re.search(r'<script type="application/json" id="scope-index">(.*?)</script>', page, re.S)
    assert found is not None, "the Graph panel has no scope index"
    return json.loads(found.group(1))


@pytest.mark.large
@pytest.mark.jax
def test_the_page_lays_out_a_view_per_scope_and_indexes_every_instruction(named_gpt2_page, named_gpt2):
    page = named_gpt2_page
    index = _scope_index(page)
    final = hloscope.optimize(named_gpt2[0]).module
    tree = scope_tree(final, final.entry_computation)
    assert index["instructions"] == {n: "/".join(p) for n, p in tree.path_of.items()}
    assert set(index["scopes"]) == {"/".join(p) for p in tree.scopes if p}
    assert index["views"], "no toggle view was laid out"
    for key, (template, kind) in index["views"].items():
        assert f'<template id="{template}">' in page
        assert kind == ("close" if key in index["open"] else "open")
        body = page.split(f'<template id="{template}">', 1)[1].split("</template>", 1)[0]
        if kind == "open":  # the opened scope is drawn as a box of its own instructions
            assert f'data-scope="{html.escape(key)}"' in body and "hlo-scope-box" in body
        else:  # the closed one is a single node
            assert re.search(rf'class="node hlo-scope[^"]*" data-scope="{re.escape(html.escape(key))}"', body)
    for element in ('id="graph-search"', 'id="graph-search-results"', 'id="graph-first-view"'):
        assert element in page


@pytest.mark.large
@pytest.mark.jax
def test_the_page_marks_the_scopes_each_pass_changed(named_gpt2_page):
    steps = re.findall(r'<div class="step" ([^>]*)>', named_gpt2_page)
    changed = [s for s in steps if 'data-changed="1"' in s]
    assert changed
    for step in changed:
        marks = re.search(r'data-scopes="([^"]*)"', step)
        assert marks is not None
        if marks.group(1):
            parsed = json.loads(html.unescape(marks.group(1)))
            assert set(parsed) == {"added", "removed", "changed"}
    assert "scopes changed:" in named_gpt2_page


def test_the_page_script_parses():
    """The page's script is plain JavaScript that node accepts (no browser needed)."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the syntax check needs it")
    done = subprocess.run([node, "--check"], input=PAGE_JS, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    for name in ("markScopes", "scopeViews", "graph-search", "scope-index"):
        assert name in PAGE_JS


# ---- linear work ----


@pytest.mark.large
def test_grouping_and_the_scoped_dot_do_linear_work():
    """Call counts (not times) at 2k and 8k instructions: 4x the module, at most 6x the calls
    (as tests/reliability/test_large_graphs.py does for the flat graph)."""
    work = _load(TESTS / "reliability" / "work_count.py", "work_count")
    modules = {n: hloscope.parse_hlo(make_scoped_module(n)) for n in (2000, 8000)}

    def run(n: int):
        module = modules[n]
        tree = scope_tree(module, module.entry_computation)
        deep = max(tree.scopes, key=len)  # open the deepest scope: every parent opens too
        return scoped_graph(module, expanded=[deep], highlight={"changed": list(tree.path_of)[::7]})

    small, big = work.count_calls(lambda: run(2000)), work.count_calls(lambda: run(8000))
    grown = work.superlinear(small, big, 4, 1.5)
    assert not grown, "\n".join(grown[:10])
    assert big.total <= 6 * small.total, (small.total, big.total)


# ---- a real XLA dump: XLA's own passes, seen by scope ----


@pytest.fixture(scope="module")
def named_gpt2_xla(tmp_path_factory):
    """hloscope.xla.load of the dump XLA:CPU writes while compiling the named-scope step."""
    jax = pytest.importorskip("jax")
    sys.path.insert(0, str(Path(__file__).parent))
    from scoped_jax import _args, train_step

    folder = tmp_path_factory.mktemp("xla_dump")
    options = {"xla_dump_to": str(folder), **DUMP_OPTIONS}
    jax.jit(train_step).lower(*_args()).compile(compiler_options=options)
    from hloscope.xla import load

    return load(folder)


@pytest.mark.jax
def test_each_xla_pass_is_placed_in_the_scopes_it_changed(named_gpt2_xla):
    changed = [r for r in named_gpt2_xla.records if r.changed]
    assert len(changed) > 10
    placed: dict = {}
    for r in changed:  # a pass that runs more than once: its first run that changed something
        placed.setdefault(r.name, scope_changes(r.before, r.after))
    assert sum(1 for c in placed.values() if c) >= len(placed) // 2
    # inlining the jitted helpers adds their instructions inside their own scopes
    inlined = placed.get("call-inliner")
    assert inlined is not None and any("log_softmax" in key for key in inlined.counts["added"])
    # algebraic simplification rewrites the layer norms of both passes
    simplified = placed.get("algsimp")
    assert simplified is not None
    touched = set().union(*simplified.marks().values())
    assert {"forward/block/ln", "backward/block/ln"} <= touched


@pytest.mark.large
@pytest.mark.jax
def test_an_xla_dump_page_marks_scopes_in_its_stepper(named_gpt2_xla):
    from hloscope.viz.render import available_engines

    if not available_engines():
        pytest.skip("no Graphviz engine: the page's graphs need one")
    page = export_html(named_gpt2_xla, layout_budget=15)  # graphs past it are summaries: enough here
    assert page.count("scopes changed:") >= 10
    assert 'data-scope="forward/block' in page
    assert _scope_index(page)["instructions"]
