"""A jax program partitioned over a 2x2 device mesh (mesh_program.py; its compiled HLO
recorded in dumps/) loads in the explorer: every stage that can run does, and the explorer
says plainly which stage cannot and why (its collectives need the 4 devices the program was
partitioned for), with no traceback."""

import re
from pathlib import Path

import pytest

import hloscope
from mesh_program import FIXTURE, record  # pyright: ignore[reportMissingImports]

pytest.importorskip("ipywidgets")


def _texts(widget) -> str:
    """Every string value in a widget tree, tags removed."""
    out = []
    value = getattr(widget, "value", None)
    if isinstance(value, str):
        out.append(value)
    for child in getattr(widget, "children", ()):
        out.append(_texts(child))
    return re.sub(r"\s+", " ", re.sub("<[^>]+>", " ", " ".join(out)))


@pytest.fixture(scope="module")
def explorer():
    ex = hloscope.explore(FIXTURE.read_text())
    yield ex
    ex.close()


def test_the_fixture_is_a_partitioned_program():
    text = FIXTURE.read_text()
    assert "num_partitions=4" in text and text.count(" all-reduce(") >= 2
    assert "replica_groups=mesh[" in text and "replica_groups={{0,1},{2,3}}" in text


def test_every_stage_that_can_run_does(explorer):
    status = {s.name: s.status for s in explorer.report.stages}
    assert [status[n] for n in ("parse", "cache", "verify", "optimize", "plan")] == ["done"] * 5
    assert status["lower"] == "failed"
    assert all(status[n] == "skipped" for n in ("llvm-opt", "codegen", "load", "assembly", "run"))
    assert explorer.errors == []  # no view failed


def test_the_explorer_says_which_stage_cannot_run_and_why(explorer):
    lower = explorer.report.stage("lower")
    why = "not supported on cpu: all-reduce: a collective of a program for 4 devices, and cpu code runs on one"
    assert why in lower.note
    overview = _texts(explorer.panels["overview"].widget)
    assert re.search(r"lower ✗ failed [\d.]+ NotSupportedError: " + re.escape(why), overview)
    assert "needs lower, which failed" in overview
    assert "Traceback" not in overview and "File \"" not in overview


@pytest.mark.jax
def test_the_fixture_is_what_jax_compiles_today():
    pytest.importorskip("jax", reason="jax (the optional 'jax' extra) is not installed")
    fresh = hloscope.parse_hlo(record())
    recorded = hloscope.parse_hlo(FIXTURE.read_text())
    opcodes = [sorted(i.opcode for c in m.computations for i in c.instructions) for m in (fresh, recorded)]
    assert opcodes[0] == opcodes[1]


def test_the_mesh_tab_draws_its_collectives_and_their_costs(explorer):
    assert "mesh" in explorer.panels
    explorer.panels["mesh"].update(explorer.report)
    text = _texts(explorer.panels["mesh"].widget)
    assert "mesh: 4 devices" in text and "all-reduce" in text and "NVLink" in text
    assert explorer.errors == []


def test_a_module_with_shardings_shows_hloscopes_partition_of_it():
    text = (Path(__file__).resolve().parents[1] / "spmd" / "mlp_2x2.gspmd.pre.hlo").read_text()
    ex = hloscope.explore(text)
    try:
        assert "mesh" in ex.panels
        ex.panels["mesh"].update(ex.report)
        shown = _texts(ex.panels["mesh"].widget)
        assert "partial sum" in shown and "all-reduce over {{0,1},{2,3}}" in shown
        assert ex.errors == []
    finally:
        ex.close()
