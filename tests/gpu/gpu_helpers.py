"""Shared helpers for the GPU tests: corpus cases, compiling for the GPU, skip reasons."""

from __future__ import annotations

import shutil

import ml_dtypes
import numpy as np
import pytest

import hloscope
from hloscope.compiler import compile as compile_module
from corpus_helpers import corpus_case, corpus_cases  # noqa: F401  (re-exported)
from hlo_text import module, reducer  # noqa: F401  (re-exported)

RNG = np.random.default_rng(7)
NUMPY = {"f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32, "f64": np.float64, "s8": np.int8,
         "s32": np.int32, "u8": np.uint8, "u32": np.uint32, "s64": np.int64, "u64": np.uint64, "pred": np.bool_}

needs_ptxas = pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not on PATH (CUDA toolkit not installed)")


def compile_gpu(text_or_module, **options):
    """hloscope.compile(..., backend="gpu")."""
    return compile_module(text_or_module, backend="gpu", **options)


def assert_matches(got, outs, case) -> None:
    """Results against the corpus's recorded outputs, with the case's tolerance."""
    got = list(got) if isinstance(got, tuple) else [got]
    assert len(got) == len(outs)
    for g, w in zip(got, outs):
        assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, w.shape, g.dtype, w.dtype)
        if case.get("rtol", 1e-5) == 0 and case.get("atol", 1e-5) == 0:
            np.testing.assert_array_equal(g, w)
        else:
            np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=case.get("rtol", 1e-5),
                                       atol=case.get("atol", 1e-5), equal_nan=True)


def assert_close(got, want, rtol=1e-5, atol=1e-6) -> None:
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            assert_close(g, w, rtol, atol)
        return
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, want.shape, got.dtype, want.dtype)
    if got.dtype.kind in "biu":
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=rtol, atol=atol, equal_nan=True)


def evaluate(text: str, *args):
    return hloscope.evaluate(hloscope.parse_hlo(text), *args)


def data(dtype: str, *shape):
    """Random test data: small integers, 30% true preds, normal floats."""
    if dtype == "pred":
        return RNG.random(shape) < 0.3
    if np.dtype(NUMPY[dtype]).kind in "iu":
        return RNG.integers(0, 50, shape).astype(NUMPY[dtype])
    return RNG.standard_normal(shape).astype(NUMPY[dtype])


def emulated_check(text: str, args, rtol=1e-5, atol=1e-5, **options):
    """The GPU kernels of `text`, run on the CPU emulator, against the evaluator."""
    from emulator import emulated_executable

    exe = emulated_executable(text, **options)
    assert_close(exe(*args), evaluate(text, *args), rtol, atol)
    return exe
