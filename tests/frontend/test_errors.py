"""Errors at trace time: each names the problem, the shapes, and the user's file and line."""

from __future__ import annotations

import os
import re
from pathlib import Path

import numpy as np
import pytest

from hloscope.errors import HloscopeError, UnsupportedError
from hloscope import jit
from hloscope.frontend import ConcretizationError, ShapeError, TracerLeakError

X = np.ones((3, 4), np.float32)
HERE = os.path.basename(__file__)


def raises_at(exc_type, f, *args, line_text: str):
    """Call jit(f)(*args); the error must be `exc_type` and point at this file and line_text."""
    with pytest.raises(exc_type) as info:
        jit(f)(*args)
    message = str(info.value)
    lines = Path(__file__).read_text().splitlines()
    lineno = next(i + 1 for i, text in enumerate(lines) if line_text in text and "raises_at" not in text)
    assert f"{HERE}:{lineno}" in message, message
    assert line_text in message
    return message


def test_matmul_shape_mismatch_names_both_shapes_and_the_line():
    def f(x):
        return x @ x  # bad matmul

    message = raises_at(ShapeError, f, X, line_text="return x @ x  # bad matmul")
    assert "(3, 4) and (3, 4)" in message
    assert issubclass(ShapeError, HloscopeError) and issubclass(ShapeError, ValueError)


def test_bad_reshape():
    def f(x):
        return x.reshape(5, 3)  # bad reshape

    message = raises_at(ShapeError, f, X, line_text="x.reshape(5, 3)  # bad reshape")
    assert "(3, 4)" in message and "(5, 3)" in message


def test_broadcasting_failure():
    def f(x):
        return x + np.ones(5, np.float32)  # bad broadcast

    message = raises_at(ShapeError, f, X, line_text="# bad broadcast")
    assert "(3, 4) and (5,)" in message


def test_unsupported_function_is_named():
    def f(x):
        return np.fft.fft(x)  # no fft

    message = raises_at(UnsupportedError, f, X, line_text="np.fft.fft(x)  # no fft")
    assert message.startswith("numpy.fft.fft is not supported by hloscope.jit")


def test_python_if_on_a_traced_value_suggests_the_alternatives():
    def f(x):
        if x.sum() > 0:  # python if
            return x
        return -x

    message = raises_at(ConcretizationError, f, X, line_text="if x.sum() > 0:  # python if")
    for hint in ("np.where", "hloscope.cond", "hloscope.fori_loop", "hloscope.while_loop"):
        assert hint in message
    assert issubclass(ConcretizationError, TypeError)


def test_python_while_on_a_traced_value():
    def f(x):
        while x.max() > 1:  # python while
            x = x / 2
        return x

    raises_at(ConcretizationError, f, X, line_text="while x.max() > 1:  # python while")


def test_converting_to_numpy_or_float_is_refused():
    def f(x):
        return np.asarray(x)  # to numpy

    raises_at(ConcretizationError, f, X, line_text="np.asarray(x)  # to numpy")

    def g(x):
        return float(x.sum())  # to float

    raises_at(ConcretizationError, g, X, line_text="float(x.sum())  # to float")


def test_argument_that_is_not_array_like_is_a_type_error():
    with pytest.raises(TypeError, match=re.escape("argument name is a str, which is not array-like")):
        jit(lambda x, name: x)(X, "hello")
    with pytest.raises(TypeError, match=re.escape("argument cfg['f'] is a function")):
        jit(lambda x, cfg: x)(X, {"f": lambda: 0})


def test_unsupported_dtype_argument():
    with pytest.raises(TypeError, match="complex128 cannot be traced"):
        jit(lambda x: x)(np.ones(3, complex))


def test_assignment_into_a_traced_array():
    def f(x):
        x[0] = 1  # setitem
        return x

    raises_at(UnsupportedError, f, X, line_text="x[0] = 1  # setitem")


def test_traced_boolean_mask_is_refused():
    def f(x):
        return x[x > 0]  # mask

    message = raises_at(UnsupportedError, f, X, line_text="return x[x > 0]  # mask")
    assert "np.where" in message


def test_static_index_out_of_bounds_is_an_index_error_with_the_line():
    def f(x):
        return x[np.array([5])]  # out of bounds

    with pytest.raises(IndexError, match="index 5 is out of bounds for axis 0 with size 3") as info:
        jit(f)(X)
    assert any(f"{HERE}:" in note for note in info.value.__notes__)


def test_leaked_tracer_is_reported():
    leaked = []

    def f(x):
        leaked.append(x)
        return x

    jit(f)(X)
    with pytest.raises(TracerLeakError):
        jit(lambda y: y + leaked[0])(X)
    with pytest.raises(TracerLeakError, match="outside hloscope.jit"):
        np.sin(leaked[0])


def test_cond_branches_must_agree():
    from hloscope.frontend import cond

    def f(x, t):
        return cond(t > 0, lambda x: x, lambda x: x[:2], x)  # mismatched branches

    raises_at(ShapeError, f, X, np.float32(1), line_text="# mismatched branches")


def test_loop_body_must_keep_the_carry_shape():
    from hloscope.frontend import fori_loop

    def f(x):
        return fori_loop(0, 3, lambda i, v: v.sum(axis=0), x)  # shrinking carry

    message = raises_at(ShapeError, f, X, line_text="# shrinking carry")
    assert "f32[3,4]" in message and "f32[4]" in message
