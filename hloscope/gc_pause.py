"""Pausing Python's cyclic garbage collector around stages that allocate many small objects.

Parsing and passes build millions of small immutable objects that hold no reference cycles;
the collector's full scans over all of them would make large modules cost more than linear
time. It is re-enabled (if it was on) as soon as the stage ends, even on an error.
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
