"""The explorer's layout cache: one warm process, a cache, bounded layouts, prefetching."""

from __future__ import annotations

import pytest

from hloscope.jupyter.layout import LayoutCache
from hloscope.viz import render_batch

pytestmark = pytest.mark.skipif(not render_batch.supported(), reason="pygraphviz is not installed")

SMALL = 'digraph g { a -> b; b -> c; }'


def test_layouts_are_cached_and_the_worker_is_reused():
    cache = LayoutCache()
    first = cache.render(SMALL)
    assert first.ok and "<svg" in first.svg and cache.worker_alive
    assert cache.render(SMALL) is first and cache.layouts == 1
    assert cache.render('digraph g { x -> y; }').ok and cache.layouts == 2
    cache.close()
    assert not cache.worker_alive
    assert cache.render(SMALL) is first  # the cache outlives the process


def test_prefetch_fills_the_cache():
    cache = LayoutCache()
    dots = [f"digraph g {{ n{i} -> m{i}; }}" for i in range(5)]
    cache.prefetch(iter(dots)).join(timeout=60)
    assert all(cache.cached(d) is not None for d in dots)
    cache.close()


def test_a_layout_past_its_timeout_is_a_message_not_a_hang():
    edges = "; ".join(f"n{i} -> n{j}" for i in range(300) for j in (i + 1, i * 7 % 300, i * 13 % 300))
    cache = LayoutCache(timeout=0.05)
    result = cache.render(f"digraph g {{ {edges}; }}")
    assert not result.ok and "stopped after" in result.message
    cache.timeout = 3.0
    assert cache.render(SMALL).ok  # a fresh worker takes over
    cache.close()


def test_idle_worker_is_closed():
    import time

    cache = LayoutCache(idle_seconds=0.2)
    cache.render(SMALL)
    deadline = time.time() + 10
    while cache.worker_alive and time.time() < deadline:
        time.sleep(0.05)
    assert not cache.worker_alive
