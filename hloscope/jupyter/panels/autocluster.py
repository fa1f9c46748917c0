"""The explorer view of an auto-clustered call (`hloscope.explore(autojit_fn, *args)`).

    view = hloscope.explore(f, x, w)       # f = hloscope.autojit(...); the call runs once first
    view.select_stage("after build_xla_ops")
    view.open_cluster("cluster_0")         # that cluster's own explorer (passes, fusions, kernels)

On top, the clusters (ops, compiles, cache hits, run time, bytes in and out) and the nodes
left on the host with the reason for each. Below, the program graph at any stage (as traced,
after mark_for_compilation, encapsulate_subgraphs, build_xla_ops) with that pass's decisions,
and a list of clusters: choosing one opens its compilation in the usual explorer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import ipywidgets as w

from ...viz.autocluster import decisions_table, program_dot, record_html
from ...viz.graph_view import svg_block
from ...viz.layout import LayoutService, default_service
from ...viz.theme import style_block

if TYPE_CHECKING:
    from ...autocluster.record import AutoClusterRecord

DEFAULT_STAGE = "after mark_for_compilation"


class AutoClusterView(w.VBox):
    """Tables, the graph per stage with its pass's decisions, and each cluster's explorer."""

    def __init__(self, record: "AutoClusterRecord", layouts: LayoutService | None = None):
        self.record = record
        self.layouts = layouts or default_service()
        self.errors: list[BaseException] = []
        labels = [label for label, _ in record.graphs()]
        self.stage = w.ToggleButtons(options=labels, value=DEFAULT_STAGE, description="graph")
        self.graph = w.HTML()
        self.decisions = w.HTML()
        choices = [(f"{c.name}: {', '.join(c.ops)}", c.name) for c in record.final.clusters]
        self.cluster = w.Dropdown(options=[("(choose a cluster)", ""), *choices], description="open",
                                  layout=w.Layout(width="460px"))
        self.cluster_box = w.VBox([])
        self.explorer: Any = None
        self.stage.observe(lambda _: self._draw(), names="value")
        self.cluster.observe(lambda change: self.open_cluster(change["new"]), names="value")
        super().__init__([w.HTML(record_html(record)), self.stage, self.graph, self.decisions,
                          self.cluster, self.cluster_box])
        self.add_class("hloscope-autocluster")
        self._draw()

    def select_stage(self, label: str) -> None:
        """Show the graph as traced (`"traced"`) or after a pass (`"after build_xla_ops"`)."""
        self.stage.value = label

    def _draw(self) -> None:
        label = str(self.stage.value)
        graph = dict(self.record.graphs())[label]
        result = self.layouts.render(program_dot(graph))
        if result.ok:
            body = svg_block(result, f"{len(graph.nodes)} nodes, {label}")
        else:
            body = f"<p class='hs-note'>{result.message}</p><pre>{graph.listing()}</pre>"
        self.graph.value = f"<div class='hloscope'>{style_block()}{body}</div>"
        passes = {f"after {p.name}": p for p in self.record.passes}
        chosen = passes.get(label)
        self.decisions.value = f"<div class='hloscope'>{decisions_table(chosen)}</div>" if chosen else ""

    def open_cluster(self, name: str) -> Any:
        """The explorer of cluster `name`'s own compilation, shown below the list ('' closes it)."""
        if self.explorer is not None:
            self.explorer.close()
            self.explorer = None
        self.cluster_box.children = ()
        stats = self.record.clusters.get(name) if name else None
        if stats is None or stats.compilation is None:
            return None
        from .. import explore  # the explorer module imports the panels: imported when used

        try:
            self.explorer = explore(stats.compilation)
        except Exception as e:  # noqa: BLE001 - shown in the view, kept for tests, never raised into the widget's callback
            self.errors.append(e)
            self.cluster_box.children = (w.HTML(f"<pre style='color:#cf222e'>{type(e).__name__}: {e}</pre>"),)
            return None
        self.cluster_box.children = (self.explorer,)
        return self.explorer

    def close(self) -> None:
        """Close the view, the cluster explorer it opened, and every widget inside."""
        if self.explorer is not None:
            self.explorer.close()
            self.explorer = None
        for widget in (self.stage, self.graph, self.decisions, self.cluster, self.cluster_box, *self.children):
            widget.close()
        super().close()


def explore_autojit(fn: Any, *args: Any, **kwargs: Any) -> AutoClusterView:
    """Run `fn(*args, **kwargs)` once (so each cluster is compiled and timed), then its view."""
    fn(*args, **kwargs)
    return AutoClusterView(fn.record(*args, **kwargs))
