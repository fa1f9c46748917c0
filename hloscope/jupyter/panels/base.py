"""What every panel shares: a widget, lazy activation, and a placeholder until its stage ran."""

from __future__ import annotations

import ipywidgets as w

from ...compilation.record import Compilation
from ...viz.layout import LayoutService


def waiting(what: str) -> str:
    return f"<div class='hloscope'><p style='color:#8c959f'>waiting for {what} ...</p></div>"


class Panel:
    """Subclasses build `self.widget` and implement `update(report)`; `activate` is optional."""

    title = ""

    widget: w.VBox  # made by each subclass (a widget made here and replaced would stay open)

    def __init__(self, layouts: LayoutService | None = None):
        self.layouts = layouts
        self.active = False

    def update(self, report: Compilation) -> None:
        raise NotImplementedError

    def activate(self) -> None:
        self.active = True
