"""module_to_dot: clusters for fusions, highlighting, collapsing, the summary past max_nodes."""

from __future__ import annotations

import re

from viz_helpers import chain_module, corpus_module

from hloscope.passes.record import Decision
from hloscope.viz.graph import graph_size, module_to_dot, plan_graph


def _node_line(dot: str, name: str) -> str:
    return next(line for line in dot.splitlines() if line.strip().startswith(f'"{name}" ['))


def test_fusions_are_clusters_labelled_with_their_kind(softmax_opt):
    dot = module_to_dot(softmax_opt)
    fusions = [i for i in softmax_opt.entry_computation if i.opcode == "fusion"]
    assert fusions
    for f in fusions:
        assert f'subgraph "cluster_{f.name}"' in dot
        assert re.search(rf'label="{re.escape(f.name)} \({f.attr("kind")}\)\\n{re.escape(f.attr("calls"))}"', dot)
    # the fused computation's instructions are drawn inside the cluster, its parameters are not
    fused = softmax_opt.computation(fusions[0].attr("calls"))
    body = dot.split(f'subgraph "cluster_{fusions[0].name}"', 1)[1].split("\n  }", 1)[0]
    for inst in fused:
        assert (f'"{inst.name}" [' in body) == (inst.opcode != "parameter")


def test_nodes_are_named_after_instructions_and_labelled_with_opcode_and_shape(softmax_opt):
    dot = module_to_dot(softmax_opt)
    for inst in softmax_opt.entry_computation:
        if inst.opcode != "fusion":
            line = _node_line(dot, inst.name)
            assert f'id="{inst.name}"' in line and "hlo-node" in line
    line = _node_line(dot, "x.1")
    assert 'label="parameter 0\\nf32[128,256]\\nx.1"' in line and 'shape="ellipse"' in line


def test_edges_carry_shapes_and_enter_clusters_from_the_fusion_operands(softmax_opt):
    dot = module_to_dot(softmax_opt)
    edges = re.findall(r'^  "([^"]+)" -> "([^"]+)" \[([^\n]*)\];$', dot, re.MULTILINE)
    assert edges and all("xlabel=" in attrs for _, _, attrs in edges)
    names = {i.name for _, i in softmax_opt.all_instructions()}
    assert all(tail in names and head in names for tail, head, _ in edges)
    params = {i.name for _, i in softmax_opt.all_instructions() if i.opcode == "parameter"}
    assert not any(head in params for _, head, _ in edges)


def test_highlight_colours_nodes_and_clusters(softmax_opt):
    fusion = next(i.name for i in softmax_opt.entry_computation if i.opcode == "fusion")
    dot = module_to_dot(softmax_opt, highlight={"added": ["x.1"], "changed": [fusion], "removed": []})
    assert "hl-added" in _node_line(dot, "x.1") and 'fillcolor="#c9f2c7"' in _node_line(dot, "x.1")
    cluster = dot.split(f'subgraph "cluster_{fusion}"', 1)[1].split("}", 1)[0]
    assert "hl-changed" in cluster
    assert "hl-" not in module_to_dot(softmax_opt).replace("hloscope", "")


def test_collapse_draws_each_fusion_as_one_node(softmax_opt):
    dot = module_to_dot(softmax_opt, collapse_fusions=True)
    assert "cluster_" not in dot
    fusion = next(i for i in softmax_opt.entry_computation if i.opcode == "fusion")
    assert 'shape="box3d"' in _node_line(dot, fusion.name)
    assert graph_size(softmax_opt, collapse_fusions=True) == len(softmax_opt.entry_computation)


def test_past_max_nodes_fusions_collapse_then_a_summary_replaces_the_graph(softmax_opt):
    expanded = graph_size(softmax_opt)
    collapsed = graph_size(softmax_opt, collapse_fusions=True)
    assert expanded > collapsed
    assert plan_graph(softmax_opt, max_nodes=collapsed) == ("collapsed", collapsed)
    assert "cluster_" not in module_to_dot(softmax_opt, max_nodes=collapsed)
    dot = module_to_dot(softmax_opt, max_nodes=collapsed - 1)
    assert "hloscope: summary" in dot and "->" not in dot
    assert "fusion x 4" in dot


def test_big_module_becomes_a_summary_not_a_hairball():
    dot = module_to_dot(chain_module(400), max_nodes=250)
    assert "summary" in dot and dot.count("\n") < 60


def test_rejected_fusions_are_dashed_red_edges_with_the_reason(softmax_opt):
    rejected = [
        Decision("kept", "x.1", "a parameter is already in memory", target="x.1", accepted=False),
        Decision("kept", "constant.2", "a lonely constant", target="x.1", accepted=False),
        Decision("fused", "constant.2", "accepted ones are not drawn", target="x.1"),
        ("x.1", "no_such_instruction", "names that are not in the graph are skipped"),
    ]
    dot = module_to_dot(softmax_opt, rejected_fusions=rejected)
    lines = [line for line in dot.splitlines() if "hlo-rejected" in line]
    assert len(lines) == 1  # self-edges, accepted decisions and unknown names are skipped
    assert '"constant.2" -> "x.1"' in lines[0] and 'style="dashed"' in lines[0]
    assert 'tooltip="not fused: constant.2 -> x.1: a lonely constant"' in lines[0]


def test_other_computations_and_quoting():
    module = corpus_module("softmax")
    region = next(c.name for c in module.computations if c.name != module.entry)
    dot = module_to_dot(module, region)
    assert dot.startswith(f'digraph "{region}"') and "parameter 0" in dot
    assert module_to_dot(module) == module_to_dot(module)  # deterministic


def test_every_corpus_module_converts(tmp_path):
    from viz_helpers import CORPUS

    for path in sorted(CORPUS.glob("*.hlo")):
        dot = module_to_dot(corpus_module(path.name[:-4]))
        assert dot.startswith("digraph") and dot.rstrip().endswith("}")


def test_shared_constants_and_broadcasts_are_drawn_next_to_each_user():
    import hloscope

    body = "\n".join(f"  %u{i} = f32[4]{{0}} add(%p, %b)" for i in range(5))
    text = f"""HloModule m

ENTRY %main (p: f32[4]) -> (f32[4], f32[4], f32[4], f32[4], f32[4]) {{
  %p = f32[4]{{0}} parameter(0)
  %c = f32[] constant(2)
  %b = f32[4]{{0}} broadcast(%c), dimensions={{}}
{body}
  ROOT %t = (f32[4], f32[4], f32[4], f32[4], f32[4]) tuple(%u0, %u1, %u2, %u3, %u4)
}}
"""
    dot = module_to_dot(hloscope.parse_hlo(text))
    copies = re.findall(r'^  "(u\d)/b" \[([^\n]*)\];$', dot, re.MULTILINE)
    assert [user for user, _ in copies] == [f"u{i}" for i in range(5)]
    assert all("shared by 5" in attrs and "hlo-copy" in attrs for _, attrs in copies)
    assert '"b" [' not in dot and '"c" [' not in dot  # the constant only fed the broadcast
    assert '"u3/b" -> "u3"' in dot and '"p" -> "u3"' in dot
