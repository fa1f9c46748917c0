"""A large module is optimized and compiled in parts, one per core (llvm_split.py): every
kernel is defined in exactly one part and declared in the others, the parts link into one
executable, and it computes what the module compiled whole computes."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import hloscope
from hloscope.backend.cpu.fast.llvm_split import join_parts, parts_of, split_module
from hloscope.backend.llvm_worker import LlvmWorker, in_parallel
from hloscope.compiler import compile as compile_module

MODELS = Path(__file__).parents[1] / "models"
GPT2_STEP = (MODELS / "gpt2_train_step.hlo").read_text()


def _defined(text: str) -> list[str]:
    return re.findall(r'^define (?!internal|private)\S+ @"?([^"(]+)"?\(', text, re.M)


def _declared(text: str) -> set[str]:
    return set(re.findall(r'^declare \S+ @"?([^"(]+)"?\(', text, re.M))


@pytest.fixture(scope="module")
def whole():
    hloscope.compile_cache.clear()
    return compile_module(GPT2_STEP, cache=False, llvm_parts=1)


def test_each_kernel_is_defined_in_one_part_and_declared_in_the_others(whole):
    ir = whole.report.llvm_ir
    parts = split_module(ir, 3)
    assert len(parts) == 3
    kernels = _defined(ir)
    per_part = [_defined(p) for p in parts]
    assert sorted(k for ks in per_part for k in ks) == sorted(kernels)  # each once, none lost
    for text, mine in zip(parts, per_part):
        assert set(kernels) - set(mine) <= _declared(text)  # the other parts' kernels, declared
    sizes = [p.count("\n") for p in parts]
    assert max(sizes) < 0.6 * ir.count("\n")  # balanced: no part holds most of the module


def test_a_small_module_is_compiled_whole():
    text = 'define void @"k"() {\nentry:\n  ret void\n}\n'
    assert split_module(text, 4) == [text]
    assert parts_of(join_parts([text])) == [text]


def test_the_parts_read_back_from_the_joined_text():
    parts = ["; part one\n", "; part two\n"]
    assert parts_of(join_parts(parts)) == parts


def test_a_module_compiled_in_parts_computes_what_the_whole_one_does(whole):
    parted = compile_module(GPT2_STEP, cache=False, llvm_parts=2)
    stage = next(s for s in parted.report.stages if s.name == "llvm-opt")
    assert "in 2 parts" in stage.note
    assert len(parts_of(parted.report.optimized_llvm_ir)) == 2
    assert len(parts_of(whole.report.optimized_llvm_ir)) == 1
    rng = np.random.default_rng(0)
    args = [rng.standard_normal(p.dims).astype(p.dtype) if p.dtype.kind == "f" else np.zeros(p.dims, p.dtype)
            for p in parted.signature.params]
    for got, want in zip(parted(*args), whole(*args)):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    assert "LLVM module part 2 of 2" in parted.report.assembly  # the assembly view covers both parts


def test_a_module_in_parts_round_trips_through_the_disk_cache(tmp_path):
    hloscope.compile_cache.clear()
    first = compile_module(GPT2_STEP, cache_dir=tmp_path, llvm_parts=2)
    hloscope.compile_cache.clear()
    second = compile_module(GPT2_STEP, cache_dir=tmp_path, llvm_parts=2)
    assert second.report.cache == "disk"
    assert len(second.native.objects) == 2
    args = [np.ones(p.dims, p.dtype) for p in first.signature.params]
    for a, b in zip(first(*args), second(*args)):
        np.testing.assert_array_equal(a, b)


def test_parallel_calls_keep_their_order_and_raise_the_failure():
    assert in_parallel([lambda k=k: k * k for k in range(4)]) == [0, 1, 4, 9]
    workers = [LlvmWorker(), LlvmWorker()]
    try:
        with pytest.raises(hloscope.errors.HloscopeError, match="LLVM failed while optimizing"):
            in_parallel([lambda w=w: w.optimize("this is not IR", {"triple": "", "cpu": "", "features": "",
                                                                   "opt_level": 1, "jit": True})
                         for w in workers])
    finally:
        for w in workers:
            w.close()


def test_llvm_parts_must_not_be_negative():
    with pytest.raises(hloscope.errors.HloscopeError, match="llvm_parts"):
        compile_module(GPT2_STEP, llvm_parts=-1)


def test_identical_kernels_are_lowered_once():
    """The same computation on other buffers of the same kind calls the first kernel's code
    (same_kernels.py): one function in the IR, two kernels in the report."""
    f = hloscope.jit(lambda x, y: (np.tanh(x) * 2 + 1, np.tanh(y) * 2 + 1))
    x = np.linspace(-1, 1, 4096, dtype=np.float32)
    y = x[::-1].copy()
    exe = f.compile(x, y)
    kernels = exe.report.kernels
    assert len(kernels) == 2
    assert _defined(exe.report.llvm_ir).count(kernels[0].name) == 1 and kernels[1].name not in _defined(exe.report.llvm_ir)
    assert f"same code as {kernels[0].name}" in kernels[1].notes[-1]
    for got, want in zip(exe(x, y), (np.tanh(x) * 2 + 1, np.tanh(y) * 2 + 1)):
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


def test_identical_bodies_under_two_names_are_compiled_once():
    """Kernels whose code keys differ can still have the same body (LLVM's MergeFunctions
    makes one a call of the other): two buffers aligned differently, say."""
    body = ("(ptr noalias %a, ptr noalias %b, i64 %begin, i64 %end) noinline nounwind {\n"
            "entry:\n  %x = load float, ptr %a\n  %y = fmul float %x, 2.0\n  store float %y, ptr %b\n  ret void\n}\n")
    text = f"define void @k1{body}\ndefine void @k2{body}"
    worker = LlvmWorker(in_process=True)
    target = {"cpu": "", "features": "", "opt_level": 2, "jit": True, "merge_functions": True}
    _, optimized = worker.optimize(text, target)
    k2 = re.search(r"define [^\n]*@k2\(.*?\n}", optimized, re.S)
    assert k2 and "tail call void @k1" in k2.group(0)


def test_kernels_with_the_same_body_go_to_the_same_part(whole):
    ir = whole.report.llvm_ir
    from hloscope.backend.cpu.fast.llvm_split import read_module

    _, functions = read_module(ir)
    shapes: dict[str, set[str]] = {}
    for f in functions:
        if not f.local:
            shapes.setdefault(f.shape(), set()).add(re.findall(r'@"?([^"(]+)"?\(', f.header)[0])
    repeated = [names for names in shapes.values() if len(names) > 1]
    assert repeated  # the GPT-2 step repeats kernels under other names
    parts = [set(_defined(p)) for p in split_module(ir, 2)]
    for names in repeated:
        assert sum(bool(names & part) for part in parts) == 1


def _function(name: str, lines: int, loop: bool, calls: str = "", linkage: str = "") -> str:
    body = [f'  %"v{k}" = add i64 {k}, 1' for k in range(lines)]
    if loop:
        body.insert(0, '  %"i" = phi i64 [0, %"entry"], [%"i.next", %"body"]')
    if calls:
        body.append(f'  %"h" = call float @"{calls}"(float 0.0)')
    return "\n".join([f'define {linkage}void @"{name}"(ptr %"a", i64 %"begin", i64 %"end") noinline', "{",
                      "entry:", *body, "  ret void", "}"])


def test_parts_balance_loops_not_lines():
    """A loop costs LLVM far more per line than straight-line code (the entry's stores and
    calls), and a kernel's cost includes the helpers it inlines: the three loop kernels must
    not share one part while the long entry sits alone in the other, as counting lines would do."""
    helper = "\n".join(['define internal float @"helper"(float %".1") alwaysinline', "{", "entry:",
                        *[f'  %"w{k}" = fadd float %".1", 1.0' for k in range(30)], '  ret float %".1"', "}"])
    text = "\n".join([
        "; ModuleID = \"m\"",
        _function("big", 20, loop=True, calls="helper"),
        _function("a", 30, loop=True),
        _function("b", 25, loop=True),
        _function("entry_function", 100, loop=False),
        helper,
    ]) + "\n"
    parts = [set(_defined(p)) for p in split_module(text, 2, min_lines=0)]
    assert sorted(k for p in parts for k in p) == ["a", "b", "big", "entry_function"]
    with_entry = next(p for p in parts if "entry_function" in p)
    assert with_entry & {"a", "b", "big"}, parts  # the entry shares its part with a loop kernel
    assert all(len(p & {"a", "b", "big"}) < 3 for p in parts), parts
