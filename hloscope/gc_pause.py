"""Pausing Python's cyclic garbage collector around stages that allocate many small objects.

Parsing, passes and the CPU lowering (llvmlite's IR builder) build millions of small objects
that live until the stage ends; the collector's repeated scans over all of them would make
large modules cost more than linear time (the lowering of benchmarks/large_graphs.py's
20,000-instruction module: 5.8 s with the collector on, 3.4 s paused). It is re-enabled (if
it was on) as soon as the stage ends, even on an error.
"""

from __future__ import annotations

import contextlib
import gc


@contextlib.contextmanager
def collector_paused():
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
