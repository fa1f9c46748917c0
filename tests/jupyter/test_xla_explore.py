"""The explorer on a record read from XLA's own dump folder (hloscope.xla.load): shown as it
is, nothing compiled or run, every panel filled without a view failing."""

from __future__ import annotations

from pathlib import Path

import hloscope
from hloscope.xla import load

XLA_DUMP = Path(__file__).resolve().parents[1] / "xla_dumps" / "gelu_mlp"


def test_explore_an_xla_dump_record():
    c = load(XLA_DUMP)
    ex = hloscope.explore(c)
    assert ex.report is c and ex.errors == []
    assert [s.name for s in c.stages] == ["parse dump", "read reports"] and c.done and not c.failed
    assert "parse dump" in ex.overview.html.value and "25 snapshots" in ex.overview.html.value
    assert ex.stepper is not None
