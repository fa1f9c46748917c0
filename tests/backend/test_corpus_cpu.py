"""Every core-tier corpus case compiles and matches the output XLA recorded, natively."""

import numpy as np
import pytest

from backend_helpers import CORPUS, compile_text, corpus_case, corpus_cases

pytestmark = pytest.mark.hosts  # results that depend on the vector width and FMA (tests/hosts.py)


def _compare(got, outs, case):
    got = list(got) if isinstance(got, tuple) else [got]
    assert len(got) == len(outs)
    for g, w in zip(got, outs):
        assert g.shape == w.shape and g.dtype == w.dtype
        if case["rtol"] == 0 and case["atol"] == 0:
            np.testing.assert_array_equal(g, w)
        else:
            np.testing.assert_allclose(g, w, rtol=case["rtol"], atol=case["atol"])


@pytest.mark.parametrize("name", corpus_cases("core"))
def test_core_case_default_pipeline(name):
    text, args, outs, case = corpus_case(name)
    _compare(compile_text(text)(*args), outs, case)


@pytest.mark.parametrize("name", corpus_cases("core"))
def test_core_case_unfused(name):
    """Without HLO passes every op is its own kernel: the op-by-op lowering must agree too."""
    text, args, outs, case = corpus_case(name)
    _compare(compile_text(text, pipeline="none")(*args), outs, case)


@pytest.mark.parametrize("name", ["gelu_mlp", "bmm_scale"])
def test_dot_loops_lowering_matches(name):
    text, args, outs, case = corpus_case(name)
    exe = compile_text(text, dot="loops")
    assert all(k.kind != "dot-blas" for k in exe.report.kernels)
    _compare(exe(*args), outs, case)


@pytest.mark.parametrize("name", corpus_cases("stretch"))
def test_stretch_cases(name):
    """gather, reduce-window, variadic reduce, while and conditional."""
    text, args, outs, case = corpus_case(name)
    _compare(compile_text(text)(*args), outs, case)


@pytest.mark.parametrize("name", corpus_cases("core") + corpus_cases("stretch"))
def test_xla_optimized_hlo_compiles_as_is(name):
    """XLA's own optimized module (its fusions, kCustom ynn fusions, bitcasts, copies and
    layouts) lowers without any hloscope pass and computes the same result."""
    _, args, outs, case = corpus_case(name)
    text = (CORPUS / f"{name}.opt.hlo").read_text()
    _compare(compile_text(text, pipeline="none")(*args), outs, case)
