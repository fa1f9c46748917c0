"""hloscope.xla.load on XLA's own per-pass dumps of every real-model program (tests/models).

Each program is compiled once by JAX (jaxlib 0.10.2's XLA:CPU) with the dump asked for
through that compile's own options, into a temporary folder (about 1 to 6 s a program; a
dump is up to 13 MB, too big to commit). Then, per program: one step per snapshot file, in
order; every snapshot parsed (load parses each; here each distinct one is also evaluated
with hloscope's reference evaluator and compared with XLA's outputs recorded in
tests/models/NAME.npz, within the manifest's tolerances); XLA's memory total and plan; the
HTML page and the dump folder. An op the evaluator refuses by name is counted as not
supported, and only the refusals listed in NOT_SUPPORTED are accepted: a new one fails.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import numpy as np
import pytest

import hloscope
from hloscope.errors import NotSupportedError
from hloscope.ir.module import HloModule
from hloscope.xla import load
from hloscope.xla.capture import DUMP_OPTIONS

jax = pytest.importorskip("jax", reason="jax (the optional 'jax' extra) makes the dumps")

pytestmark = [pytest.mark.jax, pytest.mark.large]

MODELS = Path(__file__).resolve().parent / "models"
sys.path.insert(0, str(MODELS))
sys.path.insert(0, str(MODELS.parent))
from programs import PROGRAMS  # noqa: E402
from test_real_models import MANIFEST, assert_matches_jax, load_data  # noqa: E402

NAMES = sorted(MANIFEST["cases"])
SNAPSHOT = re.compile(r"^module_\d+\.[^.]+\.\d{4}\.(.+)\.txt$")
# (program, the evaluator's message) of a snapshot it refuses, counted and accepted; none today
NOT_SUPPORTED: set[tuple[str, str]] = set()


class Dumps:
    """Each program's dump folder and record, made on first use and kept for the module."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._records: dict[str, hloscope.Compilation] = {}

    def folder(self, name: str) -> Path:
        folder = self.root / name
        if not folder.exists():
            fn, args, _ = PROGRAMS[name](np.random.default_rng(0))
            leaves, tree = jax.tree_util.tree_flatten(args)
            recorded, _ = load_data(name)  # the inputs XLA's outputs were recorded with
            assert [(a.shape, a.dtype) for a in recorded] == [(np.shape(x), np.asarray(x).dtype) for x in leaves]
            flat = lambda *xs: fn(*jax.tree_util.tree_unflatten(tree, xs))  # noqa: E731
            jax.jit(flat).lower(*recorded).compile(
                compiler_options={"xla_dump_to": str(folder), **DUMP_OPTIONS})
        return folder

    def record(self, name: str) -> hloscope.Compilation:
        if name not in self._records:
            self._records[name] = load(self.folder(name))
        return self._records[name]


@pytest.fixture(scope="module")
def dumps(tmp_path_factory) -> Dumps:
    return Dumps(tmp_path_factory.mktemp("xla_corpus_dumps"))


def snapshot_files(folder: Path) -> list[Path]:
    return sorted((p for p in folder.iterdir() if SNAPSHOT.match(p.name)), key=lambda p: p.name)


def report_total(folder: Path) -> int:
    report = next(folder.glob("*-memory-usage-report.txt")).read_text()
    return int(re.search(r"^Total bytes: (\d+)", report, re.MULTILINE).group(1))


@pytest.mark.parametrize("name", NAMES)
def test_one_step_per_snapshot_file_in_order(dumps, name):
    c, files = dumps.record(name), snapshot_files(dumps.folder(name))
    assert len(files) > 20 and len(c.records) == len(files)
    for record, path in zip(c.records, files):
        rest = SNAPSHOT.match(path.name).group(1)  # past "NNNN."
        assert record.doc.endswith(path.name)
        assert (record.pipeline, record.name) == (rest.split(".after_")[0], rest.split(".after_")[1].split(".before_")[0])
    assert c.records[0].before is c.input_module and c.optimized_module is not None


@pytest.mark.parametrize("name", NAMES)
def test_every_snapshot_evaluates_to_xlas_outputs(dumps, name):
    """Every distinct module of the record (an unchanged snapshot is its predecessor's module)."""
    c = dumps.record(name)
    args, _ = load_data(name)
    modules: dict[int, tuple[str, HloModule]] = {id(c.input_module): ("before_optimizations", c.input_module)}
    for record in c.records:
        modules.setdefault(id(record.after), (record.doc.split()[-1], record.after))
    assert c.optimized_module is not None
    modules.setdefault(id(c.optimized_module), ("after_optimizations", c.optimized_module))
    refused = []
    for label, module in modules.values():
        try:
            got = hloscope.evaluate(module, *args)
        except NotSupportedError as e:
            refused.append((label, str(e)))
            continue
        try:
            assert_matches_jax(got, name)
        except AssertionError as e:
            raise AssertionError(f"{label}: {e}") from None
    assert {(name, message) for _, message in refused} <= NOT_SUPPORTED, refused
    assert len(refused) < len(modules) / 2  # most of the record was checked, not refused


@pytest.mark.parametrize("name", ["lstm_scan", "topk_sampling"])
def test_snapshots_parse_as_when_read_alone(dumps, name):
    """load shares what repeats between snapshots (ParseMemo); each still equals its own file."""
    c, files = dumps.record(name), snapshot_files(dumps.folder(name))
    for record, path in zip(c.records, files):
        assert record.after.to_text() == hloscope.parse_hlo(path.read_text()).to_text(), path.name
        assert record.changed == (record.before.to_text() != record.after.to_text()), path.name


@pytest.mark.parametrize("name", NAMES)
def test_memory_is_xlas_report_and_plan(dumps, name):
    c, folder = dumps.record(name), dumps.folder(name)
    plan = c.memory_plan
    assert plan is not None and c.xla_memory_total_bytes == report_total(folder) == plan.total_bytes
    assignment = next(folder.glob("*-buffer-assignment.txt")).read_text()
    allocations = [(int(size), tags) for size, tags in re.findall(r"^allocation \d+: size (\d+)(.*):$", assignment, re.M)]
    assert sum(size for size, _ in allocations) == c.xla_memory_total_bytes
    # the plan's arena: XLA's outputs and temporaries, end to end
    arena = sum(size for size, tags in allocations
                if not re.search(r"parameter \d+|constant|thread-local", tags))
    assert plan.peak_bytes == arena and plan.min_bytes <= arena
    live = next(folder.glob("*-live-range.txt")).read_text()
    assert plan.live_peak_position == int(re.search(r"Live ranges at (\d+) \(peak\)", live).group(1))
    assert len(plan.schedule) == int(re.search(r"HloLiveRange \(max (\d+)\)", live).group(1))
    assert all(0 <= b.start <= b.end < len(plan.schedule) for b in plan.buffers)


@pytest.mark.parametrize("name", NAMES)
def test_html_page_and_dump(dumps, name, tmp_path):
    c = dumps.record(name)
    # a short layout budget: the graphs past it are left out, the rest of the page is the same
    page = c.save_html(tmp_path / "page.html", layout_budget=0.5, timeout=0.5).read_text()
    assert c.optimized_module.name in page and "hs-memory-chart" in page
    c.dump(tmp_path / "out")
    data = json.loads((tmp_path / "out" / "records.json").read_text())
    assert [(p["pipeline"], p["name"], p["changed"]) for p in data["passes"]] == [
        (r.pipeline, r.name, r.changed) for r in c.records]
    assert data["memory"]["total_bytes"] == report_total(dumps.folder(name))
    assert "XLA's outputs and temporaries" in c.summary() and "arena 0 B" not in c.summary()


@pytest.mark.parametrize("name", NAMES)
def test_every_llvm_ir_file_is_one_kernels(dumps, name):
    """Each .ll file XLA wrote is the IR of the kernels that define it: one fusion's, and its
    twins' (identical fused computations: XLA compiles the kernel once); a library call has none."""
    c, folder = dumps.record(name), dumps.folder(name)
    texts = sorted(p.read_text() for p in folder.glob("*.ir-no-opt.ll"))
    if not texts:  # jaxlib 0.11 and later: object code only (hloscope.xla.kernels._no_ir)
        assert jax.__version_info__ >= (0, 11), "jaxlib 0.10 writes every kernel's LLVM IR"
        generated = [k for k in c.kernels if not any("library call" in n for n in k.notes)]
        assert generated and all(not k.llvm_ir and any("object code" in n and "not its LLVM IR" in n for n in k.notes)
                                 for k in generated), [(k.name, k.notes) for k in generated]
        assert any(".o, " in n for k in generated for n in k.notes)  # kernels name their object file
        return
    own = [k for k in c.kernels if k.llvm_ir and not any("same kernel as" in n for n in k.notes)]
    assert sorted(k.llvm_ir for k in own) == texts
    by_name = {k.name: k for k in c.kernels}
    for k in c.kernels:
        twin = next((n.split("same kernel as ")[1].split(":")[0] for n in k.notes if "same kernel as" in n), None)
        if twin is not None:
            assert by_name[twin].llvm_ir == k.llvm_ir and k.llvm_ir, k.name
        elif k.llvm_ir:
            assert re.search(rf"^define ptr @{re.escape(k.name)}(_kernel)?\(", k.llvm_ir, re.M), k.name
            assert k.optimized_llvm_ir, k.name
        else:
            assert any("library call" in n for n in k.notes), (k.name, k.notes)  # only the library has no IR
