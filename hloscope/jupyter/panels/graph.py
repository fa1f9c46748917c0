"""Graph: the final module, fusions drawn as clusters.

A real model's graph is grouped by its name scopes (op_name metadata), big ones closed:
the scope bar opens and closes them and finds scopes and instructions by name.
Pick an instruction from the list to see its HLO, its metadata, the user's source line, and
every decision any pass logged about it (fused, kept, rewritten...); the node is outlined in
the graph (by CSS, so no new layout). "show refused fusions" adds the candidates the fusion
passes turned down as dashed red edges, each with its reason as a tooltip. A graph too big to
draw well is replaced by a summary and the HLO text, saying why.
"""

from __future__ import annotations

import ipywidgets as w

from ...compilation.record import Compilation
from ...viz.cost_overlay import METRICS, overlay_html
from ...viz.graph_blocks import graph_block, graph_spec, rejections
from ...viz.instruction_html import instruction_choices, instruction_details
from .base import Panel, waiting
from .scope_bar import ScopeBar

class GraphPanel(Panel):
    title = "Graph"

    def __init__(self, layouts=None):
        super().__init__(layouts)
        self.module = None
        self.records: list = []
        self.choice = w.Dropdown(options=[("(none)", "")], description="instruction", layout=w.Layout(width="460px"))
        self.rejected = w.Checkbox(False, description="show refused fusions", indent=False)
        self.overlay = w.Dropdown(options=[("(no colours)", "")] + [(m, m) for m in METRICS], description="colour by",
                                  layout=w.Layout(width="300px"))
        self.graph = w.HTML(waiting("the passes"))
        self.details = w.HTML()
        self.scopes = ScopeBar(self._scopes_changed)
        self.widget = w.VBox([w.HBox([self.choice, self.rejected, self.overlay]), self.scopes.widget, self.details,
                              self.graph])
        self.choice.observe(lambda _: self._select(), names="value")
        self.rejected.observe(lambda _: self._draw(), names="value")
        self.overlay.observe(lambda _: self._draw(), names="value")

    def update(self, report: Compilation) -> None:
        module = report.optimized_module
        if module is None or module is self.module:
            return
        self.module, self.records = module, report.records
        self.choice.options = [("(none)", "")] + instruction_choices(module)
        self.scopes.update(module)
        if self.active:
            self._draw()

    def activate(self) -> None:
        super().activate()
        self._draw()

    def spec(self):
        rejected = ()
        if self.rejected.value:
            rejected = tuple(x for r in self.records for x in rejections(r))
        return graph_spec(self.module, rejected=rejected, id_prefix="g-", view=self.scopes.view)

    def _draw(self) -> None:
        if self.module is not None and self.active:
            drawn = graph_block(self.layouts, self.spec(), self.choice.value or None)
            self.graph.value = overlay_html(drawn, self.module, self.overlay.value) if self.overlay.value else drawn

    def _scopes_changed(self, view, instruction: str | None) -> None:
        """The scope bar opened or closed scopes (and maybe picked an instruction to select)."""
        if instruction is not None and instruction != self.choice.value:
            self.choice.value = instruction  # draws, through _select
        else:
            self._draw()

    def _select(self) -> None:
        name = self.choice.value
        if not name:
            self.details.value = ""
        else:
            assert self.module is not None, "only update() offers instructions, after it sets the module"
            self.details.value = instruction_details(self.module, self.records, name)
            self.scopes.reveal(name)
        self._draw()
