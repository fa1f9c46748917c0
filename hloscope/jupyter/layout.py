"""Graph layouts for one explorer: a cache and a warm layout process.

Laying out a ~100-node graph takes ~0.04 s in a running pygraphviz process but ~0.2 s when
a process has to be started for it (hloscope.viz.render does that for every graph), and
stepping through passes needs two graphs per step. So the explorer owns a `LayoutCache`:

- one child process (hloscope.viz.render_batch's worker) kept warm between requests, and
  closed after IDLE_SECONDS without use, or when the explorer is closed or collected;
- a dict DOT text -> RenderResult (bounded), so a graph is laid out once;
- `prefetch(dots)`: a background thread laying out graphs the user is likely to ask for
  next; a request from the notebook waits at most for the one layout in progress.

Every layout keeps the bound of hloscope.viz.render: past `timeout` the process is killed
and the result is a message, never a hang. Without pygraphviz it uses `render_svg`.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict

from ..viz import render_batch
from ..viz.render import DEFAULT_TIMEOUT, RenderResult, render_svg

IDLE_SECONDS = 300.0
MAX_ENTRIES = 256


def _close(box: list) -> None:
    worker, box[0] = box[0], None
    if worker is not None:
        worker.close()


class LayoutCache:
    """DOT -> RenderResult, laid out by one warm worker (see the module docstring)."""

    def __init__(self, timeout: float = DEFAULT_TIMEOUT, idle_seconds: float = IDLE_SECONDS):
        self.timeout = timeout
        self.idle_seconds = idle_seconds
        self._results: OrderedDict = OrderedDict()
        self._lock = threading.Lock()
        self._box: list = [None]  # the worker, in a box so the finalizer need not hold self
        self._timer: threading.Timer | None = None
        self._prefetch_stop = threading.Event()
        self._finalizer = weakref.finalize(self, _close, self._box)
        self.layouts = 0  # how many graphs were actually laid out (not served from the cache)

    def cached(self, dot: str) -> RenderResult | None:
        with self._lock:
            return self._results.get(dot)

    def render(self, dot: str) -> RenderResult:
        """The layout of `dot`, from the cache or laid out now (bounded by the timeout)."""
        hit = self.cached(dot)
        if hit is not None:
            return hit
        with self._lock:
            hit = self._results.get(dot)  # laid out by the prefetcher while we waited
            if hit is None:
                hit = self._lay_out(dot)
                self._results[dot] = hit
                while len(self._results) > MAX_ENTRIES:
                    self._results.popitem(last=False)
            self._touch()
            return hit

    def _lay_out(self, dot: str) -> RenderResult:
        self.layouts += 1
        if not render_batch.supported():
            return render_svg(dot, self.timeout)
        worker = self._box[0]
        if worker is None or not worker.alive:
            worker = self._box[0] = render_batch._Worker()
        return worker.render(dot, self.timeout)  # kills the worker itself on a timeout

    def _touch(self) -> None:
        """Restart the idle timer that closes the worker."""
        if self._timer is not None:
            self._timer.cancel()
        self._timer = threading.Timer(self.idle_seconds, self._idle_close)
        self._timer.daemon = True
        self._timer.start()

    def _idle_close(self) -> None:
        with self._lock:
            _close(self._box)

    def prefetch(self, dots) -> threading.Thread:
        """Lay out `dots` (an iterable, consumed lazily) in a background thread."""
        self._prefetch_stop.clear()

        def run():
            for dot in dots:
                if self._prefetch_stop.is_set():
                    return
                self.render(dot)

        thread = threading.Thread(target=run, name="hloscope-layout-prefetch", daemon=True)
        thread.start()
        return thread

    def stop_prefetch(self) -> None:
        self._prefetch_stop.set()

    def close(self) -> None:
        """Stop prefetching and end the layout process (the cache is kept)."""
        self.stop_prefetch()
        if self._timer is not None:
            self._timer.cancel()
        with self._lock:
            _close(self._box)

    @property
    def worker_alive(self) -> bool:
        worker = self._box[0]
        return worker is not None and worker.alive
