"""The one pool of worker processes (runtime/worker_pool.py), with stand-in workers: leases
are exclusive, a lease can span steps, foreground first, close interrupts, and both the LLVM
and the layout workers come from it."""

from __future__ import annotations

import gc
import threading
import time

from hloscope.backend import llvm_worker
from hloscope.runtime.worker_pool import WorkerPool
from hloscope.viz import layout


class Child:
    started = 0

    def __init__(self):
        Child.started += 1
        self.alive, self.closed, self.killed = True, False, False

    def close(self):
        self.alive, self.closed = False, True

    def kill(self):
        self.alive, self.killed = False, True


def test_a_lease_is_exclusive_and_its_worker_stays_warm_after():
    pool = WorkerPool(Child, limit=1, idle_seconds=None)
    first = pool.lease()
    worker = first.worker
    got = []
    waiter = threading.Thread(target=lambda: got.append(pool.lease()))
    waiter.start()
    time.sleep(0.05)
    assert not got  # the only worker is lent
    first.release()
    waiter.join(1)
    assert got and got[0].worker is worker  # the same warm child, not a new one
    got[0].release()


def test_lease_many_takes_what_is_free_and_waits_only_for_none():
    pool = WorkerPool(Child, limit=3, idle_seconds=None)
    held = pool.lease()
    many = pool.lease_many(5)
    assert len(many) == 2  # three in all: one held, two free
    assert len({id(l.worker) for l in many} | {id(held.worker)}) == 3
    for lease in (held, *many):
        lease.release()
    assert pool.alive == 3


def test_a_dropped_lease_goes_back():
    pool = WorkerPool(Child, limit=1, idle_seconds=None)
    lease = pool.lease()
    lease.worker
    del lease
    gc.collect()
    again = pool.lease()  # would wait forever if the dropped lease were still out
    assert again is not None
    again.release()


def test_foreground_goes_before_background():
    pool = WorkerPool(Child, limit=1, idle_seconds=None)
    held = pool.lease()
    order = []
    bg = threading.Thread(target=lambda: (order.append("background"), pool.lease(background=True).release()))
    fg = threading.Thread(target=lambda: (pool.lease().release(), order.append("foreground")))
    bg.start()
    time.sleep(0.05)
    fg.start()
    time.sleep(0.05)
    held.release()
    fg.join(1), bg.join(1)
    assert order == ["background", "foreground"]  # asked first, served second
    assert not fg.is_alive() and not bg.is_alive()


def test_close_kills_lent_workers_and_interrupts_their_leases():
    pool = WorkerPool(Child, limit=2, idle_seconds=None)
    idle, lent = pool.lease_many(2)
    idle_worker, lent_worker = idle.worker, lent.worker
    idle.release()
    pool.close()
    assert idle_worker.closed and lent_worker.killed and lent.interrupted
    lent.release()
    assert pool.alive == 0


def test_idle_workers_close_after_idle_seconds():
    pool = WorkerPool(Child, limit=1, idle_seconds=0.05)
    with pool.lease() as lease:
        worker = lease.worker
    time.sleep(0.3)
    assert worker.closed and pool.alive == 0


def test_llvm_and_layout_workers_come_from_the_one_pool():
    assert isinstance(llvm_worker.POOL, WorkerPool)
    assert isinstance(layout.LayoutService()._workers, WorkerPool)
    with llvm_worker.llvm_workers(1) as [worker]:
        assert worker in llvm_worker.POOL.workers
