"""The issue's first check: fusion off on softmax gives more kernels, more bytes and a slower
measured run, and the delta table says so.

The run is a real memory effect: unfused, exp(x - max) and its broadcasts are written to
memory and read back (the cost model counts 2.4x the bytes). 4096x1024 f32 (16 MiB per array)
is far outside the caches, so the medians of interleaved runs differ by ~1.8x here; the test
asks for 1.2x.
"""

from __future__ import annotations

import numpy as np
from whatif_helpers import compiled_softmax

from hloscope.whatif import whatif

FUSION_OFF = ["fusion", "multi_output_fusion"]  # both fusion passes


def test_fusion_off_on_softmax_costs_kernels_bytes_and_time():
    exe, x = compiled_softmax((4096, 1024))
    w = whatif(exe, disable=FUSION_OFF, repeats=7)
    kernels, moved, run = w.delta("kernels"), w.delta("bytes moved"), w.delta("measured run")
    assert kernels[1] > kernels[0]
    assert moved[1] > 2 * moved[0]
    assert run[0] is not None and run[1] is not None
    assert run[1] > 1.2 * run[0], f"unfused {run[1] * 1e3:.2f} ms vs fused {run[0] * 1e3:.2f} ms"
    rows = {row[0]: row[3] for row in w.rows()}
    assert rows["kernels"].endswith("more") and rows["bytes moved"].endswith("more")
    assert rows["measured run"].endswith("slower") and rows["estimated time"].endswith("slower")
    assert w.reused == ("parse", "verify")  # the passes rerun; what came before them did not
    assert w.diff.removed  # the fusions are gone from the graph
    np.testing.assert_allclose(w.executables[1](x), exe(x), rtol=1e-5)
    text = str(w)
    assert "kernels" in text and "more" in text and "what if: disable=fusion,multi_output_fusion" in text
