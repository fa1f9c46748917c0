"""Repeated computations are lowered once (backend/cpu/same_kernels.py): the code key tells
two kernels apart exactly when their code would differ."""

from __future__ import annotations

import numpy as np

import hloscope
from hloscope.backend.buffers import ArrayStorage
from hloscope.backend.cpu.same_kernels import code_key, computation_key
from hloscope.backend.kernel_spec import KernelSpec
from hloscope.ir.shape import ArrayShape

TWO = """HloModule m
ENTRY e {{
  a = f32[16,8] parameter(0)
  b = f32[16,8] parameter(1)
  {first}
  {second}
  ROOT t = (f32[16,8], f32[16,8]) tuple(x, y)
}}"""


def _comp(body: str):
    return hloscope.parse_hlo(f"HloModule m\nENTRY e {{\n{body}\n}}").entry_computation


def test_names_do_not_matter_but_structure_and_literals_do():
    base = _comp("p = f32[8] parameter(0)\nc = f32[] constant(2)\ncb = f32[8] broadcast(c), dimensions={}\n"
                 "ROOT s = f32[8] subtract(p, cb)")
    renamed = _comp("q.7 = f32[8] parameter(0)\nk.1 = f32[] constant(2)\nkb.9 = f32[8] broadcast(k.1), dimensions={}\n"
                    "ROOT r.3 = f32[8] subtract(q.7, kb.9)")
    swapped = _comp("p = f32[8] parameter(0)\nc = f32[] constant(2)\ncb = f32[8] broadcast(c), dimensions={}\n"
                    "ROOT s = f32[8] subtract(cb, p)")
    other_literal = _comp("p = f32[8] parameter(0)\nc = f32[] constant(3)\ncb = f32[8] broadcast(c), dimensions={}\n"
                          "ROOT s = f32[8] subtract(p, cb)")
    assert computation_key(base) == computation_key(renamed)
    assert computation_key(base) != computation_key(swapped)
    assert computation_key(base) != computation_key(other_literal)


def _arena(slot: int, value: str) -> ArrayStorage:
    return ArrayStorage("arena", slot, 32, value, ArrayShape("f32", (8,)))


def test_buffers_that_change_the_code_change_the_key():
    comp = _comp("p = f32[8] parameter(0)\nROOT n = f32[8] negate(p)")

    def key(inp: ArrayStorage, out: ArrayStorage) -> tuple:
        return code_key("loop", KernelSpec("k", "k", comp, [inp], [out]))

    apart = key(_arena(0, "a"), _arena(64, "b"))
    assert key(_arena(128, "c"), _arena(192, "d")) == apart  # other places, same facts
    assert key(_arena(0, "a"), _arena(0, "b")) != apart  # in place: one argument
    assert key(_arena(0, "a"), _arena(16, "b")) != apart  # overlapping: no noalias
    assert key(_arena(0, "a"), _arena(72, "b")) != apart  # aligned to 8 bytes, not 64
    assert key(ArrayStorage("param", 0, 32, "a", ArrayShape("f32", (8,))), _arena(64, "b")) != apart


def test_repeated_computations_share_code_and_others_do_not():
    x, y = (np.random.default_rng(s).standard_normal((16, 8)).astype(np.float32) for s in (1, 2))
    same = hloscope.compile(hloscope.parse_hlo(TWO.format(first="x = f32[16,8] multiply(a, a)",
                                                          second="y = f32[16,8] multiply(b, b)")), cache=False)
    other = hloscope.compile(hloscope.parse_hlo(TWO.format(first="x = f32[16,8] multiply(a, a)",
                                                           second="y = f32[16,8] add(b, b)")), cache=False)
    assert [("same code as" in k.notes[-1]) for k in same.report.kernels] == [False, True]
    assert not any("same code as" in n for k in other.report.kernels for n in k.notes)
    for got, want in zip(same(x, y), (x * x, y * y)):
        np.testing.assert_allclose(got, want, rtol=1e-6)
    for got, want in zip(other(x, y), (x * x, y + y)):
        np.testing.assert_allclose(got, want, rtol=1e-6)
