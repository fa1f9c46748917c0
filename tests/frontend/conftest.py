"""Shared helpers for the frontend tests: run a function through hloscope.jit and through
plain numpy, and compare (shapes, dtypes and values); check every lowered module verifies and
round-trips through the HLO text parser."""

from __future__ import annotations

import numpy as np
import pytest

import hloscope
from hloscope import jit
from hloscope.frontend.pytree import flatten


def compare_with_numpy(f, *args, rtol=1e-5, atol=1e-5, **jit_kwargs):
    """hloscope.jit(f)(*args) must match f(*args) run by numpy; returns the jitted function."""
    jf = jit(f, **jit_kwargs)
    got, want = jf(*args), f(*args)
    got_leaves, got_tree = flatten(got)
    want_leaves, want_tree = flatten(want)
    assert got_tree == want_tree
    for g, w in zip(got_leaves, want_leaves):
        g, w = np.asarray(g), np.asarray(w)
        assert g.shape == w.shape, (g.shape, w.shape)
        assert g.dtype == w.dtype, (g.dtype, w.dtype)
        if w.dtype.kind in "biu":
            np.testing.assert_array_equal(g, w)
        else:
            np.testing.assert_allclose(g, w, rtol=rtol, atol=atol, equal_nan=True)
    check_module(jf.lower(*args))
    return jf


def check_module(module):
    """The module verifies and its text parses back to the same text."""
    module.verify()
    text = module.to_text()
    assert hloscope.parse_hlo(text).to_text() == text
    return module


@pytest.fixture
def rng():
    return np.random.default_rng(20240611)


@pytest.fixture
def check():
    return compare_with_numpy
