"""Recycling the memory of large results.

Every call returns fresh arrays, but a fresh 16 MB array from malloc is often fresh memory
from the kernel too: thousands of page faults that cost more than the computation that
fills it. So results of at least `min_bytes` are carved from blocks this pool keeps: a block
goes back to the pool only when the last array (or view) using it has died, so a result is
never shared with a live array.

How death is noticed: the returned array is built over a ctypes array that owns nothing but
points at the block. numpy keeps that ctypes object as the array's base (it never collapses
a base chain past a non-ndarray), and a weakref finalizer on it returns the block.
"""

from __future__ import annotations

import ctypes
import weakref
from collections.abc import Callable

import numpy as np


class OutputPool:
    def __init__(self, min_bytes: int = 1 << 20, keep: int = 4):
        self.min_bytes = min_bytes
        self.keep = keep  # free blocks kept per size
        self._free: dict[int, list[np.ndarray]] = {}

    def empty(self, dims: tuple, dtype: np.dtype, nbytes: int, allocate: Callable[[int], np.ndarray]) -> np.ndarray:
        """An uninitialized array; `allocate(nbytes)` makes a new 64-byte aligned block."""
        if nbytes < self.min_bytes:
            return np.empty(dims, dtype)
        try:
            block = self._free[nbytes].pop()
        except (KeyError, IndexError):
            block = allocate(nbytes)
        # Both objects export the buffer protocol; the stubs declare it (__buffer__) only for Python 3.12+.
        owner = (ctypes.c_char * nbytes).from_buffer(block)  # pyright: ignore[reportArgumentType]
        weakref.finalize(owner, self._give_back, nbytes, block)
        return np.frombuffer(owner, dtype).reshape(dims)  # pyright: ignore[reportArgumentType, reportCallIssue]

    def _give_back(self, nbytes: int, block: np.ndarray) -> None:
        free = self._free.setdefault(nbytes, [])
        if len(free) < self.keep:
            free.append(block)
