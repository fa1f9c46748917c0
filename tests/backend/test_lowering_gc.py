"""The CPU lowering runs with Python's garbage collector paused (gc_pause.py: its scans over
the IR builder's many objects made large modules superlinear), and the collector is back on
afterwards, also when the lowering fails."""

from __future__ import annotations

import gc

import numpy as np
import pytest

from backend_helpers import compile_text, module
from hloscope.backend.cpu import target

TEXT = module("""
    x = f32[64] parameter(0)
    e = f32[64] exponential(x)
""")


def test_the_collector_is_paused_while_lowering_and_on_after(monkeypatch):
    seen = []
    real = target.lower

    def watched(*args, **kwargs):
        seen.append(gc.isenabled())
        return real(*args, **kwargs)

    monkeypatch.setattr(target, "lower", watched)
    assert gc.isenabled()
    exe = compile_text(TEXT)
    assert seen == [False] and gc.isenabled()
    x = np.linspace(-1, 1, 64).astype(np.float32)
    np.testing.assert_allclose(exe(x), np.exp(x), rtol=1e-6)


def test_the_collector_is_back_on_after_a_failed_lowering(monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("lowering broke")

    monkeypatch.setattr(target, "lower", broken)
    with pytest.raises(RuntimeError, match="lowering broke"):
        compile_text(TEXT)
    assert gc.isenabled()
