"""Why a jitted or auto-clustered function compiled again: f.cache_misses() names each cause."""

from __future__ import annotations

import numpy as np
import pytest

import hloscope
from hloscope.frontend.recompiles import CacheMisses

SCALE = 2.0  # read by `scaled` below: a Python constant baked into its program


def scaled(x):
    return np.tanh(x) * SCALE


def test_a_new_shape_a_new_dtype_and_a_changed_constant_are_three_misses_each_naming_its_cause():
    global SCALE
    f = hloscope.jit(scaled)
    x = np.linspace(-1, 1, 128, dtype=np.float32).reshape(8, 16)
    f(x)
    f(x)  # a hit: no miss
    f(x[:4])
    f(x[:4].astype(np.float64))
    SCALE = 3.0
    try:
        got = f(x[:4].astype(np.float64))
    finally:
        SCALE = 2.0
    np.testing.assert_allclose(got, np.tanh(x[:4].astype(np.float64)) * 3.0, rtol=1e-12)  # not the stale 2.0
    misses = f.cache_misses()
    assert [m.call for m in misses] == [1, 3, 4, 5]
    assert misses[0].first and misses[0].changes == []
    shape, dtype, constant = (m.changes for m in misses[1:])
    assert [(c.kind, c.what, c.before, c.after) for c in shape] == [("shape", "argument x", "f32[8,16]", "f32[4,16]")]
    assert [(c.kind, c.what, c.before, c.after) for c in dtype] == [("dtype", "argument x", "f32[4,16]", "f64[4,16]")]
    assert [(c.kind, c.what, c.before, c.after) for c in constant] == [("Python constant", "global SCALE", "2.0", "3.0")]
    assert "pad to a few bucket sizes" in misses[1].advice[0]
    assert "convert x to one dtype" in misses[2].advice[0]
    assert "SCALE is read from Python" in misses[3].advice[0]
    assert misses[3].source is not None and misses[3].source.line > 0  # the user's calling line
    assert "compiled again: global SCALE: Python constant 2.0 -> 3.0" in str(misses)
    assert f.cache_info().misses == 4 and f.cache_info().hits == 1


def test_the_miss_shows_the_two_programs_difference():
    global SCALE
    f = hloscope.jit(scaled)
    x = np.ones(4, np.float32)
    f(x)
    SCALE = 5.0
    try:
        f(x)
    finally:
        SCALE = 2.0
    miss = f.cache_misses()[-1]
    diff = miss.module_diff()
    assert any(line.startswith("-") and "constant(2)" in line for line in diff)
    assert any(line.startswith("+") and "constant(5)" in line for line in diff)
    page = miss._repr_html_()
    assert "global SCALE" in page and "constant" in page and "instructions added" in page


def test_the_closest_earlier_program_is_the_one_compared():
    f = hloscope.jit(lambda x: x + 1)
    small, big = np.ones(3, np.float32), np.ones(5, np.float32)
    f(small)
    f(big)
    f(small.astype(np.float64))  # nearest: small (only the dtype differs), not big (shape and dtype)
    last = f.cache_misses()[-1]
    assert [c.kind for c in last.changes] == ["dtype"]
    assert last.compared_with is not None and "f32[3]" in last.compared_with.describe()


def test_static_arguments_closures_structure_weak_types_and_options():
    def power(x, n):
        return x ** n

    f = hloscope.jit(power, static_argnums=1)
    x = np.ones(3, np.float32)
    for n in (2, 3, 4):
        f(x, n)
    static = f.cache_misses()[-1]
    assert [(c.kind, c.what, c.before, c.after) for c in static.changes] == [("static argument", "static argument n", "3", "4")]
    assert "pass it as an ordinary (traced) argument" in static.advice[0] and "changed 2 times" in static.advice[0]

    def make(offset):
        return hloscope.jit(lambda x: x + offset)

    g = make(1.5)
    g(x)
    g.fn.__closure__[0].cell_contents = 2.5  # the closure variable changes after the trace
    np.testing.assert_allclose(g(x), x + 2.5)
    closure = g.cache_misses()[-1].changes
    assert [(c.kind, c.before, c.after) for c in closure] == [("Python constant", "1.5", "2.5")]
    assert closure[0].what.startswith("closure variable offset")

    h = hloscope.jit(lambda d: d["a"] * 2)
    h({"a": x})
    h({"a": x, "b": x})
    assert [c.kind for c in h.cache_misses()[-1].changes] == ["structure"]
    assert "added d['b']" in h.cache_misses()[-1].causes[0]

    k = hloscope.jit(lambda x, s: x * s)
    k(x, 2.0)
    k(x, np.float32(2.0))
    weak = k.cache_misses()[-1].changes
    assert [(c.kind, c.what) for c in weak] == [("weak type", "argument s")]

    f.compile_options["opt_level"] = 1
    f(x, 4)
    assert [(c.kind, c.what, c.after) for c in f.cache_misses()[-1].changes] == [("options", "option opt_level", "1")]


def test_a_global_read_by_a_called_helper_is_watched(monkeypatch):
    def helper(x):
        return x * SCALE

    f = hloscope.jit(lambda x: helper(x) + 1)
    x = np.ones(2, np.float32)
    np.testing.assert_allclose(f(x), x * 2 + 1)
    monkeypatch.setattr(__import__(__name__), "SCALE", 4.0)
    np.testing.assert_allclose(f(x), x * 4 + 1)
    assert f.cache_misses()[-1].changes[0].what.startswith("global SCALE")


def test_autojit_logs_its_misses_too():
    f = hloscope.autojit(lambda x: np.tanh(x) + 1)
    f(np.ones(3, np.float32))
    f(np.ones(4, np.float32))
    misses = f.cache_misses()
    assert isinstance(misses, CacheMisses) and len(misses) == 2
    assert [c.kind for c in misses[-1].changes] == ["shape"]
    f.clear_cache()
    assert f.cache_misses() == []


def test_the_recompiles_view_builds():
    pytest.importorskip("ipywidgets")
    from hloscope.jupyter.panels.recompiles import RecompilesView

    f = hloscope.jit(lambda x: x * 2)
    f(np.ones(3, np.float32))
    f(np.ones(3, np.int32))
    view = hloscope.explore(f.cache_misses())
    assert isinstance(view, RecompilesView)
    assert "dtype" in view.table.value and "how to avoid it" in view.table.value
    assert "f32[3]" in view.detail.value and "s32[3]" in view.detail.value and "<svg" in view.detail.value


def test_lowering_is_not_counted_as_a_call():
    f = hloscope.jit(lambda x: x + 1)
    x = np.ones(3, np.float32)
    f.lower(x)
    f.trace(x)
    f(x)
    assert [m.call for m in f.cache_misses()] == [1]
