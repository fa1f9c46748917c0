"""hloscope.xla.load: XLA's own per-pass dump folder (tests/xla_dumps/gelu_mlp) read into the
record every hloscope view reads."""

import json
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from corpus_helpers import corpus_case
from hloscope import evaluate, parse_hlo
from hloscope.xla import XlaDumpError, load

DUMP = Path(__file__).resolve().parent / "xla_dumps" / "gelu_mlp"
PREFIX = "module_0000.jit__p_gelu_mlp."


@pytest.fixture(scope="module")
def c():
    return load(DUMP)


def snapshot_files():
    return sorted(p for p in DUMP.iterdir() if re.match(re.escape(PREFIX) + r"\d{4}\.", p.name))


def test_one_step_per_snapshot_file_in_counter_order(c):
    files = snapshot_files()
    assert len(files) == 25 and len(c.records) == 25
    assert [r.doc.split()[-1] for r in c.records] == [p.name for p in files]


@pytest.mark.parametrize("index, pipeline, name", [
    (0, "async-collective", "pipeline-start"),
    (6, "simplification", "algsimp"),
    (8, "HLO_passes_through_layout_assignment", "simplification"),
    (10, "HLO_passes_through_layout_assignment", "layout-assignment"),
    (14, "dot-library-passes", "dot-library-rewriter"),
    (20, "copy-insertion", "adding_copies_to_resolve_interference"),
    (22, "copy-insertion", "adding_special-case_copies"),
    (24, "HLO_passes_after_scheduling", "pipeline-start"),
])
def test_step_names_and_pipelines(c, index, pipeline, name):
    assert (c.records[index].pipeline, c.records[index].name) == (pipeline, name)


def test_steps_chain_and_changed_means_the_text_differs(c):
    files = snapshot_files()
    assert c.records[0].before is c.input_module
    for previous, record in zip(c.records, c.records[1:]):
        assert record.before is previous.after
    for record, path in zip(c.records, files):
        assert record.after.to_text() == parse_hlo(path.read_text()).to_text()
        assert record.changed == (record.before.to_text() != record.after.to_text())
    assert any(r.changed for r in c.records) and not all(r.changed for r in c.records)
    # simplification's rerun (0007) is its second iteration
    assert [r.iteration for r in c.records if (r.pipeline, r.name) == ("simplification", "pipeline-start")] == [0, 1]


def test_input_module_evaluates_to_the_corpus_outputs(c):
    _, args, outs, _ = corpus_case("gelu_mlp")
    got = evaluate(c.input_module, *args)
    got = list(got) if isinstance(got, (tuple, list)) else [got]
    assert len(got) == len(outs)
    for g, want in zip(got, outs):
        np.testing.assert_allclose(np.asarray(g), want, rtol=1e-5, atol=1e-5)


def test_optimized_module_llvm_ir_and_memory_total(c):
    assert c.module is c.optimized_module and c.module.to_text() == parse_hlo(
        (DUMP / f"{PREFIX}cpu_after_optimizations.txt").read_text()).to_text()
    assert c.target == "xla:cpu" and "XLA" in c.title
    report = (DUMP / f"{PREFIX}cpu_after_optimizations-memory-usage-report.txt").read_text()
    total = int(re.search(r"Total bytes: (\d+)", report).group(1))
    assert c.xla_memory_total_bytes == total == 255232
    assert "XLA buffer assignment: 255,232 B" in c.summary()
    for kernel in ("broadcast_add_fusion", "multiply_multiply_fusion"):
        assert f"@{kernel}(" in c.llvm_ir and f"@{kernel}(" in c.optimized_llvm_ir
    assert [s.name for s in c.stages] == ["parse dump", "read reports"] and c.done
    assert "25 snapshots" in c.stage("parse dump").note


def test_html_page_and_dump_work_on_it(c, tmp_path):
    page = c.save_html(tmp_path / "page.html")
    assert page.stat().st_size > 1000 and "jit__p_gelu_mlp" in page.read_text()
    c.dump(tmp_path / "out")
    passes = json.loads((tmp_path / "out" / "records.json").read_text())["passes"]
    assert [(p["pipeline"], p["name"]) for p in passes] == [(r.pipeline, r.name) for r in c.records]


def _copy(tmp_path) -> Path:
    folder = tmp_path / "dump"
    shutil.copytree(DUMP, folder)
    return folder


def test_missing_before_optimizations_is_named(tmp_path):
    folder = _copy(tmp_path)
    (folder / f"{PREFIX}before_optimizations.txt").unlink()
    with pytest.raises(XlaDumpError, match="before_optimizations.txt"):
        load(folder)


def test_truncated_snapshot_names_the_file_and_the_line(tmp_path):
    folder = _copy(tmp_path)
    victim = snapshot_files()[12].name
    text = (folder / victim).read_text()
    (folder / victim).write_text(text[: len(text) // 2])
    with pytest.raises(XlaDumpError, match=re.escape(victim) + r".*line \d+, column \d+"):
        load(folder)


def test_empty_or_foreign_folder_or_unknown_module(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(XlaDumpError, match="no XLA module dumps"):
        load(tmp_path / "empty")
    (tmp_path / "foreign").mkdir()
    (tmp_path / "foreign" / "notes.txt").write_text("hello")
    with pytest.raises(XlaDumpError, match="no XLA module dumps"):
        load(tmp_path / "foreign")
    with pytest.raises(XlaDumpError, match="not a folder"):
        load(tmp_path / "missing")
    with pytest.raises(XlaDumpError, match="no module 'other'.*jit__p_gelu_mlp"):
        load(DUMP, module="other")


def test_module_picked_by_id_or_name_default_most_steps(tmp_path):
    folder = _copy(tmp_path)
    # a second, smaller module in the same folder: only its input and one snapshot
    small = "module_0007.jit_small."
    (folder / f"{small}before_optimizations.txt").write_text((DUMP / f"{PREFIX}before_optimizations.txt").read_text())
    (folder / f"{small}0000.simplification.after_pipeline-start.before_algsimp.txt").write_text(
        (DUMP / f"{PREFIX}before_optimizations.txt").read_text())
    assert len(load(folder).records) == 25
    assert len(load(folder, module=7).records) == len(load(folder, module="jit_small").records) == 1
    assert len(load(folder, module="0000").records) == 25


def test_kernels_one_per_fusion_with_partitions_and_their_llvm_ir(c):
    assert {k.name: (k.kind, k.partitions) for k in c.kernels} == {
        "ynn_fusion.1": ("custom", 1), "multiply_multiply_fusion": ("loop", 2),
        "ynn_fusion": ("custom", 1), "broadcast_add_fusion": ("loop", 1)}
    loop = c.kernel("multiply_multiply_fusion")
    assert loop.llvm_ir == (DUMP / f"{PREFIX}multiply_multiply_fusion_kernel_module.ir-no-opt.ll").read_text()
    assert "<8 x float>" in loop.optimized_llvm_ir
    assert c.kernel("ynn_fusion").llvm_ir == "" and "library call (__ynn_fusion)" in c.kernel("ynn_fusion").notes


def test_reachable_as_hloscope_xla():
    import hloscope

    assert hloscope.xla.load is load


def test_summary_lists_xla_passes(c):
    text = c.summary()
    assert "adding_copies_to_resolve_interference  copy-insertion" in text
    assert "5 of 25 pass runs changed the module" in text


# ---- XLA's memory plan: buffer assignment + live ranges as a MemoryPlan ----

LIVE = DUMP / f"{PREFIX}cpu_after_optimizations-live-range.txt"


def test_memory_plan_is_xlas_buffer_assignment_with_its_live_ranges(c):
    plan = c.memory_plan
    assert plan.schedule == [line.split(":")[1] for line in LIVE.read_text().splitlines()[2:11]]
    ranges = dict(re.findall(r"^    (\S+)\{\}:(\d+-\d+)$", LIVE.read_text(), re.MULTILINE))
    by_name = {b.name: b for b in plan.buffers}
    # the two f32[32,256] intermediates share XLA's 32 KiB temp in turn, as do ynn_fusion and the output
    temp, out = by_name["ynn_fusion.1"], by_name["ynn_fusion"]
    assert (temp.kind, temp.size, temp.values) == ("temporary", 32768, ("ynn_fusion.1", "multiply_multiply_fusion"))
    assert (out.kind, out.size, out.values) == ("output", 8192, ("ynn_fusion", "broadcast_add_fusion"))
    assert (temp.start, temp.end) == (int(ranges["ynn_fusion.1"].split("-")[0]), int(ranges["multiply_multiply_fusion"].split("-")[1]))
    assert (out.start, out.end) == (7, 8)  # XLA's "8-9" ends at max (9): the last position
    assert {b.name for b in plan.buffers if b.kind == "parameter"} == {"x.1", "w1.1", "b1.1", "w2.1", "b2.1"}
    assert all(b.offset is None for b in plan.buffers if b.kind == "parameter")
    # outputs and temporaries laid end to end: XLA allocates 8 KiB + 32 KiB per run
    assert plan.peak_bytes == 40960 and {out.offset, temp.offset} == {0, 8192}
    assert plan.total_bytes == c.xla_memory_total_bytes == 255232
    assert (plan.live_peak_position, plan.live_peak_bytes) == (7, 255232)
    assert plan.by_instruction("multiply_multiply_fusion") is temp


def test_memory_chart_draws_xlas_plan(c):
    from hloscope.viz import memory_plan_html

    page = memory_plan_html(c.memory_plan)
    for name in ("ynn_fusion.1", "ynn_fusion", "w1.1"):
        assert f'data-instruction="{name}"' in page
    assert "arena peak 40,960 bytes" in page


def test_summary_has_xlas_memory_and_object_files_not_an_empty_arena(c):
    text = c.summary()
    assert "arena 0 B" not in text and "object 0 B" not in text
    objects = sum(p.stat().st_size for p in DUMP.glob(f"{PREFIX}obj-file.*.o"))
    assert objects > 0 and c.object_size == objects
    assert f"4 kernels, XLA's outputs and temporaries 40,960 B, object files {objects:,} B" in text


def test_records_json_has_every_step_in_order_and_xlas_memory_total(c, tmp_path):
    c.dump(tmp_path)
    data = json.loads((tmp_path / "records.json").read_text())
    assert data["memory"]["total_bytes"] == 255232 and data["memory"]["arena_bytes"] == 40960
    files = snapshot_files()
    assert len(data["passes"]) == len(files)
    for step, path, record in zip(data["passes"], files, c.records):
        rest = path.name[len(PREFIX) + 5:]  # past "NNNN."
        assert step["pipeline"] == rest.split(".after_")[0]
        assert step["name"] == rest.split(".after_")[1].removesuffix(".txt").split(".before_")[0]
        assert step["changed"] == record.changed
        assert (step["instructions_before"], step["instructions_after"]) == (
            record.before.instruction_count(), record.after.instruction_count())
    assert (tmp_path / "memory_plan.txt").read_text().startswith("MemoryPlan of main.1")


def test_an_unchanged_snapshot_is_the_same_module(c):
    unchanged = [r for r in c.records if not r.changed]
    assert unchanged and all(r.after is r.before for r in unchanged)


@pytest.mark.parametrize("suffix, cut, message", [
    ("-live-range.txt", lambda t: "", "does not start with 'HloLiveRange"),
    ("-live-range.txt", lambda t: t.replace("    3:w2.1", "    4:w2.1"), r"line 6: expected position 3"),
    ("-live-range.txt", lambda t: t.replace("ynn_fusion.1{}:5-6", "ynn_fusion.1{}:5-"), "cannot read this live range"),
    ("-buffer-assignment.txt", lambda t: t[: t.index("allocation 3")] + "allocation 3: size", "line 8: cannot read this allocation"),
    ("-buffer-assignment.txt", lambda t: t.replace("value: <37 ynn_fusion", "value: <37"), "cannot read this value"),
    ("-buffer-assignment.txt", lambda t: "BufferAssignment:\n", "no 'allocation N: size"),
    ("-buffer-assignment.txt", lambda t: t.replace("<32 w1.1 @0>", "<32 w9.1 @0>"), "'w9.1', which is not in the optimized"),
    ("-memory-usage-report.txt", lambda t: t.replace("Total bytes", "Total"), "no 'Total bytes: N' line"),
])
def test_a_broken_report_file_is_named(tmp_path, suffix, cut, message):
    folder = _copy(tmp_path)
    path = folder / f"{PREFIX}cpu_after_optimizations{suffix}"
    path.write_text(cut(path.read_text()))
    with pytest.raises(XlaDumpError, match=re.escape(path.name) + ".*" + message):
        load(folder)


def test_cli_dump_of_the_folder_has_xlas_total(tmp_path):
    from hloscope.cli import main

    assert main(["dump", str(DUMP), "-o", str(tmp_path / "out")]) == 0
    data = json.loads((tmp_path / "out" / "records.json").read_text())
    assert data["memory"]["total_bytes"] == 255232 and len(data["passes"]) == 25
