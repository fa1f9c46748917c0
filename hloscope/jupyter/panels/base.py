"""What every panel shares: a widget, lazy activation, and a placeholder until its stage ran."""

from __future__ import annotations

import ipywidgets as w


def waiting(what: str) -> str:
    return f"<div class='hloscope'><p style='color:#8c959f'>waiting for {what} ...</p></div>"


class Panel:
    """Subclasses build `self.widget` and implement `update(report)`; `activate` is optional."""

    title = ""

    def __init__(self, layouts=None):
        self.layouts = layouts
        self.active = False
        self.widget = w.VBox()

    def update(self, report) -> None:
        raise NotImplementedError

    def activate(self) -> None:
        self.active = True
