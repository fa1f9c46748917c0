"""The explorer's lazy view: `hloscope.explore(lz.steps())`.

The steps as a timeline (viz/lazy_steps.py); pick a step to see its graph, and open the
full explorer of its compilation (the same Compilation record every compile leaves) with
one click; pick two steps that missed the cache to see what changed between their graphs
(hloscope.lazy.diff_steps).
"""

from __future__ import annotations

from typing import Any, Sequence

import ipywidgets as w

from ...lazy.diff import diff_steps
from ...viz.lazy_steps import graph_diff_html, step_graph_html, steps_timeline_html


class LazyStepsView(w.VBox):
    """See the module docstring."""

    def __init__(self, steps: Sequence[Any]):
        self.steps = list(steps)
        self.explorer: Any = None  # the compilation's explorer, once opened
        labels = [(f"step {s.index}: {'hit' if s.cache_hit else 'compiled'}", i) for i, s in enumerate(self.steps)]
        misses = [(label, i) for label, i in labels if not self.steps[i].cache_hit]
        self.timeline = w.HTML(steps_timeline_html(self.steps))
        self.pick = w.Dropdown(options=labels, description="step", layout=w.Layout(width="320px"))
        self.graph = w.HTML()
        self.open_button = w.Button(description="open its compilation", layout=w.Layout(width="200px"))
        self.compilation = w.VBox()
        self.before = w.Dropdown(options=misses, description="diff", layout=w.Layout(width="320px"))
        self.after = w.Dropdown(options=misses, description="with", layout=w.Layout(width="320px"))
        self.diff = w.HTML()
        if len(misses) >= 2:
            self.before.value, self.after.value = misses[0][1], misses[1][1]
        self.pick.observe(lambda _: self._show_step(), names="value")
        self.before.observe(lambda _: self._show_diff(), names="value")
        self.after.observe(lambda _: self._show_diff(), names="value")
        self.open_button.on_click(lambda _: self.open_compilation())
        super().__init__([self.timeline, w.HBox([self.pick, self.open_button]), self.graph, self.compilation,
                          w.HBox([self.before, self.after]), self.diff])
        self.add_class("hloscope-lazy")
        self._show_step()
        self._show_diff()

    def _current(self) -> Any:
        index = self.pick.value
        return None if index is None else self.steps[index]

    def _show_step(self) -> None:
        step = self._current()
        self.graph.value = "" if step is None else step_graph_html(step)
        self.open_button.disabled = step is None or step.compilation is None

    def _show_diff(self) -> None:
        a, b = self.before.value, self.after.value
        if a is None or b is None or a == b:
            self.diff.value = "<div class='hloscope'><p>pick two steps that compiled to see what changed</p></div>"
            return
        self.diff.value = graph_diff_html(diff_steps(self.steps[a], self.steps[b]))

    def open_compilation(self) -> Any:
        """The full explorer of the picked step's compilation (run on seeded random inputs)."""
        from .. import explore  # the package's explore imports this module

        step = self._current()
        if step is None or step.compilation is None:
            return None
        if self.explorer is not None:
            self.explorer.close()
        self.explorer = explore(step.compilation)
        self.compilation.children = [self.explorer]
        return self.explorer

    def close(self) -> None:
        if self.explorer is not None:
            self.explorer.close()
        for child in (self.timeline, self.pick, self.graph, self.open_button, self.compilation, self.before,
                      self.after, self.diff):
            child.close()
        super().close()
