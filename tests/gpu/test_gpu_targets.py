"""One kernel's target-neutral LLVM IR as x86-64, AArch64, NVPTX and AMDGPU assembly."""

import re

import pytest

from hloscope.backend.targets import TARGETS, all_assembly, assembly
from hloscope.errors import HloscopeError
from gpu_helpers import compile_gpu, corpus_case

MARKERS = {  # patterns only that target's assembly contains (the first is checked against the others)
    "x86-64": [r"%rdi", r"\tretq"],
    "aarch64": [r"\[x\d+", r"\tret\n"],
    "nvptx": [r"\.address_size 64", r"\.visible \.func", r"ld\.param"],  # generic ld/st: no address spaces in neutral IR
    "amdgpu": [r'\.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"', r"s_setpc_b64", r"\bv_\w+"],
}


@pytest.fixture(scope="module")
def report():
    text, *_ = corpus_case("unary_chain")
    return compile_gpu(text, ptxas=False).report


def test_neutral_ir_has_no_gpu_intrinsics(report):
    ir = report.neutral_ir()
    assert "define void @" in ir and "i64 %\"begin\"" in ir.replace("i64 %begin", "i64 %\"begin\"")
    assert "nvvm" not in ir and "ptx_kernel" not in ir and "addrspace" not in ir


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_four_targets_from_one_kernel(report, target):
    asm = report.asm(target)
    for marker in MARKERS[target]:
        assert re.search(marker, asm), (target, marker)
    for other, markers in MARKERS.items():
        if other != target:
            assert not re.search(markers[0], asm), (target, other)


def test_all_assembly_and_aliases(report):
    ir = report.neutral_ir()
    every = all_assembly(ir)
    assert sorted(every) == sorted(TARGETS)
    assert assembly(ir, "x86_64") == every["x86-64"]
    assert assembly(ir, "ptx") == every["nvptx"]


def test_unknown_target():
    with pytest.raises(HloscopeError, match="unknown target"):
        assembly("define void @f() {\n  ret void\n}\n", "riscv")


def test_asm_of_a_reduction_and_a_dot():
    text, *_ = corpus_case("bmm_scale")
    report = compile_gpu(text, ptxas=False).report
    for kernel in report.kernels:
        assert "%rdi" in report.asm("x86-64", kernel.name)
    assert ".amdgcn_target" in report.asm("amdgpu", report.kernels[0].name)
