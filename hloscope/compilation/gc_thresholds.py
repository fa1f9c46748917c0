"""Python's cyclic garbage collector, run less often while a compilation runs.

A compile allocates millions of small objects that live until it ends (instructions, shapes,
llvmlite's IR values), and the collector's default first threshold (700 allocations) makes it
scan them over and over: the lowering of benchmarks/large_graphs.py's 20,000-instruction
module took 5.8 s, 3.4 s with the collector off. A first threshold of 100,000 takes it to the
same 2.8-3.4 s, and garbage with cycles is still collected, later (mypy raises its threshold
for the same reason).

The thresholds are the process's, so concurrent compilations share one raise: the first to
start raises them, the last to finish puts back what it found.
"""

from __future__ import annotations

import gc
import threading
from contextlib import contextmanager
from typing import Iterator

FIRST_THRESHOLD = 100_000

_lock = threading.Lock()
_running = 0
_saved: tuple[int, ...] = ()


@contextmanager
def fewer_collections() -> Iterator[None]:
    global _running, _saved
    with _lock:
        if _running == 0:
            _saved = gc.get_threshold()
            gc.set_threshold(max(FIRST_THRESHOLD, _saved[0]), *_saved[1:])
        _running += 1
    try:
        yield
    finally:
        with _lock:
            _running -= 1
            if _running == 0:
                gc.set_threshold(*_saved)
