"""The single-file HTML export and the deterministic dump folder."""

from __future__ import annotations

import json
import re

import pytest
from viz_helpers import corpus_module

import hloscope
from hloscope import optimize, session
from hloscope.compilation.record import Compilation
from hloscope.compilation.sources import HloText
from hloscope.viz import layout, render
from hloscope.viz.export import dump_record, export_html, save_html

IDS = (
    "panel-overview",
    "panel-stepper",
    "panel-graph",
    "panel-memory",
    "panel-ir",
    "panel-run",
    "pass-slider",
    "pass-prev",
    "pass-next",
    "pass-name",
    "graph-before",
    "graph-after",
    "pass-diff",
    "pass-changed-only",
    "graph-final",
)


def _external_urls(text: str) -> list[str]:
    return [u for u in re.findall(r"https?://[^\s\"'<>)]*", text) if not u.startswith("http://www.w3.org")]


@pytest.fixture(scope="module")
def result():
    return optimize(corpus_module("softmax"))


def test_export_of_a_real_optimize_result_is_one_offline_file(tmp_path, result):
    path = save_html(tmp_path / "softmax.html", result, title="softmax <test>", timeout=30)
    assert [p.name for p in tmp_path.iterdir()] == ["softmax.html"]
    page = path.read_text()
    assert page.startswith("<!DOCTYPE html>") and "softmax &lt;test&gt;" in page
    assert _external_urls(page) == []
    assert "<link" not in page and "src=" not in page  # nothing loaded from anywhere
    for element_id in IDS:
        assert f'id="{element_id}"' in page, element_id
    assert page.count('<div class="step"') == len(result.records)
    assert page.count('data-changed="1"') == len(result.changed_records)
    # one graph per distinct module (+ the fusion pass's rejected-fusion edges), not one per pass
    templates = re.findall(r'<template id="(g\d+)">', page)
    assert len(templates) <= 2 * len(result.changed_records) + 1 < len(result.records)
    steps = re.findall(r'data-before="(g\d+)" data-after="(g\d+)"', page)
    assert {t for pair in steps for t in pair} <= set(templates)
    assert all(b == a for (b, a), r in zip(steps, result.records) if not r.changed)
    if render.available_engines():
        assert page.count("<svg") >= len(templates)
        assert 'data-instruction="exp.1"' in page
    assert "hl-" in page and 'data-added="' in page
    assert 'class="hs-memory-chart"' in page and 'id="peak-line"' in page
    assert '<span class="o">exponential</span>' in page  # the IR panel's highlighted HLO


def test_export_of_a_compiled_and_run_record_has_its_code_and_timings():
    c = session.new(corpus_module("softmax"), options=session.SessionOptions(compare=()))
    session.run(c)
    page = export_html(c, timeout=30)
    assert c.entry_name in page and "LLVM IR" in page and "optimized LLVM IR" in page and "assembly" in page
    assert "Compiler stages" in page and "llvm-opt" in page and "Timings" in page
    ours = c.timing("hloscope")
    assert ours is not None and f"{ours.seconds * 1e3:.3f}" in page
    assert page.count('<div class="step"') == len(c.records)


def test_export_of_a_bare_module_and_of_nothing():
    page = export_html(optimize(corpus_module("softmax.opt"), "none"), timeout=30)
    assert "no pass ran" in page and "exponential" in page
    empty = export_html(Compilation(HloText("")))
    assert all(f'id="{i}"' in empty for i in ("panel-overview", "panel-stepper", "panel-ir"))
    assert "no memory plan given" in empty


def test_export_without_graphviz_or_budget_still_works(monkeypatch, result):
    layout.clear_cache()
    no_time = export_html(result, layout_budget=0.0)
    assert "layout time budget was spent" in no_time or "<svg" in no_time
    monkeypatch.setattr(render, "available_engines", list)
    page = export_html(result)
    assert "pip install pygraphviz" in page and "<svg" in page  # the memory chart is still there
    assert 'class="hs-summary"' in page
    layout.clear_cache()


def test_dump_is_byte_identical_across_runs(tmp_path):
    dirs = []
    for run in ("a", "b"):
        res = optimize(corpus_module("softmax"))
        dump_record(tmp_path / run, res)
        dirs.append(tmp_path / run)
    names = sorted(p.name for p in dirs[0].iterdir())
    assert names == sorted(p.name for p in dirs[1].iterdir())
    for name in names:
        assert (dirs[0] / name).read_bytes() == (dirs[1] / name).read_bytes(), name
    assert "timings.json" not in names and "records.json" in names and "memory_plan.txt" in names
    assert any(n.startswith("0000.") and n.endswith(".before_optimizations.txt") for n in names)
    assert any(".after_fusion.txt" in n for n in names)


def test_dump_contents_and_stale_files(tmp_path, result):
    (tmp_path / "0099.old.after_x.txt").write_text("stale")
    written = dump_record(tmp_path, result, timings=True)
    names = {p.name for p in written}
    assert "0099.old.after_x.txt" not in {p.name for p in tmp_path.iterdir()}
    assert {"timings.json", "after_optimizations.txt"} <= names and "llvm_ir.ll" not in names
    data = json.loads((tmp_path / "records.json").read_text())
    assert len(data["passes"]) == len(result.records)
    fusion = next(p for p in data["passes"] if p["name"] == "fusion")
    assert fusion["changed"] and fusion["file"] in names and "seconds" not in fusion
    assert any(not d["accepted"] for d in fusion["decisions"])
    assert (tmp_path / "after_optimizations.txt").read_text() == result.module.to_text() + (
        "" if result.module.to_text().endswith("\n") else "\n"
    )


def _browser() -> str | None:
    import shutil

    return next((b for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)), None)


@pytest.mark.skipif(_browser() is None, reason="no headless Chromium to run the page's script")
def test_the_page_script_steps_to_a_pass_and_highlights_the_graphs(tmp_path, result):
    import subprocess

    path = save_html(tmp_path / "r.html", result, timeout=30)
    index = next(i for i, r in enumerate(result.records) if r.name == "fusion")
    done = subprocess.run(
        [_browser(), "--headless", "--disable-gpu", "--no-sandbox", "--dump-dom", f"{path.as_uri()}#stepper:{index}"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    dom = done.stdout
    assert re.search(r'id="pass-name">default/fusion<', dom), done.stderr[-500:]
    before = dom.split('id="graph-before"', 1)[1].split('id="graph-after"', 1)[0]
    after = dom.split('id="graph-after"', 1)[1].split('id="pass-diff"', 1)[0]
    assert "<svg" in before and "<svg" in after and "hl-changed" in before and "hl-added" in after
    assert 'class="da"' in dom.split('id="pass-diff"', 1)[1]
    assert re.search(r'<section class="panel" id="panel-stepper">', dom)  # shown: no hidden attribute


def test_every_corpus_module_exports_and_dumps(monkeypatch, tmp_path):
    """Smoke test over the corpus, without layout (the summaries stand in for the graphs)."""
    from viz_helpers import CORPUS

    monkeypatch.setattr(render, "available_engines", list)
    layout.clear_cache()
    for path in sorted(CORPUS.glob("*.hlo")):
        if path.name.endswith(".opt.hlo"):
            continue
        res = optimize(corpus_module(path.name[:-4]))
        page = export_html(res, title=path.name)
        assert page.count('<div class="step"') == len(res.records) and not _external_urls(page)
        dump_record(tmp_path / path.name, res)
    layout.clear_cache()


def test_export_of_a_gpu_compile_has_its_ptx_and_host_program():
    from hloscope.compiler import compile as compile_module

    module = corpus_module("softmax.opt")
    exe = compile_module(module, backend="gpu", ptxas=False)
    page = export_html(exe.report, timeout=30)
    assert "PTX" in page
    assert "host program (GPU)" in page and ".entry" in page
    assert all(f"launch {k.name} " in page for k in exe.report.kernels)


def test_dump_of_a_compile_has_its_code(tmp_path):
    exe = hloscope.compile(corpus_module("softmax"), cache=False)
    names = {p.name for p in dump_record(tmp_path, exe.report)}
    assert {"llvm_ir.ll", "optimized_llvm_ir.ll", "assembly.s", "memory_plan.txt", "records.json",
            "row_programs.txt"} <= names  # softmax is one program of the CPU's row interpreter
    assert exe.report.entry_name in (tmp_path / "assembly.s").read_text()
    assert "exp-minus-and-sum" in (tmp_path / "row_programs.txt").read_text()
    gpu = hloscope.compile(corpus_module("softmax"), backend="gpu", ptxas=False)
    names = {p.name for p in dump_record(tmp_path / "gpu", gpu.report)}
    assert {"kernels.ptx", "gpu_program.txt"} <= names and "assembly.s" not in names
