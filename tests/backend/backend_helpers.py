"""Shared helpers for the backend tests: build small HLO modules, compile, compare."""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np

import hloscope
from hloscope.compiler import compile as compile_module
from corpus_helpers import corpus_case, corpus_cases  # noqa: F401  (re-exported)
from hlo_text import module, reducer  # noqa: F401  (re-exported)

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
NUMPY = {"f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32, "f64": np.float64,
         "s8": np.int8, "s16": np.int16, "s32": np.int32, "s64": np.int64,
         "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64, "pred": np.bool_}


def compile_text(text: str, **options):
    """Compile HLO text without the process-wide cache (each test sees a fresh compile)."""
    options.setdefault("cache", False)
    return compile_module(hloscope.parse_hlo(text), **options)


def check_against_evaluator(text: str, args, rtol=1e-6, atol=1e-6, **options):
    """Compile `text`, run it on args, and compare with hloscope.evaluate."""
    exe = compile_text(text, **options)
    got = exe(*args)
    want = hloscope.evaluate(hloscope.parse_hlo(text), *args)
    assert_close(got, want, rtol, atol)
    return exe


def check_by_error_model(text: str, args, **options):
    """Compile `text`, run it on args, and judge the result against the evaluator by
    hloscope's error model (compilation/error_model.py: per output, a multiple of what an f32
    evaluation is off by from the f64 one): for results whose rounding follows the CPU, such
    as sums that a vector width reorders, where a fixed tolerance holds on one CPU only."""
    from hloscope.compilation.checks import check_against_evaluator as judge, flat_outputs
    from hloscope.compilation.error_model import evaluator_references

    exe = compile_text(text, **options)
    m = hloscope.parse_hlo(text)
    check = judge(evaluator_references(m, args, flat_outputs(hloscope.evaluate(m, *args))), exe(*args))
    assert check.ok, check.describe()
    return exe


def assert_close(got, want, rtol, atol, where=""):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want), where
        for i, (g, w) in enumerate(zip(got, want)):
            assert_close(g, w, rtol, atol, f"{where}[{i}]")
        return
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape and got.dtype == want.dtype, (where, got.shape, want.shape, got.dtype, want.dtype)
    if got.dtype.kind in "biu":
        np.testing.assert_array_equal(got, want, err_msg=where)
    else:  # float64 view: NaN == NaN also for bf16, which numpy's testing does not know
        np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=rtol, atol=atol,
                                   equal_nan=True, err_msg=where)
