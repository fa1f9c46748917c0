"""The compile cache, in layers: what a call needs is looked for in each, nearest first.

  signature  per function: a call's signature (shapes, dtypes, static values) -> what was
             traced and compiled for it. One `SignatureCache` per hloscope.jit / autojit
             function, and one for the lazy tensors' step graphs; a hit costs no trace.
  memory     per process: a module's text and options -> its executable (`LruCache`, least
             recently used first out once over `max_entries` or `max_bytes`; an entry's weight
             is its object code plus the IR and assembly it keeps); a hit costs no compile.
  disk       where the target keeps one (the CPU's object files with `cache_dir=`): a hit
             costs no LLVM (compilation/caching.py).

`hloscope.compile_cache` is the one view of all three:

    hloscope.compile_cache.info()                   # every layer: entries, bytes, hits, misses
    hloscope.compile_cache.set_limits(max_entries=32, max_bytes=64 << 20)   # the memory layer
    hloscope.compile_cache.clear()                  # every layer in this process (disk stays)

An entry that is dropped is freed as soon as nothing else refers to its executable.
"""

from __future__ import annotations

import sys
import threading
import weakref
from collections import OrderedDict
from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

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
    """A thread-safe LRU map from keys to (value, weight in bytes), bounded both ways (the
    memory layer; each function's signature layer is one too, weighing nothing)."""

    def __init__(self, max_entries: int = DEFAULT_MAX_ENTRIES, max_bytes: int = DEFAULT_MAX_BYTES):
        self._entries: OrderedDict[Hashable, tuple[Value, int]] = OrderedDict()
        self._lock = threading.Lock()
        self._bytes = self.hits = self.misses = self.evictions = 0
        self.max_entries, self.max_bytes = max_entries, max_bytes

    def get(self, key: Hashable) -> Value | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                self.misses += 1
                return None
            self._entries.move_to_end(key)
            self.hits += 1
            return entry[0]

    def put(self, key: Hashable, value: Value, weight: int = 0) -> None:
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

    def keys(self) -> Iterator[Any]:  # each owner knows its keys' shape
        with self._lock:
            return iter(list(self._entries))

    def values(self) -> Iterator[Value]:
        with self._lock:
            return iter([value for value, _ in self._entries.values()])

    def __len__(self) -> int:
        return len(self._entries)

    def _shrink(self) -> None:
        while self._entries and (len(self._entries) > self.max_entries or self._bytes > self.max_bytes):
            _, (_, weight) = self._entries.popitem(last=False)
            self._bytes -= weight
            self.evictions += 1


class SignatureCache(LruCache[Value]):
    """The signature layer of one function: a call's key -> what was compiled for it, at most
    `max_entries` (least recently used first out; None: no bound). Every one made is seen by
    `hloscope.compile_cache` (held weakly: it goes with its function)."""

    def __init__(self, owner: str, max_entries: int | None = None):
        super().__init__(sys.maxsize if max_entries is None else max_entries, max_bytes=sys.maxsize)
        self.owner = owner
        _SIGNATURE_CACHES.add(self)

    def __repr__(self) -> str:
        return f"<SignatureCache of {self.owner}: {len(self)} entries, {self.hits} hits, {self.misses} misses>"


_SIGNATURE_CACHES: weakref.WeakSet[SignatureCache] = weakref.WeakSet()


@dataclass(frozen=True)
class SignatureUsage:
    functions: int  # signature caches alive (jit / autojit functions, the lazy step graphs)
    entries: int
    hits: int
    misses: int


@dataclass(frozen=True)
class CacheLayers:
    """What `hloscope.compile_cache.info()` says: each layer's use in this process."""

    signature: SignatureUsage
    memory: CacheUsage
    disk_hits: int  # compilations served by a disk cache (cache_dir=) in this process

    def __str__(self) -> str:
        s, m = self.signature, self.memory
        return "\n".join([
            f"signature  {s.entries} entries in {s.functions} functions; {s.hits} hits, {s.misses} misses",
            f"memory     {m.entries} of {m.max_entries} entries, {m.bytes:,} of {m.max_bytes:,} bytes; "
            f"{m.hits} hits, {m.misses} misses, {m.evictions} evicted",
            f"disk       {self.disk_hits} hits (a target's cache_dir=)",
        ])


class CompileCache:
    """The layers as one cache (see the module docstring)."""

    def __init__(self) -> None:
        self.memory: LruCache = LruCache()
        self.disk_hits = 0

    @staticmethod
    def signature_caches() -> list[SignatureCache]:
        return list(_SIGNATURE_CACHES)

    def info(self) -> CacheLayers:
        caches = self.signature_caches()
        signature = SignatureUsage(len(caches), sum(len(c) for c in caches), sum(c.hits for c in caches),
                                   sum(c.misses for c in caches))
        return CacheLayers(signature, self.memory.info(), self.disk_hits)

    def set_limits(self, max_entries: int | None = None, max_bytes: int | None = None) -> None:
        """The memory layer's bounds (the signature layer holds what its functions hold)."""
        self.memory.set_limits(max_entries, max_bytes)

    def clear(self) -> None:
        """Empty every layer of this process: the next call of any function traces and
        compiles again (a disk cache stays: it is for the next process)."""
        self.memory.clear()
        for cache in self.signature_caches():
            cache.clear()

    def __repr__(self) -> str:
        return f"<hloscope.compile_cache\n{self.info()}>"
