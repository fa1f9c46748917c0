"""hloscope.jit: the signature cache, static arguments, pytrees, Python scalars, the trace
listing, and that nothing the caller passes in is modified."""

from __future__ import annotations

import collections
import os

import numpy as np
import pytest

import hloscope
from hloscope import jit
from hloscope.frontend import Program

X = np.arange(12, dtype=np.float32).reshape(3, 4)


def test_repeated_signature_hits_and_new_shape_or_dtype_recompiles():
    f = jit(lambda x: np.tanh(x) * 2)
    f(X)
    f(X + 1)
    info = f.cache_info()
    assert (info.hits, info.misses, info.currsize) == (1, 1, 1)
    f(np.zeros((5, 4), np.float32))
    f(X.astype(np.float64))
    info = f.cache_info()
    assert (info.hits, info.misses) == (1, 3)
    assert info.signatures == ("x: f32[3,4]", "x: f32[5,4]", "x: f64[3,4]")


def test_python_scalar_arguments_are_weak_and_do_not_recompile_per_value():
    f = jit(lambda x, s: x * s)
    assert f(X, 2.0).dtype == np.float32  # as numpy: f32 array * Python float stays f32
    np.testing.assert_allclose(f(X, 3.0), X * 3.0)
    assert f.cache_info().misses == 1 and f.cache_info().hits == 1
    assert f(X.astype(np.int32), 2.5).dtype == np.float64  # int array * float -> f64, as numpy


def test_static_argnums_and_argnames_are_part_of_the_signature():
    def f(x, n, axis=0):
        return x.sum(axis=axis) * n

    jf = jit(f, static_argnums=(1,), static_argnames=("axis",))
    np.testing.assert_allclose(jf(X, 2, axis=1), f(X, 2, axis=1))
    np.testing.assert_allclose(jf(X, 3, axis=1), f(X, 3, axis=1))
    np.testing.assert_allclose(jf(X, 3, axis=1), f(X, 3, axis=1))
    assert jf.cache_info().misses == 2 and jf.cache_info().hits == 1
    assert "n=3" in jf.cache_info().signatures[1]


def test_static_argument_by_name_used_positionally():
    jf = jit(lambda x, reps: np.tile(x, reps), static_argnames="reps")
    np.testing.assert_array_equal(jf(X, (2, 1)), np.tile(X, (2, 1)))


def test_unhashable_static_argument_is_a_type_error():
    with pytest.raises(TypeError, match="hashable"):
        jit(lambda x, shape: x.reshape(shape), static_argnums=1)(X, [4, 3])


Pair = collections.namedtuple("Pair", "left right")


def test_pytrees_in_and_out():
    def f(params, batch):
        h = batch["x"] @ params[0] + params[1]
        return {"out": h, "stats": (h.mean(), [h.max()])}, Pair(h.sum(), batch["x"])

    params = (np.ones((4, 2), np.float32), np.float32(0.5))
    batch = {"x": X}
    got, want = jit(f)(params, batch), f(params, batch)
    assert isinstance(got[1], Pair) and set(got[0]) == {"out", "stats"}
    np.testing.assert_allclose(got[0]["out"], want[0]["out"])
    np.testing.assert_allclose(got[0]["stats"][1][0], want[0]["stats"][1][0])
    np.testing.assert_allclose(got[1].right, X)


def test_keyword_arguments_are_traced_too():
    jf = jit(lambda x, *, scale: x * scale)
    np.testing.assert_allclose(jf(X, scale=np.float32(2)), X * 2)


def test_inputs_are_never_modified_and_read_only_inputs_work():
    x = X.copy()
    x.setflags(write=False)
    before = x.copy()
    out = jit(lambda x: x.reshape(-1) * 2 + x.ravel())(x)
    np.testing.assert_array_equal(x, before)
    assert out is not x and not np.shares_memory(out, x)


def test_identity_function_returns_a_fresh_array():
    x = X.copy()
    out = jit(lambda x: x)(x)
    out[...] = -1
    np.testing.assert_array_equal(x, X)


def test_lower_returns_a_module_that_prints_and_parses():
    m = jit(lambda x: np.exp(x).sum()).lower(X)
    assert isinstance(m, hloscope.HloModule)
    text = m.to_text()
    assert hloscope.parse_hlo(text).to_text() == text
    assert m.name == "jit_lambda"


def test_trace_listing_has_one_line_per_operation_with_source():
    def f(x):
        m = x.max(axis=1, keepdims=True)
        return np.exp(x - m)

    program = jit(f).trace(X)
    assert isinstance(program, Program)
    text = str(program)
    here = os.path.basename(__file__)
    assert f"{here}:{f.__code__.co_firstlineno + 1}  m = x.max(axis=1, keepdims=True)" in text
    assert f"{here}:{f.__code__.co_firstlineno + 2}  return np.exp(x - m)" in text
    lines = text.splitlines()
    assert lines[0] == "{ lambda ; a:f32[3,4]. let"
    assert "b:f32[3,1] = max[axis=1 keepdims=True] a" in lines[1]
    assert "c:f32[3,4] = subtract a b" in lines[2]
    assert "d:f32[3,4] = exp c" in lines[3]
    assert lines[-1] == "  in (d,) }"
    assert "<pre" in program._repr_html_() and "exp c" in program._repr_html_()


def test_trace_listing_pretty_printer_hook():
    class P:
        text_out = ""

        def text(self, s):
            P.text_out += s

    jit(lambda x: x + 1).trace(X)._repr_pretty_(P(), False)
    assert "add a 1" in P.text_out


def test_jit_as_decorator_and_nested_jit_inlines():
    @jit
    def inner(x):
        return x * 2

    outer = hloscope.jit(lambda x: inner(x) + 1)
    np.testing.assert_allclose(outer(X), X * 2 + 1)
    assert inner.cache_info().misses == 0  # inlined into outer's trace


def test_zero_dimensional_and_boolean_and_integer_arguments():
    f = jit(lambda a, b, c: np.where(c, a, b) + 1)
    out = f(np.float32(2), np.arange(3, dtype=np.int16), np.array([True, False, True]))
    np.testing.assert_array_equal(out, np.where([True, False, True], np.float32(2), np.arange(3, dtype=np.int16)) + 1)


def test_compile_gives_the_cached_native_executable():
    import hloscope

    f = hloscope.jit(lambda x: np.tanh(x) * 2)
    x = np.linspace(-2, 2, 8, dtype=np.float32)
    exe = f.compile(x)
    assert exe.report.assembly  # native code, with its report
    np.testing.assert_allclose(exe(x), np.tanh(x) * 2, rtol=1e-5, atol=1e-6)
    f(x)
    assert f.cache_info().misses == 1 and f.cache_info().hits == 1
