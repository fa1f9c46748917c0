"""The in-memory compile cache: the same module with the same options is compiled once.

Least recently used entries are dropped first once there are more than `max_entries`, or
their machine code and texts weigh more than `max_bytes` together (an entry's weight is
what its executable reports: object code plus the IR and assembly it keeps). An entry that
is dropped is freed as soon as nothing else refers to its executable.

    from hloscope.runtime.compile_cache import CACHE
    CACHE.set_limits(max_entries=32, max_bytes=64 << 20)
    CACHE.info()          # entries, bytes, hits, misses, evictions
    CACHE.clear()
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Generic, TypeVar

Value = TypeVar("Value")

DEFAULT_MAX_ENTRIES = 64
DEFAULT_MAX_BYTES = 256 << 20


@dataclass(frozen=True)
class CacheUsage:
    entries: int
    bytes: int
    hits: int
    misses: int
    evictions: int
    max_entries: int
    max_bytes: int


class LruCache(Generic[Value]):
    """A thread-safe LRU map from keys to (value, weight in bytes), bounded both ways."""

    def __init__(self, max_entries: int = DEFAULT_MAX_ENTRIES, max_bytes: int = DEFAULT_MAX_BYTES):
        self._entries: OrderedDict[str, tuple[Value, int]] = OrderedDict()
        self._lock = threading.Lock()
        self._bytes = self.hits = self.misses = self.evictions = 0
        self.max_entries, self.max_bytes = max_entries, max_bytes

    def get(self, key: str) -> Value | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                self.misses += 1
                return None
            self._entries.move_to_end(key)
            self.hits += 1
            return entry[0]

    def put(self, key: str, value: Value, weight: int = 0) -> None:
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._bytes -= old[1]
            self._entries[key] = (value, weight)
            self._bytes += weight
            self._shrink()

    def set_limits(self, max_entries: int | None = None, max_bytes: int | None = None) -> None:
        """Change the bounds (0 entries: cache nothing); entries over them go at once."""
        with self._lock:
            if max_entries is not None:
                self.max_entries = max(0, int(max_entries))
            if max_bytes is not None:
                self.max_bytes = max(0, int(max_bytes))
            self._shrink()

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._bytes = 0

    def info(self) -> CacheUsage:
        with self._lock:
            return CacheUsage(len(self._entries), self._bytes, self.hits, self.misses, self.evictions,
                             self.max_entries, self.max_bytes)

    def __len__(self) -> int:
        return len(self._entries)

    def _shrink(self) -> None:
        while self._entries and (len(self._entries) > self.max_entries or self._bytes > self.max_bytes):
            _, (_, weight) = self._entries.popitem(last=False)
            self._bytes -= weight
            self.evictions += 1
