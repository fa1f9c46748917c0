"""Views of an auto-clustered program (hloscope.autojit): its graph as DOT, and its record as
HTML tables (clusters with their timings, host nodes, a pass's decisions).

In the graph, clusters are coloured boxes (one colour per cluster, the same in every stage),
host calls are orange folders, ops left on the host are white boxes, arguments are yellow
ellipses, and each XlaCompile/XlaRun pair sits in its cluster's colour. Edges that cross
between the host and a cluster are drawn bold, labelled with the value's shape.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from .dot_style import attrs, quote
from .theme import style_block

if TYPE_CHECKING:
    from ..autocluster.graph import ProgramGraph, ProgramNode
    from ..autocluster.record import AutoClusterRecord
    from ..passes.record import PassRecord

CLUSTER_FILLS = ["#ddf4ff", "#dafbe1", "#fbefff", "#fff8c5", "#ffebe9", "#e0f7f5", "#f0f0ff", "#ffeedd"]
CLUSTER_BORDERS = ["#0969da", "#1a7f37", "#8250df", "#9a6700", "#cf222e", "#0e7c74", "#4b4bd1", "#bc4c00"]
HOST_STYLE = {"shape": "folder", "style": "filled", "fillcolor": "#fff1e5", "color": "#bc4c00", "penwidth": "1.5"}
ARG_STYLE = {"shape": "ellipse", "style": "filled", "fillcolor": "#fff4bf", "color": "#9a6700"}
OP_STYLE = {"shape": "box", "style": "rounded,filled", "fillcolor": "#ffffff", "color": "#57606a"}


def cluster_colour(name: str) -> tuple[str, str]:
    """(fill, border) of cluster `cluster_N`: the N-th colour, the same in every stage's graph."""
    index = int(name.rsplit("_", 1)[-1]) if name.rsplit("_", 1)[-1].isdigit() else 0
    return CLUSTER_FILLS[index % len(CLUSTER_FILLS)], CLUSTER_BORDERS[index % len(CLUSTER_BORDERS)]


def _label(graph: "ProgramGraph", n: "ProgramNode") -> str:
    shapes = ", ".join(graph.values[v].short() for v in n.outputs if graph.values[v].dtype != "executable")
    if n.kind == "arg":
        return f"{n.name}\n{shapes}"
    if n.kind == "host":
        return f"host: {n.opcode}\n{shapes}"
    if n.kind == "call":
        return f"call {n.name}\n{', '.join(graph.cluster(n.name).ops)}"
    if n.kind == "xla_compile":
        return f"XlaCompile\n{n.cluster}"
    if n.kind == "xla_run":
        return f"XlaRun\n{n.cluster}\n{shapes}"
    return f"{n.opcode}\n{shapes}"


def _style(n: "ProgramNode") -> dict:
    if n.kind == "arg":
        return dict(ARG_STYLE)
    if n.kind == "host":
        return dict(HOST_STYLE)
    if n.cluster:
        fill, border = cluster_colour(n.cluster)
        shape = {"xla_compile": "hexagon", "xla_run": "box3d"}.get(n.kind, "box")
        return {"shape": shape, "style": "rounded,filled", "fillcolor": fill, "color": border, "penwidth": "1.5"}
    return dict(OP_STYLE)


def _side(n: "ProgramNode") -> str:
    return n.cluster or "host"


def program_dot(graph: "ProgramGraph") -> str:
    """The graph as DOT (see the module docstring)."""
    lines = ["digraph program {", '  rankdir=TB; node [fontname="Helvetica", fontsize=10]; edge [fontsize=9];']
    groups: dict[str, list[ProgramNode]] = {}
    for n in graph.nodes:
        groups.setdefault(n.cluster or "", []).append(n)
    for cluster, nodes in groups.items():
        indent = "    " if cluster else "  "
        if cluster:
            fill, border = cluster_colour(cluster)
            lines.append(f"  subgraph {quote('cluster_' + cluster)} {{")
            lines.append(f'    label={quote(cluster)}; style="rounded,filled"; fillcolor="{fill}"; color="{border}"; fontcolor="{border}";')
        for n in nodes:
            tooltip = f"{n.kind} {n.name}" + (f" ({n.source})" if n.source else "")
            lines.append(f"{indent}{quote(n.name)} {attrs({'label': _label(graph, n), 'tooltip': tooltip, **_style(n)})};")
        if cluster:
            lines.append("  }")
    lines += _edges(graph)
    lines.append("}")
    return "\n".join(lines)


def _edges(graph: "ProgramGraph") -> list[str]:
    made_by = graph.producers()
    side = {n.name: _side(n) for n in graph.nodes}
    lines = []
    for n in graph.nodes:
        for v in dict.fromkeys(n.inputs):
            src = made_by[v]
            value = graph.values[v]
            crossing = side[src] != side[n.name] and value.dtype != "executable" and n.kind != "xla_compile"
            style = {"penwidth": "2", "label": value.short()} if crossing else {}
            if n.kind == "xla_compile" or value.dtype == "executable":
                style = {"style": "dashed", "color": "#8c959f"}
            lines.append(f"  {quote(src)} -> {quote(n.name)} {attrs({'tooltip': f'{v}: {value.short()}', **style})};")
    lines.append(f'  "results" {attrs({"shape": "doublecircle", "label": "results", "fontsize": "9"})};')
    for v in dict.fromkeys(graph.outputs):
        lines.append(f"  {quote(made_by[v])} -> \"results\";")
    return lines


def clusters_table(record: "AutoClusterRecord") -> str:
    """One row per cluster: ops, signature, compiles, cache hits, times, bytes in and out."""
    rows = []
    for c in record.final.clusters:
        s = record.clusters.get(c.name)
        fill, border = cluster_colour(c.name)
        cells = [f"<span style='background:{fill};border:1px solid {border};padding:0 4px'>{c.name}</span>",
                 html.escape(", ".join(c.ops)), html.escape(", ".join(c.inputs)), html.escape(", ".join(c.outputs))]
        if s is None:
            cells += ["not run yet", "", "", "", ""]
        else:
            cells += [f"{s.misses} ({s.compile_seconds * 1e3:.1f} ms)", str(s.hits),
                      f"{s.run_seconds / max(s.runs, 1) * 1e3:.3f} ms", str(s.bytes_in), str(s.bytes_out)]
        rows.append("<tr>" + "".join(f"<td>{x}</td>" for x in cells) + "</tr>")
    head = "".join(f"<th>{h}</th>" for h in ("cluster", "ops", "in", "out", "compiles", "cache hits",
                                               "run (mean)", "bytes in", "bytes out"))
    return f"<table class='hs-table'><tr>{head}</tr>{''.join(rows)}</table>"


def hosts_table(record: "AutoClusterRecord") -> str:
    """One row per node run on the host: what it is, why, calls and time."""
    reasons = record.reasons()
    rows = []
    for n in record.final.nodes:
        if n.kind not in ("host", "op"):
            continue
        s = record.hosts.get(n.name)
        timing = f"{s.calls} call(s), {s.seconds / max(s.calls, 1) * 1e3:.3f} ms each" if s else "not run yet"
        rows.append(f"<tr><td>{html.escape(n.name)}</td><td>{html.escape(n.opcode)}</td>"
                    f"<td>{html.escape(reasons.get(n.name, ''))}</td><td>{timing}</td></tr>")
    return ("<table class='hs-table'><tr><th>host node</th><th>what</th><th>why on the host</th><th>runs</th></tr>"
            + "".join(rows) + "</table>")


def decisions_table(record: "PassRecord[ProgramGraph]") -> str:
    """A graph pass's decisions, one row each, refusals (nodes left out, merges refused) marked."""
    rows = "".join(
        f"<tr class='{'accepted' if d.accepted else 'rejected'}'><td>{html.escape(d.subject)}</td>"
        f"<td class='action'>{html.escape(d.action)}</td><td>{html.escape(d.reason)}</td></tr>"
        for d in record.log)
    return (f"<h4>{html.escape(record.name)}: {len(record.log)} decisions in {record.seconds * 1e3:.2f} ms</h4>"
            "<table class='hs-table'><tr><th>node</th><th>decision</th><th>why</th></tr>" + rows + "</table>")


def record_html(record: "AutoClusterRecord") -> str:
    """The record's tables as one HTML block (the graphs are drawn by whoever lays out DOT)."""
    head = html.escape(f"autojit({record.fn_name}) for ({record.signature}): {len(record.final.clusters)} "
                       f"cluster(s), {record.calls} call(s), traced in {record.trace_seconds * 1e3:.1f} ms")
    return (f"<div class='hloscope'>{style_block()}<h3>{head}</h3><h4>clusters</h4>{clusters_table(record)}"
            f"<h4>on the host</h4>{hosts_table(record)}</div>")
