"""One kernel's target-neutral LLVM IR as x86-64, AArch64, NVPTX and AMDGPU assembly."""

import ctypes
import re

import llvmlite.binding as llvm
import numpy as np
import pytest

from hloscope.backend.targets import TARGETS, all_assembly, assembly
from hloscope.errors import HloscopeError
from gpu_helpers import RNG, compile_gpu, corpus_case, evaluate, module

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


KEYED_LESS = """
less {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  i = s32[] parameter(2)
  j = s32[] parameter(3)
  ROOT lt = pred[] compare(a, b), direction=LT
}
"""


def run_plain_loop(ir_text: str, name: str, params: dict, outputs: list, extent: int) -> None:
    """Run the plain loop function `name` over [0, extent) on this CPU: an argument named
    after an entry parameter gets that array, the others the output arrays in order."""
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    machine = llvm.Target.from_default_triple().create_target_machine()
    engine = llvm.create_mcjit_compiler(llvm.parse_assembly(ir_text), machine)
    engine.finalize_object()
    args = [a.name for a in llvm.parse_assembly(ir_text).get_function(name).arguments][:-2]  # then begin, end
    pending = iter(outputs)
    pointers = [(params[a] if a in params else next(pending)).ctypes.data for a in args]
    kernel = ctypes.CFUNCTYPE(None, *[ctypes.c_void_p] * len(pointers), ctypes.c_int64, ctypes.c_int64)
    kernel(engine.get_function_address(name))(*pointers, 0, extent)


@pytest.mark.parametrize("n", [1, 2, 17])
def test_neutral_form_of_a_sort_runs_and_is_stable(n):
    """The bitonic sort's neutral form (a rank sort in plain loops), run on this CPU: keys
    with ties move their values the evaluator's stable way."""
    text = module(f"""
        k = f32[3,{n}] parameter(0)
        v = s32[3,{n}] parameter(1)
        s = (f32[3,{n}], s32[3,{n}]) sort(k, v), dimensions={{1}}, is_stable=true, to_apply=less
    """, KEYED_LESS)
    report = compile_gpu(text, ptxas=False).report
    ir_text = report.neutral_ir("s")
    assert "nvvm" not in ir_text and "addrspace" not in ir_text
    keys = RNG.integers(0, 4, (3, n)).astype(np.float32)
    values = np.arange(3 * n, dtype=np.int32).reshape(3, n)
    got = (np.full((3, n), np.nan, np.float32), np.full((3, n), -1, np.int32))
    run_plain_loop(ir_text, "s", {"k": keys, "v": values}, list(got), 3)
    want = evaluate(text, keys, values)
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_array_equal(got[1], want[1])
