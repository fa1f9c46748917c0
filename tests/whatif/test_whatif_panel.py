"""The explorer's "What if" tab, driven from code as a user clicks it: a toggle reruns the
compile and updates the delta table in place; a second experiment can be set against the first."""

from __future__ import annotations

import numpy as np
import pytest
from whatif_helpers import softmax

pytest.importorskip("ipywidgets")

import hloscope  # noqa: E402


@pytest.fixture(scope="module")
def explorer():
    x = np.random.default_rng(0).standard_normal((32, 64)).astype(np.float32)
    ex = hloscope.explore(softmax, x)
    yield ex
    ex.close()


def test_a_toggle_updates_the_table(explorer):
    ex = explorer
    ex.select("whatif")
    panel = ex.panels["whatif"]
    assert "fusion" in panel.passes and "hlo-memory-scheduler" in panel.passes
    assert panel.table.value == ""
    panel.measure.value = False  # the table's counts are enough here; runs are timed elsewhere
    panel.passes["fusion"].value = False
    table = panel.table.value
    assert "what if: disable=fusion" in table and "kernels" in table and "more" in table
    assert "<svg" in panel.right.value or "hs-graph" in panel.right.value
    first = panel.shown()
    assert first is not None and first.delta("kernels")[1] > first.delta("kernels")[0]

    panel.opt_level.value = 1  # a second experiment: fusion still off, and LLVM at -O1
    assert len(panel.experiments) == 2 and panel.table.value != table
    assert "opt_level=1" in panel.table.value
    panel.compare.value = 0  # against the first experiment instead of the original
    shown = panel.shown()
    assert shown is not None and shown.against.startswith("the what-if disable=fusion")
    assert shown.delta("kernels")[0] == shown.delta("kernels")[1]  # only LLVM changed between them
    assert "against the what-if disable=fusion" in panel.table.value
    assert ex.errors == []


def test_the_page_keeps_the_experiments(explorer, tmp_path):
    ex = explorer
    ex.select("whatif")
    panel = ex.panels["whatif"]
    panel.measure.value = False
    panel.rules["expensive_duplicate"].value = False
    assert any("disable_rules=expensive_duplicate" in e.changes.describe() for e in ex.report.experiments)
    page = ex.report.save_html(tmp_path / "softmax.html").read_text()
    assert 'id="panel-whatif"' in page and "disable_rules=expensive_duplicate" in page and "hs-delta" in page


def test_rules_that_fired_are_toggles(explorer):
    panel = explorer.panels["whatif"]
    fired = {d.rule for r in explorer.report.records for d in r.log}
    assert set(panel.rules) <= fired and "expensive_duplicate" in panel.rules
