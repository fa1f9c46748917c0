"""The graph-layout service: DOT -> SVG by warm worker processes, cached, bounded in time.

    render_svg(dot).svg                     # the process-wide service (also hloscope.viz.render_svg)
    render_many(dots, budget=20.0)          # many graphs, laid out in parallel workers
    service = default_service()             # or LayoutService(timeout=...) of one's own
    service.prefetch(dots)                  # lay out in the background; .cancel(), .join()

Starting a layout process (Python + pygraphviz) costs ~0.1 s while a warm one lays out a
~60-node graph in ~0.02-0.1 s; a pass step needs two graphs, an export dozens. So:

- workers: up to `max_workers` processes (hloscope.runtime.worker_pool), kept warm
  between requests and closed after `idle_seconds` unused, by `close()` (the service stays
  usable: the next layout starts one), when the service is collected, and at exit;
- every layout is bounded by its timeout: the worker is killed, a fresh one takes the next
  graph, and the result is a message, never a hang or an exception. Without pygraphviz
  (or when its worker cannot run) each graph is one `dot -Tsvg` child instead;
- one LRU cache, DOT text -> result, bounded in entries and characters. A failure is kept
  with the timeout it was tried with and retried only with a longer one; a result no engine
  produced (none installed, budget spent, service closed meanwhile) is not kept;
- `prefetch(dots)`: a background thread. Foreground requests (`render`, `render_many`) go
  first: they take a free worker, or wait for at most the one layout in progress, and a
  graph someone is already laying out is awaited, not laid out twice.

One service serves the whole process: `render_svg`, `render_many`, the HTML export and
every explorer in a notebook share `default_service()`. Sharing beats one per explorer: a
notebook keeps one or two warm processes instead of one per explorer output (each ~25 MB,
alive until idle); a cell re-run on the same program finds its graphs already laid out;
an explorer's first graph does not pay a start-up when another already did; and there is
one bound on the cache's memory. Explorers prefetching at once share the workers, and a
click still waits for at most one layout. Closing an explorer closes the service: every
prefetch stops and the processes end, while the cache stays and the next layout simply
starts a worker again.
"""

from __future__ import annotations

import math
import os
import queue
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Iterable

from . import render
from ..runtime.worker_pool import Lease, WorkerPool
from .render import DEFAULT_TIMEOUT, NO_ENGINE_MESSAGE, LayoutWorker, RenderResult, WorkerError, not_tried

IDLE_SECONDS = 300.0
MAX_ENTRIES = 256
MAX_CHARS = 64_000_000  # SVG is ~1 kB per node: 256 graphs of 250 nodes would be that much
BUDGET_MESSAGE = "not laid out: the layout time budget was spent"
CLOSED_MESSAGE = "not laid out: the layout service was closed meanwhile"


class _Cache:
    """DOT text -> (result, timeout it was tried with), least recently used first."""

    def __init__(self, max_entries: int, max_chars: int):
        self.max_entries, self.max_chars = max_entries, max_chars
        self._items: OrderedDict = OrderedDict()
        self._chars = 0

    def get(self, dot: str, timeout: float) -> RenderResult | None:
        """A layout, or a failure if it was tried with at least this timeout."""
        hit = self._items.get(dot)
        if hit is None or not (hit[0].ok or timeout <= hit[1]):
            return None
        self._items.move_to_end(dot)
        return hit[0]

    def put(self, dot: str, result: RenderResult, timeout: float) -> None:
        self._drop(dot)
        self._items[dot] = (result, timeout)
        self._chars += _size(dot, result)
        while self._items and (len(self._items) > self.max_entries or self._chars > self.max_chars):
            self._drop(next(iter(self._items)))

    def _drop(self, dot: str) -> None:
        old = self._items.pop(dot, None)
        if old is not None:
            self._chars -= _size(dot, old[0])

    def clear(self) -> None:
        self._items.clear()
        self._chars = 0


def _size(dot: str, result: RenderResult) -> int:
    return len(dot) + len(result.svg or "") + len(result.message)


class Prefetch:
    """DOT texts being laid out one by one in a background thread, until done or cancelled.
    `error` holds what the DOT iterable raised, if anything (it ends the prefetch)."""

    def __init__(self, service: LayoutService, dots: Iterable[str], timeout: float):
        self._service, self._dots, self._timeout = service, dots, timeout
        self._cancelled = threading.Event()
        self.error: Exception | None = None
        self._thread = threading.Thread(target=self._run, name="hloscope-layout-prefetch", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            for dot in self._dots:
                if self._cancelled.is_set():
                    return
                self._service._get(_checked(dot), self._timeout, self._cancelled)
        except Exception as e:  # noqa: BLE001 - a thread has no caller to raise to
            self.error = e
        finally:
            self._dots = ()  # the iterable may hold modules: let them go

    def cancel(self) -> None:
        """Stop after the layout in progress (if any); no further graph is started."""
        self._cancelled.set()
        self._service._workers.wake()

    def join(self, timeout: float | None = None) -> None:
        """Wait until the prefetch is done or cancelled (or `timeout` seconds)."""
        self._thread.join(timeout)

    def is_alive(self) -> bool:
        return self._thread.is_alive()

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()


class LayoutService:
    """DOT -> RenderResult through warm workers and one cache (see the module docstring)."""

    def __init__(
        self,
        timeout: float = DEFAULT_TIMEOUT,
        *,
        max_workers: int | None = None,
        idle_seconds: float = IDLE_SECONDS,
        max_entries: int = MAX_ENTRIES,
        max_chars: int = MAX_CHARS,
    ):
        self.timeout = timeout
        self.layouts = 0  # graphs an engine laid out or tried to (not served from the cache)
        self._cache = _Cache(max_entries, max_chars)
        self._lock = threading.Lock()  # guards the cache, _pending and `layouts`
        self._pending: dict[str, threading.Event] = {}  # DOT texts being laid out now
        self._workers: WorkerPool[LayoutWorker] = WorkerPool(LayoutWorker, max_workers or min(os.cpu_count() or 1, 4),
                                                             idle_seconds)
        self._prefetches: weakref.WeakSet = weakref.WeakSet()
        weakref.finalize(self, self._workers.close)  # also runs at exit

    def render(self, dot: str, timeout: float | None = None) -> RenderResult:
        """The layout of `dot`: from the cache, or laid out now within the timeout."""
        return self._get_now(_checked(dot), self._timeout(timeout))

    def render_many(
        self, dots: list[str], timeout: float | None = None, workers: int | None = None, budget: float | None = None
    ) -> list[RenderResult]:
        """`render` for several graphs, in input order: cached ones are reused, the rest laid
        out by up to `workers` processes at once. budget: seconds for the whole call; graphs
        not started by then get a message instead (and are not cached)."""
        dots, timeout = [_checked(d) for d in dots], self._timeout(timeout)
        if workers is not None and workers < 1:
            raise ValueError(f"render_many needs at least one worker, not {workers!r}")
        deadline = None if budget is None else time.perf_counter() + budget
        with self._lock:
            done = {d: r for d in dots if (r := self._cache.get(d, timeout)) is not None}
        todo: queue.SimpleQueue = queue.SimpleQueue()
        missing = [d for d in dict.fromkeys(dots) if d not in done]
        for dot in missing:
            todo.put(dot)

        def run() -> None:
            while True:
                try:
                    dot = todo.get_nowait()
                except queue.Empty:
                    return
                late = deadline is not None and time.perf_counter() > deadline
                done[dot] = not_tried(BUDGET_MESSAGE) if late else self._get_now(dot, timeout)

        self._in_threads(run, min(workers or self._workers.limit, len(missing)))
        return [done[d] for d in dots]

    @staticmethod
    def _in_threads(run, n: int) -> None:
        """run() in n threads (in this one when n is 1), until all return."""
        if n == 1:
            run()
            return
        threads = [threading.Thread(target=run, name="hloscope-layout", daemon=True) for _ in range(n)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()

    def prefetch(self, dots: Iterable[str], timeout: float | None = None) -> Prefetch:
        """Lay out `dots` (an iterable, consumed lazily) in a background thread."""
        prefetch = Prefetch(self, dots, self._timeout(timeout))
        self._prefetches.add(prefetch)
        return prefetch

    def cached(self, dot: str, timeout: float | None = None) -> RenderResult | None:
        """The cached result for `dot`, or None (nothing is laid out)."""
        with self._lock:
            return self._cache.get(dot, self._timeout(timeout))

    def stop_prefetch(self) -> None:
        """Cancel every prefetch of this service."""
        for prefetch in list(self._prefetches):
            prefetch.cancel()

    def clear_cache(self) -> None:
        with self._lock:
            self._cache.clear()

    def close(self) -> None:
        """Cancel prefetching and end the worker processes; the cache is kept, and the next
        layout starts a worker again."""
        self.stop_prefetch()
        self._workers.close()

    @property
    def workers_alive(self) -> int:
        """How many worker processes are running now (warm or busy)."""
        return self._workers.alive

    @property
    def worker_alive(self) -> bool:
        """Whether any worker process is running now."""
        return self._workers.alive > 0

    def _timeout(self, timeout: float | None) -> float:
        timeout = self.timeout if timeout is None else timeout
        if not isinstance(timeout, (int, float)) or not math.isfinite(timeout) or timeout <= 0:
            raise ValueError(f"a layout timeout is a positive number of seconds, not {timeout!r}")
        return float(timeout)

    def _get_now(self, dot: str, timeout: float) -> RenderResult:
        """`_get` in the foreground: it waits for its layout, so it always has one."""
        result = self._get(dot, timeout)
        assert result is not None, "only a background request (one that can be cancelled) gives up"
        return result

    def _get(self, dot: str, timeout: float, cancelled: threading.Event | None = None) -> RenderResult | None:
        """The layout of `dot`: cached, awaited when another thread is laying it out, or laid
        out here. A background request (`cancelled` given) gives way to foreground ones,
        skips a graph in progress elsewhere, and returns None once cancelled. A graph is
        marked as in progress only by a thread holding a worker slot, so awaiting it means
        waiting for one layout that has started, never for a queue."""
        background = cancelled is not None
        while True:
            hit, busy = self._peek(dot, timeout)
            if hit is None and busy is None:
                slot = self._workers.lease(background, cancelled)
                if slot is None:
                    return None
                hit, busy = self._peek(dot, timeout, claim=True)
                if hit is None and busy is None:
                    return self._lay_out(dot, timeout, slot)
                slot.release()
            if hit is not None:
                return hit
            if background:
                return None
            busy.wait()  # then the cache has it, or that attempt's timeout was shorter than ours

    def _peek(self, dot: str, timeout: float, claim: bool = False) -> tuple:
        """(cached result, event of a layout of `dot` in progress); with `claim`, when both
        are None, `dot` is marked as being laid out by the caller."""
        with self._lock:
            hit = self._cache.get(dot, timeout)
            busy = None if hit is not None else self._pending.get(dot)
            if claim and hit is None and busy is None:
                self._pending[dot] = threading.Event()
            return hit, busy

    def _lay_out(self, dot: str, timeout: float, slot: Lease[LayoutWorker]) -> RenderResult:
        """Lay out a claimed `dot` with the slot, then cache it and wake whoever awaits it."""
        result = None
        try:
            result = self._with_engines(dot, timeout, slot)
            return result
        finally:
            slot.release()
            with self._lock:
                if result is not None and result.engine != "none":
                    self._cache.put(dot, result, timeout)
                    self.layouts += 1
                done = self._pending.pop(dot)
            done.set()

    def _with_engines(self, dot: str, timeout: float, slot: Lease[LayoutWorker]) -> RenderResult:
        """A pygraphviz worker, else (not installed, or its process failed) `dot -Tsvg`."""
        engines = render.available_engines()  # asked each time: installing one mid-session works
        if not engines:
            return not_tried(NO_ENGINE_MESSAGE)
        failure = ""
        if "pygraphviz" in engines:
            try:
                return slot.worker.render(dot, timeout)
            except WorkerError as e:
                failure = f"pygraphviz: {e}"
        if slot.interrupted:
            return not_tried(CLOSED_MESSAGE)
        if "dot" in engines:
            return render.render_with_dot(dot, timeout, failure)
        return render.layout_failed(failure, 0.0, "pygraphviz")


def _checked(dot: str) -> str:
    if not isinstance(dot, str):
        raise TypeError(f"a graph to lay out is DOT text (str), not {type(dot).__name__}")
    return dot


_default: LayoutService | None = None
_default_lock = threading.Lock()


def default_service() -> LayoutService:
    """The process-wide service, created on first use (its workers end at exit)."""
    global _default
    with _default_lock:
        if _default is None:
            _default = LayoutService()
        return _default


def render_svg(dot: str, timeout: float = DEFAULT_TIMEOUT) -> RenderResult:
    """Lay out `dot` and return its SVG, or a message saying why not (timeout, no Graphviz)."""
    return default_service().render(dot, timeout)


def render_many(
    dots: list[str], timeout: float = DEFAULT_TIMEOUT, workers: int | None = None, budget: float | None = None
) -> list[RenderResult]:
    """`render_svg` for several graphs, laid out in parallel (see LayoutService.render_many)."""
    return default_service().render_many(dots, timeout, workers, budget)


def clear_cache() -> None:
    """Forget the process-wide service's layouts."""
    default_service().clear_cache()
