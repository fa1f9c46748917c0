"""The explorer's recompiles view: `hloscope.explore(f.cache_misses())`.

Every compile of a jitted or auto-clustered function in a table (what changed, how to
avoid it); pick one that compiled again to see its HLO diff against the program it was
compared with and its graph with the changes marked (viz/recompiles_html.py).
"""

from __future__ import annotations

from typing import Any, Sequence

import ipywidgets as w

from ...viz.recompiles_html import miss_html, misses_html


class RecompilesView(w.VBox):
    """See the module docstring."""

    def __init__(self, misses: Sequence[Any]):
        self.misses = list(misses)
        again = [(f"call {m.call}: " + "; ".join(m.causes)[:80], i) for i, m in enumerate(self.misses) if not m.first]
        self.table = w.HTML(misses_html(self.misses))
        self.pick = w.Dropdown(options=again, description="compile", layout=w.Layout(width="560px"))
        self.detail = w.HTML()
        self.pick.observe(lambda _: self._show(), names="value")
        super().__init__([self.table, self.pick, self.detail])
        self.add_class("hloscope-recompiles")
        if again:
            self.pick.value = again[-1][1]
        self._show()

    def _show(self) -> None:
        index = self.pick.value
        if index is None:
            self.detail.value = "<div class='hloscope'><p>no compile to compare yet: every call so far hit the cache</p></div>"
            return
        self.detail.value = miss_html(self.misses[index], graph=True)
