"""The GPU compile report: PTX, launch configurations, per-kernel IR, ptxas's reading."""

import pytest

from hloscope.backend.gpu import ptxas
from hloscope.errors import HloscopeError
from gpu_helpers import compile_gpu, corpus_case, needs_ptxas

PTXAS_LOG = """\
ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'reduce_max_7' for 'sm_80'
ptxas info    : Function properties for reduce_max_7
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 18 registers, used 1 barriers, 32 bytes smem, 368 bytes cmem[0]
ptxas info    : Compiling entry function 'big' for 'sm_80'
ptxas info    : Function properties for big
    48 bytes stack frame, 40 bytes spill stores, 36 bytes spill loads
ptxas info    : Used 255 registers, 0 bytes smem, 368 bytes cmem[0]
"""


@pytest.fixture(scope="module")
def softmax():
    text, *_ = corpus_case("softmax")
    return compile_gpu(text)


def test_report_holds_ptx_and_launches(softmax):
    report = softmax.report
    assert report.backend == "gpu" and report.sm == "sm_80"
    assert report.ptx.startswith("//") and ".entry" in report.ptx and report.assembly == report.ptx
    assert [k.kind for k in report.kernels] == ["row-reduce", "row-reduce", "loop"]
    for k in report.kernels:
        assert k.grid[0] >= 1 and k.block[0] >= 32
        assert f'define ptx_kernel void @"{k.name}"(' in k.llvm_ir
        assert k.optimized_llvm_ir and k.name in k.optimized_llvm_ir
        assert str(k.launch).startswith("<<<(")
    assert {s.name for s in report.stages} >= {"parse", "optimize", "lower", "ptx", "ptxas", "load"}


def test_summary_shows_every_kernel(softmax):
    text = softmax.report.summary()
    for k in softmax.report.kernels:
        assert k.name in text and str(k.launch) in text
    assert "sm_80" in text


@needs_ptxas
def test_ptxas_usage_per_kernel(softmax):
    report = softmax.report
    assert report.ptxas.ok and "accepted" in report.ptxas_note
    for k in report.kernels:
        assert k.ptxas.registers > 0
        assert k.ptxas.shared_bytes == k.shared_bytes
        assert k.ptxas.describe() in report.summary()
    assert report.kernel("reduce_max_7").ptxas.barriers == 1


def test_ptxas_missing_is_said_plainly(monkeypatch):
    monkeypatch.setattr(ptxas, "find_tool", lambda name: None)
    text, *_ = corpus_case("unary_chain")
    report = compile_gpu(text).report
    assert ".entry" in report.ptx
    assert not report.ptxas.available
    assert report.ptxas_note == ("ptxas not found (on PATH or in the nvidia-cuda-nvcc wheel): PTX was generated "
                                 "but not assembled")
    assert all(k.ptxas is None for k in report.kernels)
    assert "ptxas not found (on PATH" in report.summary()


def test_ptxas_can_be_skipped():
    text, *_ = corpus_case("unary_chain")
    report = compile_gpu(text, ptxas=False).report
    assert report.ptxas is None and "not run" in report.ptxas_note


def test_parse_ptxas_log():
    usage = ptxas.parse_usage(PTXAS_LOG)
    assert usage["reduce_max_7"] == ptxas.KernelUsage(18, 32, 0, 0, 0, 1)
    big = usage["big"]
    assert (big.registers, big.spill_stores, big.spill_loads, big.stack_bytes) == (255, 40, 36, 48)
    assert "spills" in big.describe()


@needs_ptxas
def test_ptxas_rejection_is_reported():
    result = ptxas.assemble(".version 7.0\n.target sm_80\n.address_size 64\nthis is not ptx\n", "sm_80")
    assert result.available and not result.ok and "REJECTED" in result.note


def test_sm_option_changes_the_target():
    text, *_ = corpus_case("unary_chain")
    report = compile_gpu(text, sm="sm_90", ptxas=False).report
    assert ".target sm_90" in report.ptx and report.sm == "sm_90"


@pytest.mark.parametrize("bad", ["sm80", "sm_8", "compute_80", "sm_999", ""])
def test_bad_sm_is_rejected(bad):
    with pytest.raises(HloscopeError, match="sm must name"):
        compile_gpu("HloModule m\nENTRY e { ROOT p = f32[2] parameter(0) }", sm=bad)


def test_unknown_option_is_rejected():
    with pytest.raises(TypeError, match="unknown gpu compile option"):
        compile_gpu("HloModule m\nENTRY e { ROOT p = f32[2] parameter(0) }", threads=4)


def test_block_size_option():
    text, *_ = corpus_case("unary_chain")
    (kernel,) = compile_gpu(text, block_size=128, ptxas=False).report.kernels
    assert kernel.block == (128, 1, 1)


def test_lookup_by_kernel_or_instruction(softmax):
    report = softmax.report
    k = report.kernels[0]
    assert report.kernel(k.name) is k and report.kernel(k.instruction) is k
    with pytest.raises(KeyError):
        report.kernel("nope")
