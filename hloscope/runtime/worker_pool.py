"""The one pool of worker processes: a few warm children, each lent to one user at a time.

Two kinds of work run in child processes: LLVM's optimizer and code generator
(backend/llvm_worker.py: a crash or a leak there must not reach the kernel) and graphviz's
layouts (viz/render.py). Both borrow their children from a `WorkerPool`:

    with pool.lease() as lease:               # wait for a turn (foreground first)
        lease.worker.render(dot, timeout)     # a warm child, or one started now
    leases = pool.lease_many(4)               # up to 4 at once (at least one), for work in parts

A lease is exclusive: what a child holds for its user (an optimized module waiting for its
code generation) stays the user's until the lease is given back, so a lease may span steps
(`release()` ends it; dropping it unreleased gives it back too). At most `limit` children
live. A foreground request (a click, a compile) is served before any background one (a
prefetch) waiting at the same time. Idle children are closed `idle_seconds` after the last
lease ends (never, with None); `close()` ends them all at once, killing those lent (their
users see `interrupted`).

A worker is anything with `alive`, `close()` and `kill()`; the pool starts one with `start()`.
"""

from __future__ import annotations

import threading
from typing import Callable, Generic, Protocol, TypeVar


class Worker(Protocol):
    @property
    def alive(self) -> bool: ...

    def close(self) -> None: ...

    def kill(self) -> None: ...


W = TypeVar("W", bound=Worker)


class Lease(Generic[W]):
    """One turn with one worker; its `worker` is started on first use (or again, if it died)."""

    def __init__(self, pool: WorkerPool[W], worker: W | None, generation: int):
        self._pool, self._worker, self.generation = pool, worker, generation
        self.released = False

    @property
    def worker(self) -> W:
        if self._worker is None or not self._worker.alive:
            dead, self._worker = self._worker, None
            self._pool._forget(dead)
            self._worker = self._pool._start_one()  # may raise: the lease then has no worker
        return self._worker

    @property
    def interrupted(self) -> bool:
        """Whether the pool was closed since the lease began (its worker may have been killed)."""
        return self.generation != self._pool.generation

    def release(self) -> None:
        if not self.released:
            self.released = True
            self._pool._take_back(self, self._worker)

    def __enter__(self) -> Lease[W]:
        return self

    def __exit__(self, *exc) -> None:
        self.release()

    def __del__(self) -> None:  # a lease dropped unreleased (a compile stopped halfway) goes back
        if not getattr(self, "released", True):
            self.release()


class WorkerPool(Generic[W]):
    """Up to `limit` warm workers made by `start`, lent one user at a time (see the module
    docstring). It holds no reference to its users, so they can be collected (and close it)
    while an idle timer is pending."""

    def __init__(self, start: Callable[[], W], limit: int, idle_seconds: float | None):
        self._start, self.limit, self.idle_seconds = start, max(1, limit), idle_seconds
        self.generation = 0  # bumped by close(): leases taken before it were interrupted
        self._cond = threading.Condition()
        self._idle: list[W] = []
        self._live: list[W] = []  # started and not yet closed, idle or lent (in order of start)
        self._lent = 0
        self._foreground_waiting = 0
        self._timer: threading.Timer | None = None

    def lease(self, background: bool = False, cancelled: threading.Event | None = None) -> Lease[W] | None:
        """A turn with a worker (waiting for one if all are lent), or None once `cancelled` is set."""
        taken = self._take(1, 1, background, cancelled)
        return taken[0] if taken else None

    def lease_many(self, wanted: int) -> list[Lease[W]]:
        """Between one and `wanted` leases at once (as many as are free, waiting only while
        none is): work in parts shares them out, so a busy pool slows it but never stops it."""
        return self._take(1, max(1, wanted), False, None)

    def _take(self, least: int, most: int, background: bool, cancelled: threading.Event | None) -> list[Lease[W]]:
        with self._cond:
            if not background:
                self._foreground_waiting += 1
            try:
                while self.limit - self._lent < least or (background and self._foreground_waiting):
                    if cancelled is not None and cancelled.is_set():
                        return []
                    self._cond.wait()
                if cancelled is not None and cancelled.is_set():
                    return []
                n = min(most, self.limit - self._lent)
                self._lent += n
                warm = [self._idle.pop(0) if self._idle else None for _ in range(n)]  # the longest warm first
                return [Lease(self, w, self.generation) for w in warm]
            finally:
                if not background:
                    self._foreground_waiting -= 1

    def _start_one(self) -> W:
        worker = self._start()
        with self._cond:
            self._live.append(worker)
        return worker

    def _take_back(self, lease: Lease[W], worker: W | None) -> None:
        with self._cond:
            self._lent -= 1
            kept = worker if worker is not None and worker.alive and not lease.interrupted else None
            if kept is not None:
                self._idle.append(kept)
                self._idle.sort(key=self._age)
            if self._lent == 0:
                self._restart_timer()
            self._cond.notify_all()
        if kept is None:
            self._forget(worker)

    def _age(self, worker: W) -> int:
        return self._live.index(worker) if worker in self._live else len(self._live)

    def _forget(self, worker: W | None) -> None:
        if worker is not None:
            with self._cond:
                if worker in self._live:
                    self._live.remove(worker)
            worker.close()

    def _restart_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        if self.idle_seconds is None:
            return
        self._timer = threading.Timer(self.idle_seconds, self._close_idle)
        self._timer.daemon = True
        self._timer.start()

    def _close_idle(self) -> None:
        with self._cond:
            if self._lent:  # in use: the last release starts a new timer
                return
            idle, self._idle = self._idle, []
            self._live = [w for w in self._live if w not in idle]
        for worker in idle:
            worker.close()

    def wake(self) -> None:
        """Let waiting users look at their `cancelled` event again."""
        with self._cond:
            self._cond.notify_all()

    def close(self) -> None:
        """End every child: idle ones now, lent ones are killed (their users see `interrupted`)
        and reaped when they come back."""
        with self._cond:
            self.generation += 1
            idle, self._idle = self._idle, []
            lent = [w for w in self._live if w not in idle]
            self._live = lent
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

    @property
    def workers(self) -> list[W]:
        """The children started and not yet closed, oldest first."""
        with self._cond:
            return list(self._live)
