"""Every corpus case (core and stretch) compiles to PTX that NVIDIA's ptxas accepts for sm_80."""

import re

import pytest

from gpu_helpers import compile_gpu, corpus_case, corpus_cases, needs_ptxas


@pytest.mark.parametrize("name", corpus_cases("core"))
def test_core_case_has_one_ptx_entry_per_kernel(name):
    text, *_ = corpus_case(name)
    report = compile_gpu(text, ptxas=False).report
    entries = re.findall(r"^\.visible \.entry (\w+)\(", report.ptx, re.M)
    assert entries and sorted(entries) == sorted(k.name for k in report.kernels)
    assert ".target sm_80" in report.ptx


@needs_ptxas
@pytest.mark.parametrize("name", corpus_cases("core") + corpus_cases("stretch"))
def test_case_ptx_is_accepted_by_ptxas(name):
    text, *_ = corpus_case(name)
    report = compile_gpu(text).report
    assert report.ptxas.available and report.ptxas.ok, report.ptxas.log
    for kernel in report.kernels:
        usage = kernel.ptxas
        assert usage is not None and usage.registers > 0, kernel.name
        assert usage.spill_stores == 0 and usage.spill_loads == 0, (kernel.name, usage)


@needs_ptxas
@pytest.mark.parametrize("name", corpus_cases("core"))
def test_core_case_unfused_ptx_is_accepted(name):
    """Without HLO passes every op is its own kernel: those kernels must assemble too."""
    text, *_ = corpus_case(name)
    report = compile_gpu(text, pipeline="none").report
    assert report.ptxas.ok, report.ptxas.log


@needs_ptxas
@pytest.mark.parametrize("sm", ["sm_75", "sm_90"])
def test_other_architectures(sm):
    text, *_ = corpus_case("softmax")
    report = compile_gpu(text, sm=sm).report
    assert f".target {sm}" in report.ptx
    assert report.ptxas.ok and report.ptxas.arch == sm, report.ptxas.log
