"""The explorer widget: one tab per view of a compilation, filled in as stages finish.

    ex = hloscope.explore(f, x, w)            # or a module, HLO text, an executable; the widget
    ex.report                                 # the Compilation it shows
    ex.select("stepper"); ex.stepper.step(+1) # what the tabs do, from code

The `%%hlo` magic displays an explorer first and then runs the stages, so the Overview fills
in live. Graph layouts go through the process-wide LayoutService (hloscope.viz.layout: warm
layout processes and a cache shared by every explorer); once every stage is done, the graphs
the user will most likely open next are laid out in the background.
"""

from __future__ import annotations

import weakref
from typing import Any, Sequence

import ipywidgets as w

from .. import session
from ..compilation.record import Compilation
from ..viz.graph_blocks import all_step_dots
from ..viz.layout import LayoutService, Prefetch, default_service
from .options import PANELS
from .panels import (GraphPanel, IRPanel, MemoryPanel, MeshPanel, OverviewPanel, RunPanel, SourcePanel, StepperPanel, VsXlaPanel,
                     WhatIfPanel, is_mesh_program)

PANEL_CLASSES = {
    "overview": OverviewPanel, "stepper": StepperPanel, "graph": GraphPanel,
    "memory": MemoryPanel, "source": SourcePanel, "ir": IRPanel, "run": RunPanel, "xla": VsXlaPanel, "mesh": MeshPanel,
    "whatif": WhatIfPanel,
}


class Explorer(w.VBox):
    """Tabs (Overview, Pass stepper, Graph, Memory, IR, Run, and vs XLA for a record that is
    part of a hloscope.xla.compare) over one Compilation."""

    def __init__(self, report: Compilation, show: Sequence[str] | None = None, layouts: LayoutService | None = None):
        self.report = report
        self.layouts = layouts or default_service()
        names = [p for p in (show or PANELS) if p in PANEL_CLASSES]
        if report.comparison is not None and "xla" not in names and tuple(show or PANELS) == PANELS:
            names.append("xla")  # a record compared with XLA (hloscope.xla.compare) gets its tab
        if "mesh" not in names and tuple(show or PANELS) == PANELS and is_mesh_program(report):
            names.append("mesh")  # a program for several devices, or one with shardings, gets its mesh
        self.panels = {name: PANEL_CLASSES[name](self.layouts) for name in names}
        self.tabs = w.Tab(children=[p.widget for p in self.panels.values()])
        for i, p in enumerate(self.panels.values()):
            self.tabs.set_title(i, p.title)
        self.tabs.observe(self._on_tab, names="selected_index")
        super().__init__([self.tabs])
        self.add_class("hloscope-explorer")
        self._prefetcher = None
        self.errors: list[BaseException] = []
        if self.panels:
            self.tabs.selected_index = 0
            first = next(iter(self.panels.values()))
            self._guarded(first, first.activate)
        self.refresh(report)

    # ---- panels by name (None when not shown) ----
    @property
    def overview(self) -> OverviewPanel | None:
        return self.panels.get("overview")

    @property
    def stepper(self) -> StepperPanel | None:
        return self.panels.get("stepper")

    @property
    def graph(self) -> GraphPanel | None:
        return self.panels.get("graph")

    def select(self, name: str) -> None:
        """Open the tab of panel `name` (as clicking it does)."""
        self.tabs.selected_index = list(self.panels).index(name)

    def _on_tab(self, change) -> None:
        index = change["new"]
        if index is not None and 0 <= index < len(self.panels):
            panel = list(self.panels.values())[index]
            self._guarded(panel, panel.activate)

    # ---- stages ----
    def refresh(self, report=None) -> None:
        """Show whatever the report has now (the stage runner calls this after each stage)."""
        report = report or self.report
        for panel in self.panels.values():
            self._guarded(panel, panel.update, report)

    def _guarded(self, panel, method, *args) -> None:
        """Call a panel's method; a bug in one view is shown in its tab, never stops the
        compilation or the other tabs (and is kept in `self.errors` for tests)."""
        try:
            method(*args)
        except Exception as e:  # noqa: BLE001 - see the docstring
            import html
            import traceback

            self.errors.append(e)
            text = "".join(traceback.format_exception(e))
            panel.widget.children = (*panel.widget.children[:1], w.HTML(
                f"<pre style='color:#cf222e'>this view failed: {html.escape(text)}</pre>"))

    def run(self) -> "Explorer":
        """Run the report's pending stages, updating the tabs as each finishes."""
        session.run(self.report, self.refresh)
        self.prefetch()
        return self

    def prefetch(self) -> Prefetch | None:
        """Lay out, in the background, the final graph and every pass run's graphs (a
        prefetch started before is cancelled: this one covers the same graphs)."""
        if not self.report.records or (self.stepper is None and self.graph is None):
            return None
        if self._prefetcher is not None:
            self._prefetcher.cancel()
        self._prefetcher = self.layouts.prefetch(_likely_dots(weakref.ref(self)))
        return self._prefetcher

    def close(self) -> None:
        """Close the widget and every widget inside it, and stop laying out its graphs.

        ipywidgets keeps every open widget alive (its front end may still talk to it), so a
        widget nobody closes keeps its HTML, and through the explorer its whole compilation,
        for as long as the kernel runs. The shared layout service stays (other explorers use
        it); only this explorer's prefetch stops."""
        if self._prefetcher is not None:
            self._prefetcher.cancel()
            self._prefetcher = None
        for widget in _descendants(self):
            widget.close()
        self.panels = {}
        super().close()


def _likely_dots(explorer: weakref.ref[Explorer]):
    """The graphs an explorer shows first. The prefetch thread holds this generator until its
    layout in progress ends, so it holds the explorer weakly: a closed one goes at once."""
    graph = explorer().graph  # type: ignore[union-attr]
    dot = graph.spec().dot if graph is not None else None
    del graph  # before the first yield: nothing of the explorer stays in this frame
    if dot is not None:
        yield dot
    shown = explorer()
    if shown is None or shown.stepper is None:
        return
    records = shown.report.records  # the pass records only, not the compilation
    del shown
    order = sorted(range(len(records)), key=lambda i: not records[i].changed)
    yield from all_step_dots(records, order)


def _descendants(root: w.Widget) -> list[w.Widget]:
    """Every widget below `root`: the children of boxes and tabs, and each widget's layout
    and style (widgets of their own, which ipywidgets keeps open too), depth first."""
    found: list[w.Widget] = []
    todo: list[w.Widget] = [root]
    while todo:
        widget = todo.pop()
        parts = [getattr(widget, name, None) for name in ("layout", "style")]
        parts = [p for p in parts if isinstance(p, w.Widget)]
        found += parts if widget is root else [widget, *parts]
        todo.extend(getattr(widget, "children", ()))
    return found
