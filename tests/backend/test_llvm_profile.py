"""LLVM time by kernel (backend/cpu/llvm_profile.py): each kernel goes through LLVM alone,
in a module that defines it and only declares the others, and the table names every kernel."""

from __future__ import annotations

import re

import pytest

import hloscope
from hloscope.backend.cpu.fast.llvm_split import kernel_module
from hloscope.errors import HloscopeError


SOFTMAX = """
HloModule softmax

max_f32 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}

add_f32 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

ENTRY main {
  x = f32[64,128] parameter(0)
  ninf = f32[] constant(-inf)
  m = f32[64] reduce(x, ninf), dimensions={1}, to_apply=max_f32
  mb = f32[64,128] broadcast(m), dimensions={0}
  d = f32[64,128] subtract(x, mb)
  e = f32[64,128] exponential(d)
  zero = f32[] constant(0)
  s = f32[64] reduce(e, zero), dimensions={1}, to_apply=add_f32
  sb = f32[64,128] broadcast(s), dimensions={0}
  ROOT r = f32[64,128] divide(e, sb)
}
"""


@pytest.fixture(scope="module")
def exe():
    """Softmax as generated kernels (with the library it is one row program: see below)."""
    return hloscope.compile(SOFTMAX, cache=False, library=False)


def _defined(text: str) -> list[str]:
    return re.findall(r'^define (?!internal|private)\S+ @"?([^"(]+)"?\(', text, re.M)


def test_a_kernels_module_defines_it_alone_and_declares_the_rest(exe):
    names = [k.name for k in exe.report.kernels]
    assert len(names) >= 2
    text = kernel_module(exe.report.llvm_ir, names[0])
    assert _defined(text) == [names[0]]
    for other in names[1:]:
        assert re.search(rf'^declare .*@"?{re.escape(other)}"?\(', text, re.M)


def test_an_unknown_kernel_is_named_in_the_error(exe):
    with pytest.raises(KeyError, match="no_such_kernel"):
        kernel_module(exe.report.llvm_ir, "no_such_kernel")


def test_every_kernel_gets_a_row_with_its_own_times_and_object(exe):
    times = hloscope.llvm_time_by_kernel(exe)
    assert sorted(r.kernel for r in times.rows) == sorted(k.name for k in exe.report.kernels)
    assert all(r.optimize_seconds > 0 and r.codegen_seconds > 0 and r.object_bytes > 0 for r in times.rows)
    assert [r.seconds for r in times.rows] == sorted((r.seconds for r in times.rows), reverse=True)
    text = str(times)
    assert all(k.name[:40] in text for k in exe.report.kernels) and "whole module" in text
    assert "<table" in times._repr_html_()


def test_it_takes_a_record_and_refuses_what_has_no_cpu_kernels(exe):
    assert len(hloscope.llvm_time_by_kernel(exe.report).rows) == len(exe.report.kernels)
    with pytest.raises(HloscopeError, match="compiled executable or its record"):
        hloscope.llvm_time_by_kernel("softmax")


def test_the_exact_trig_loop_has_its_own_row():
    """A sine kernel keeps its exact (Payne-Hanek) loop in `<kernel>.exact`: the table times
    it too, so the sum still covers all the kernel's code."""
    exe = hloscope.compile(hloscope.parse_hlo("HloModule m\nENTRY e {\n  p = f32[4096] parameter(0)\n"
                                              "  ROOT s = f32[4096] sine(p)\n}\n"), cache=False)
    times = hloscope.llvm_time_by_kernel(exe)
    kernel = exe.report.kernels[0].name
    kinds = {r.kernel: r.kind for r in times.rows}
    assert kinds == {kernel: exe.report.kernels[0].kind, f"{kernel}.exact": "exact trig"}


def test_a_row_programs_instructions_share_its_kernels_row():
    """With the library, softmax is one row program: its three instructions' records all name
    the program's function, and the table times that function once."""
    exe = hloscope.compile(SOFTMAX, cache=False)
    functions = {k.llvm_function for k in exe.report.kernels}
    assert len(exe.report.kernels) == 3 and len(functions) == 1
    times = hloscope.llvm_time_by_kernel(exe)
    assert [(r.kernel, r.kind) for r in times.rows] == [(functions.pop(), "row-program")]
