"""hloscope.xla.load on an XLA:GPU dump: tests/xla_dumps/gpu_synthetic (XLA:GPU's file names and
formats from its sources, contents made by hloscope's GPU target: NOT a real capture; its
README cites the source lines). The record carries the PTX, the thunk sequence and a kernel per
launch; the PTX assembles with ptxas where ptxas is installed."""

import json
import re
from pathlib import Path

import numpy as np
import pytest

from hloscope import evaluate, parse_hlo
from hloscope.backend.gpu import ptxas
from hloscope.xla import XlaDumpError, load
from hloscope.xla.gpu_dump import gpu_kernels, read_thunks, sanitized

DUMP = Path(__file__).resolve().parent / "xla_dumps" / "gpu_synthetic"
PREFIX = "module_0000.jit_f."


@pytest.fixture(scope="module")
def c():
    return load(DUMP)


def test_a_gpu_dump_is_an_xla_gpu_record(c):
    assert c.target == "xla:gpu" and "XLA:GPU (sm_8.0)" in c.title
    snapshots = sorted(p.name for p in DUMP.iterdir() if re.match(re.escape(PREFIX) + r"\d{4}\.", p.name))
    assert [r.doc.split()[-1] for r in c.records] == snapshots and len(snapshots) == 3
    assert c.module.to_text() == parse_hlo((DUMP / f"{PREFIX}sm_8.0_gpu_after_optimizations.txt").read_text()).to_text()


def test_record_carries_the_ptx_and_the_thunk_sequence(c):
    assert c.assembly_language == "PTX" and c.ptx == (DUMP / "module_0000.jit_f.ptx").read_text()
    assert c.program == (DUMP / f"{PREFIX}thunk_sequence.txt").read_text()
    assert ".entry exponential_reduce_fusion(" in c.ptx


def test_one_kernel_per_launch_with_its_dimensions_and_llvm_ir(c):
    [kernel] = c.kernels
    assert (kernel.name, kernel.instruction, kernel.kind) == ("exponential_reduce_fusion", "exponential_reduce_fusion", "input")
    assert (kernel.grid, kernel.block) == ((8, 1, 1), (256, 1, 1))
    assert kernel.llvm_ir.startswith("define ptx_kernel void @\"exponential_reduce_fusion\"(")
    assert kernel.llvm_ir in (DUMP / f"{PREFIX}ir-no-opt.ll").read_text() and kernel.llvm_ir.endswith("}")
    assert kernel.optimized_llvm_ir and kernel.optimized_llvm_ir in c.optimized_llvm_ir


def test_memory_is_xlas_report_and_plan(c, tmp_path):
    assert c.xla_memory_total_bytes == 24612 == c.memory_plan.total_bytes
    assert c.memory_plan.peak_bytes == 8192 + 32  # the two outputs of the multi-output fusion
    c.dump(tmp_path)
    assert json.loads((tmp_path / "records.json").read_text())["memory"]["total_bytes"] == 24612
    assert (tmp_path / "kernels.ptx").read_text() == c.ptx
    assert (tmp_path / "gpu_program.txt").read_text() == c.program
    page = c.save_html(tmp_path / "page.html").read_text()
    assert "exponential_reduce_fusion" in page and "hs-memory-chart" in page
    text = c.summary()
    assert f"XLA's outputs and temporaries 8,224 B, PTX {len(c.ptx):,} chars" in text and "arena 0 B" not in text
    assert "thunk sequence: 1 lines" in text and "ptxas was not run" not in text


def test_every_snapshot_evaluates_to_numpy(c):
    rng = np.random.default_rng(0)
    x, y = (rng.standard_normal((8, 256)).astype(np.float32) for _ in range(2))
    want = np.exp(x + y)
    for module in [c.input_module] + [r.after for r in c.records] + [c.module]:
        e, sums = evaluate(module, x, y)
        np.testing.assert_allclose(e, want, rtol=1e-6)
        np.testing.assert_allclose(sums, want.sum(axis=1), rtol=1e-5)


def test_the_ptx_assembles(c):
    if ptxas.find() is None:
        pytest.skip("ptxas is not on PATH (CUDA toolkit not installed)")
    result = ptxas.assemble(c.ptx, "sm_80")
    assert result.ok, result.log[-2000:]


ADD = """HloModule m

%fused_computation (p0: f32[4]) -> f32[4] {
  %p0 = f32[4]{0} parameter(0)
  ROOT %add.1 = f32[4]{0} add(%p0, %p0)
}

ENTRY %main (x: f32[4]) -> f32[4] {
  %x = f32[4]{0} parameter(0)
  %c = f32[4]{0} copy(%x)
  ROOT %loop_add_fusion.1 = f32[4]{0} fusion(%c), kind=kLoop, calls=%fused_computation
}
"""


def test_thunks_of_older_xla_and_sanitized_kernel_names(tmp_path):
    path = tmp_path / "module_0001.m.thunk_sequence.txt"
    path.write_text("kCopy  \t\n"
                    "kKernel\t, kernel = loop_add_fusion_1, launch dimensions = blocks: {2, 1, 1}, "
                    "threads/block: {128, 1, 1}, cluster_dim = nullopt\n")
    thunks = read_thunks(path)
    assert [t.kind for t in thunks] == ["kCopy", "kKernel"]
    [kernel] = gpu_kernels(parse_hlo(ADD), thunks, "", "")
    assert (kernel.name, kernel.instruction, kernel.kind, kernel.grid) == ("loop_add_fusion_1", "loop_add_fusion.1", "loop", (2, 1, 1))
    assert sanitized("wrapped_reduce-window.2") == "wrapped_reduce_window_2"


@pytest.mark.parametrize("text, message", [
    ("000: kKernel\tkernel=k, profile_annotation=k, cluster_dim=nullopt\n", "line 1: a kKernel thunk without"),
    ("hello\n", "line 1: not a thunk"),
])
def test_a_broken_thunk_sequence_is_named(tmp_path, text, message):
    folder = tmp_path / "dump"
    folder.mkdir()
    for p in DUMP.iterdir():
        if p.name.startswith("module_"):
            (folder / p.name).write_text(p.read_text())
    (folder / f"{PREFIX}thunk_sequence.txt").write_text(text)
    with pytest.raises(XlaDumpError, match=re.escape(f"{PREFIX}thunk_sequence.txt") + ", " + message):
        load(folder)
