"""The thread pool's waiting threads spin briefly before they sleep (thread_pool.py): jobs
that follow one another closely find the worker awake, and an idle pool costs no CPU."""

from __future__ import annotations

import ctypes
import os
import re
import threading
import time

import llvmlite.binding as llvm
import numpy as np
import pytest

from hloscope.backend.cpu import jit
from hloscope.backend.cpu.fast import thread_pool
from pool_probes import Context, add_probe_task

_KEEP_LOADED = []  # parked workers run pool code on a spurious wakeup: keep it loaded
needs_proc = pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="reads threads' counters from Linux's /proc")
needs_two_cpus = pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2 if hasattr(os, "sched_getaffinity") else False,
                                    reason="a spinning worker needs a CPU of its own")


def _function_body(text: str, name: str) -> str:
    start = text.index(f'@"{name}"(')
    return text[start: text.index("\n}", start)]


@pytest.mark.parametrize("arch, hint", [("x86_64", "llvm.x86.sse2.pause"), ("aarch64", "llvm.aarch64.hint"),
                                        ("riscv64", None)])
def test_waiting_threads_watch_the_counters_atomically_before_they_sleep(arch, hint):
    text = str(thread_pool.PoolModule(arch=arch).m)
    llvm.parse_assembly(text).verify()
    worker, run = _function_body(text, "pool.worker"), _function_body(text, thread_pool.SYMBOL)
    for body, counter, sleep in ((worker, "generation", '@"pool.work"'), (run, "remaining", '@"pool.done"')):
        watch = re.search(rf'load atomic i64, i64\* @"pool\.{counter}" monotonic', body)
        assert watch, f"no atomic watch of {counter}"
        assert watch.start() < body.index(f"pthread_cond_wait\"([64 x i8]* {sleep}"), f"{counter}: sleeps before it watches"
        assert "clock_gettime" in body  # the spin is bounded in time
    for counter in ("generation", "remaining"):  # every store a spinning thread may see is atomic
        assert not re.search(rf'store i64 [^,]+, i64\* @"pool\.{counter}"', text), counter
    hints = re.findall(r'call void @"(llvm\.[\w.]+)"', text)
    assert hints == ([hint] * 2 if hint else []), hints  # a pause in each spin (worker, caller), or none


def _probe_pool():
    """A pool of its own (own globals, own workers) with a task dst[i] = 3 src[i] + 1."""
    jit.initialize()
    pool = thread_pool.PoolModule()
    add_probe_task(pool)
    engine = jit.load_thread_pool(pool)
    _KEEP_LOADED.append(engine)
    return engine


def _jobs(engine, src, dst, jobs: int) -> int:
    """`jobs` two-partition jobs back to back, from one Python thread (a hang fails the test);
    that thread's id, so that it is not taken for the pool's worker."""
    half = len(src) // 2
    contexts = (Context * 2)(Context(src.ctypes.data, dst.ctypes.data, 0, half),
                             Context(src.ctypes.data, dst.ctypes.data, half, len(src)))
    run = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64)(
        engine.get_function_address(thread_pool.SYMBOL))
    task = engine.get_function_address("probe_task")

    def loop():
        for _ in range(jobs):
            run(task, ctypes.addressof(contexts), ctypes.sizeof(Context), 2)

    runner = threading.Thread(target=loop, daemon=True)
    runner.start()
    runner.join(timeout=60)
    assert not runner.is_alive(), "the pool's jobs did not finish"
    assert runner.native_id is not None
    return runner.native_id


def _thread_counters() -> dict[int, tuple[int, int]]:
    """Each thread of this process: (CPU clock ticks, voluntary context switches)."""
    counters = {}
    for tid in os.listdir("/proc/self/task"):
        try:
            stat = open(f"/proc/self/task/{tid}/stat").read().rsplit(")", 1)[1].split()
            status = open(f"/proc/self/task/{tid}/status").read()
        except FileNotFoundError:  # a thread that ended meanwhile
            continue
        switches = re.search(r"voluntary_ctxt_switches:\s+(\d+)", status)
        assert switches, f"no voluntary_ctxt_switches in /proc/self/task/{tid}/status"
        counters[int(tid)] = (int(stat[11]) + int(stat[12]), int(switches.group(1)))
    return counters


@needs_proc
@needs_two_cpus
def test_back_to_back_jobs_find_the_worker_awake_and_an_idle_pool_sleeps():
    engine = _probe_pool()
    src = np.random.default_rng(0).standard_normal(200_000)
    dst = np.zeros_like(src)
    before = _thread_counters()
    runner = _jobs(engine, src, dst, 1)  # starts the pool's one worker
    np.testing.assert_array_equal(dst, src * 3.0 + 1.0)
    worker = [tid for tid in _thread_counters() if tid not in before and tid not in (runner, threading.get_native_id())]
    assert len(worker) == 1, f"the pool should have started one worker: new threads {worker}"
    worker = worker[0]

    # Without the spin the worker sleeps on the condition variable after every job. Other
    # processes (the suite's other workers) may take the second CPU for a while, and then the
    # worker sleeps anyway: the best of three rounds counts.
    jobs, slept = 200, []
    for _ in range(3):
        slept_before = _thread_counters()[worker][1]
        _jobs(engine, src, dst, jobs)
        slept.append(_thread_counters()[worker][1] - slept_before)
        if slept[-1] < jobs // 2:
            break
    assert min(slept) < jobs // 2, f"the worker slept {slept} times in rounds of {jobs} back-to-back jobs"
    np.testing.assert_array_equal(dst, src * 3.0 + 1.0)

    time.sleep(0.05)  # far longer than the spin: the worker has parked
    ticks_before = _thread_counters()[worker][0]
    time.sleep(0.5)
    assert _thread_counters()[worker][0] - ticks_before <= 1, "an idle pool's worker kept using the CPU"
