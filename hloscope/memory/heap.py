"""Packing buffers into one arena: XLA's GlobalDecreasingSizeBestFitHeap
(xla/service/heap_simulator/heap_simulator.cc).

Each buffer is a rectangle: its live range in time by its size in bytes. Two buffers may
share bytes only if their live ranges do not overlap. The heap takes the buffers largest
first and gives each the best-fitting free gap among the buffers it overlaps in time that are
already placed (the smallest gap that holds it, the lowest such one on a tie), or the top of
those buffers if no gap fits. Big buffers first leaves the small ones to fill the holes.

    time ->          0   1   2   3   4
    offset 0    [  a (256 B) ]  [ c  ]      c reuses a's bytes: a is dead by time 3
    offset 256      [   b (128 B)    ]

Sizes are rounded up to the alignment (64 bytes, a cache line), so every offset is aligned.
Finding the overlapping buffers is a sweep over time; the whole packing costs
O(n log n + number of overlapping pairs).
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass


@dataclass(frozen=True)
class Interval:
    """A buffer to place: alive in [start, end] (inclusive) and `size` bytes big."""

    id: int
    start: int
    end: int
    size: int


def aligned(size: int, alignment: int) -> int:
    return -(-size // alignment) * alignment if alignment > 1 else size


def overlaps(intervals: list[Interval]) -> dict[int, list[int]]:
    """For each interval, the intervals alive at some common time (a sweep over starts)."""
    neighbours: dict[int, list[int]] = {i.id: [] for i in intervals}
    active: list[tuple[int, int]] = []  # (end, id), a min-heap on end
    for it in sorted(intervals, key=lambda i: (i.start, i.id)):
        while active and active[0][0] < it.start:
            heapq.heappop(active)
        for _, other in active:
            neighbours[it.id].append(other)
            neighbours[other].append(it.id)
        heapq.heappush(active, (it.end, it.id))
    return neighbours


def best_fit(intervals: list[Interval], alignment: int = 64) -> tuple[dict[int, int], int]:
    """Offsets for every interval, and the arena size (the heap's peak)."""
    neighbours = overlaps(intervals)
    offsets: dict[int, int] = {}
    sizes = {i.id: aligned(i.size, alignment) for i in intervals}
    top = 0
    for it in sorted(intervals, key=lambda i: (-sizes[i.id], i.start, i.id)):
        taken = sorted((offsets[n], offsets[n] + sizes[n]) for n in neighbours[it.id] if n in offsets)
        offsets[it.id] = _best_gap(taken, sizes[it.id])
        top = max(top, offsets[it.id] + sizes[it.id])
    return offsets, top


def _best_gap(taken: list[tuple[int, int]], size: int) -> int:
    """The offset of the smallest free gap that holds `size` bytes below or between `taken`
    chunks (sorted by offset), else just above them."""
    best, best_room, cursor = None, None, 0
    for lo, hi in taken:
        room = lo - cursor
        if room >= size and (best_room is None or room < best_room):
            best, best_room = cursor, room
        cursor = max(cursor, hi)
    return cursor if best is None else best
