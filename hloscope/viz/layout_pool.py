"""The worker processes of a LayoutService: a few warm LayoutWorkers, lent one layout at a time.

    slot = pool.acquire(background=False)     # wait for a turn to run one layout
    pool.worker(slot).render(dot, timeout)    # a warm worker, or one started now
    pool.release(slot)                        # back to the idle ones (or closed, if dead)

At most `limit` processes run. A foreground request (a click, an export) is served before
any background one (a prefetch) waiting at the same time, so it waits for at most the layouts
in progress. Idle workers are closed `idle_seconds` after the last layout; `close()` ends
them all at once, killing those lent (their layouts end as "interrupted").
"""

from __future__ import annotations

import threading

from .render import LayoutWorker


class LayoutTurn:
    """A turn to run one layout: the warm worker it came with (or None) and the pool's generation."""

    def __init__(self, worker: LayoutWorker | None, generation: int):
        self.worker, self.generation = worker, generation


class WorkerPool:
    """Up to `limit` warm LayoutWorkers, lent one layout at a time; foreground requests are
    served before background ones. It holds no reference to its service, so the service can
    be collected (and its finalizer close this) while an idle timer is pending."""

    def __init__(self, limit: int, idle_seconds: float):
        self.limit, self.idle_seconds = max(1, limit), idle_seconds
        self.generation = 0  # bumped by close(): layouts lent before it were interrupted
        self._cond = threading.Condition()
        self._idle: list[LayoutWorker] = []
        self._live: set[LayoutWorker] = set()  # started and not yet closed, idle or lent
        self._lent = 0
        self._foreground_waiting = 0
        self._timer: threading.Timer | None = None

    def acquire(self, background: bool, cancelled: threading.Event | None = None) -> LayoutTurn | None:
        """A slot (waiting for one if all are lent), or None once `cancelled` is set."""
        with self._cond:
            if not background:
                self._foreground_waiting += 1
            try:
                while self._lent >= self.limit or (background and self._foreground_waiting):
                    if cancelled is not None and cancelled.is_set():
                        return None
                    self._cond.wait()
                if cancelled is not None and cancelled.is_set():
                    return None
                self._lent += 1
                return LayoutTurn(self._idle.pop() if self._idle else None, self.generation)
            finally:
                if not background:
                    self._foreground_waiting -= 1

    def worker(self, slot: LayoutTurn) -> LayoutWorker:
        """The slot's worker, started now if it has none or its process died."""
        if slot.worker is None or not slot.worker.alive:
            dead, slot.worker = slot.worker, None
            self._forget(dead)
            slot.worker = LayoutWorker()  # may raise WorkerError: the slot then has no worker
            with self._cond:
                self._live.add(slot.worker)
        return slot.worker

    def interrupted(self, slot: LayoutTurn) -> bool:
        """Whether close() ran since the slot was lent (its worker may have been killed)."""
        return slot.generation != self.generation

    def release(self, slot: LayoutTurn) -> None:
        """Take the slot back; its worker stays warm unless it died or close() ran meanwhile."""
        worker = slot.worker
        with self._cond:
            self._lent -= 1
            kept = worker if worker is not None and worker.alive and not self.interrupted(slot) else None
            if kept is not None:
                self._idle.append(kept)
            if self._lent == 0:
                self._restart_timer()
            self._cond.notify_all()
        if kept is None:
            self._forget(worker)

    def _forget(self, worker: LayoutWorker | None) -> None:
        if worker is not None:
            with self._cond:
                self._live.discard(worker)
            worker.close()

    def _restart_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = threading.Timer(self.idle_seconds, self._close_idle)
        self._timer.daemon = True
        self._timer.start()

    def _close_idle(self) -> None:
        with self._cond:
            if self._lent:  # in use: the last release starts a new timer
                return
            idle, self._idle = self._idle, []
            self._live.difference_update(idle)
        for worker in idle:
            worker.close()

    def wake(self) -> None:
        """Let waiting acquirers look at their `cancelled` event again."""
        with self._cond:
            self._cond.notify_all()

    def close(self) -> None:
        """End every process: idle ones now, lent ones are killed (their layout ends with
        an "interrupted" result) and reaped when they come back."""
        with self._cond:
            self.generation += 1
            idle, self._idle = self._idle, []
            self._live.difference_update(idle)
            lent = list(self._live)
            if self._timer is not None:
                self._timer.cancel()
            self._cond.notify_all()
        for worker in idle:
            worker.close()
        for worker in lent:
            worker.kill()

    @property
    def alive(self) -> int:
        with self._cond:
            return sum(w.alive for w in self._live)
