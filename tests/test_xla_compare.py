"""hloscope.xla.compare: the GPT-2 block through XLA (via JAX) and through hloscope, from the
same input module: pipelines aligned by role, every fusion of either side in exactly one
match, each difference explained by hloscope's own log, memory and run time of both."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

jax = pytest.importorskip("jax")

from hloscope.xla import Comparison, compare, load  # noqa: E402 - after the skip
from hloscope.xla.fusion_groups import fusion_groups  # noqa: E402
from hloscope.xla.stage_roles import ROLES, hloscope_role, xla_role  # noqa: E402
from xla_programs import gpt2_block_forward  # noqa: E402

pytestmark = pytest.mark.jax

GELU_DUMP = Path(__file__).resolve().parent / "xla_dumps" / "gelu_mlp"


@pytest.fixture(scope="module")
def gpt2() -> Comparison:
    fn, args = gpt2_block_forward()
    return compare(fn, *args, time_budget=0.05)


def entry_fusions(module) -> list[str]:
    return [g.name for g in fusion_groups(module, "")]


def test_every_fusion_is_in_exactly_one_match(gpt2):
    assert gpt2.hloscope is not None and gpt2.problems == []
    xla_names = [g.name for m in gpt2.fusions for g in m.xla]
    our_names = [g.name for m in gpt2.fusions for g in m.hloscope]
    assert sorted(xla_names) == sorted(entry_fusions(gpt2.xla.optimized_module))
    assert sorted(our_names) == sorted(entry_fusions(gpt2.hloscope.optimized_module))
    assert sum(gpt2.status_counts().values()) == len(gpt2.fusions)


def test_every_difference_has_hloscopes_reason(gpt2):
    for m in gpt2.fusions:
        if m.status == "same":
            assert m.reason == "" and m.xla[0].keys == m.hloscope[0].keys
        else:
            assert m.reason, m
    dots = [m for m in gpt2.fusions if m.status == "only-XLA" and m.xla[0].kind == "custom"]
    assert len(dots) == 6  # the block's six matmuls: YNNPACK fusions in XLA, library calls in hloscope
    assert all("library call" in m.reason and "kept dot_general" in m.reason for m in dots)
    assert any(m.status == "same" for m in gpt2.fusions)


def test_matched_fusions_cover_common_operations(gpt2):
    for m in gpt2.fusions:
        if m.xla and m.hloscope:
            xla_keys = frozenset().union(*(g.keys for g in m.xla))
            our_keys = frozenset().union(*(g.keys for g in m.hloscope))
            assert xla_keys & our_keys


def test_stages_align_by_role_and_count_every_run(gpt2):
    rows = {r.role: r for r in gpt2.stages}
    assert list(rows) == [role for role in ROLES if role in rows]
    assert sum(r.xla.runs for r in gpt2.stages) == len(gpt2.xla.records)
    assert sum(r.hloscope.runs for r in gpt2.stages) == len(gpt2.hloscope.records)
    fusion = rows["fusion"]
    assert fusion.xla.changed >= 1 and fusion.hloscope.changed >= 1
    last_fusion = [r for r in gpt2.hloscope.records if hloscope_role(r) == "fusion"][-1]
    assert fusion.hloscope.instructions == last_fusion.after.instruction_count()
    assert {xla_role(r) for r in gpt2.xla.records} >= {"simplify", "layout", "fusion", "copy-insertion"}


def test_memory_of_both(gpt2):
    assert gpt2.xla_memory.total == gpt2.xla.xla_memory_total_bytes > 0
    plan = gpt2.hloscope.memory_plan
    assert gpt2.hloscope_memory.scratch == plan.peak_bytes
    params = sum(p.shape.byte_size for p in gpt2.xla.input_module.entry_computation.parameters)
    assert gpt2.xla_memory.inputs >= params and gpt2.hloscope_memory.inputs >= params


def test_run_time_of_both_and_outputs_agree(gpt2):
    xla, ours = gpt2.timing("XLA"), gpt2.timing("hloscope")
    assert xla is not None and ours is not None and xla.seconds > 0 and ours.seconds > 0
    assert gpt2.outputs.startswith("matches"), gpt2.outputs


def test_tables(gpt2):
    rows = gpt2.table()
    assert all(len(r) == 3 and all(isinstance(x, str) for x in r) for r in rows)
    assert ("input instructions", str(gpt2.xla.input_module.instruction_count()),
            str(gpt2.xla.input_module.instruction_count())) in rows
    md = gpt2.markdown()
    assert md.count("| match | XLA | hloscope | hloscope's reason |") == 1
    assert sum(line.startswith("| only-XLA |") for line in md.splitlines()) == gpt2.status_counts()["only-XLA"]
    html = gpt2._repr_html_()
    assert html.count("<table") == 5 and "ynn_fusion" in html  # summary, stages, fusions, both memories at the peak
    assert "jit_gpt2_block" in repr(gpt2) and "only-XLA" in str(gpt2)


def test_records_know_their_comparison(gpt2):
    assert gpt2.xla.comparison is gpt2 and gpt2.hloscope.comparison is gpt2


def test_compare_a_loaded_dump_runs_xla_on_random_inputs():
    c = compare(load(GELU_DUMP), time_budget=0.02)
    assert c.hloscope is not None and [g.name for m in c.fusions for g in m.xla]
    assert c.timing("XLA") is not None and c.timing("hloscope") is not None
    assert c.outputs.startswith("matches"), (c.outputs, c.problems)


def test_compare_hlo_text(gpt2):
    c = compare(gpt2.xla.input_module.to_text(), time_budget=0.02)
    assert c.outputs.startswith("matches") and len(c.fusions) >= 5
    assert np.isfinite(c.timing("XLA").seconds)


def test_html_page_of_either_record_has_the_vs_xla_panel(gpt2, tmp_path):
    for record in (gpt2.xla, gpt2.hloscope):
        page = record.save_html(tmp_path / "page.html", layout_budget=5.0).read_text()
        assert 'data-panel="xla"' in page and 'id="panel-xla"' in page
        assert page.count("hs-vs-fusions") == 1 and "ynn_fusion" in page
    assert gpt2.xla.dump(tmp_path / "dump")  # the text dump works on a captured record too


def test_html_page_without_a_comparison_has_no_vs_xla_panel(tmp_path):
    page = load(GELU_DUMP).save_html(tmp_path / "page.html", layout_budget=5.0).read_text()
    assert 'id="panel-xla"' not in page


def test_unused_argument_dropped_by_jax_is_said_and_both_run_on_the_same_inputs():
    def f(x, unused):
        return jax.numpy.exp(x) * 2.0

    c = compare(f, np.ones((4, 4), np.float32), np.ones(3, np.float32), time_budget=0.01)
    assert any("do not line up" in p for p in c.problems)
    assert c.outputs.startswith("matches"), c.outputs


def test_hloscope_refusing_the_module_is_a_problem_not_an_error(monkeypatch):
    import sys

    from hloscope.errors import NotSupportedError

    compare_module = sys.modules["hloscope.xla.compare"]  # the package's `compare` is the function

    def refuse(module, backend):
        raise NotSupportedError(f"not supported: pretend {module.name}")

    monkeypatch.setattr(compare_module, "hloscope_compile", refuse)
    c = compare(lambda x: jax.numpy.tanh(x) + 1.0, np.ones((8, 8), np.float32), time_budget=0.01)
    assert c.hloscope is None and c.executable is None
    assert any("hloscope could not compile" in p and "pretend" in p for p in c.problems)
    assert c.fusions and all(m.status == "only-XLA" and m.reason for m in c.fusions)
    assert c.timing("XLA") is not None and c.timing("hloscope") is None and c.outputs == ""
    assert "Not compared: hloscope could not compile" in c.markdown()


def test_a_comparison_is_freed_with_its_last_reference_though_the_executable_stays_cached():
    import gc
    import weakref

    def f(x):
        return jax.numpy.exp(x) + 1.0

    c = compare(f, np.ones((4, 4), np.float32), time_budget=0.01)
    exe = c.executable
    assert exe.report.comparison is None and c.hloscope is not exe.report  # the cached report is left alone
    xla_record = weakref.ref(c.xla)
    del c
    gc.collect()
    assert xla_record() is None and exe is not None


def test_static_arguments_are_not_inputs():
    def f(x, power):
        return x**power + 1.0

    c = compare(f, np.full((4, 4), 2.0, np.float32), 3, static_argnums=1, time_budget=0.01)
    assert c.problems == [] and c.outputs.startswith("matches")


def test_compare_takes_xlas_record_only(gpt2):
    with pytest.raises(TypeError, match="takes XLA's record"):
        compare(gpt2.hloscope)


@pytest.mark.parametrize("name", ["lstm_scan", "moe_layer", "mobilenet_block"])
def test_other_real_models_compare(name):
    """A while loop (lstm_scan), gathers and scatters (moe_layer), convolutions (mobilenet)."""
    from xla_programs import corpus_program

    fn, args = corpus_program(name)
    c = compare(fn, *args, time_budget=0.01)
    assert c.problems == [] and c.outputs.startswith("matches"), (c.problems, c.outputs)
    assert sorted(g.name for m in c.fusions for g in m.xla) == sorted(entry_fusions(c.xla.optimized_module))
    assert sorted(g.name for m in c.fusions for g in m.hloscope) == sorted(entry_fusions(c.hloscope.optimized_module))
    assert all(m.reason for m in c.fusions if m.status != "same")
