"""Loading the CPU backend in the background when `%load_ext hloscope` runs.

LLVM's native target, the BLAS symbols and the thread pool take ~0.7 s once per process,
the kernel library (backend/cpu/fast/library/) ~0.1 s more and its f32 row interpreter ~0.5 s
(the f64 one is compiled when a program first needs it), and the LLVM workers (child
processes: backend/llvm_worker.py) take a moment to start;
started when the extension loads, they are usually ready before the first %%hlo cell
needs them. The backend's own initialization is thread-safe, so a compile that starts
meanwhile simply waits for it.
"""

from __future__ import annotations

import threading

from ..backend.cpu import jit
from ..backend.cpu.fast.library import loader as library_loader
from ..backend.cpu.llvm_target import llvm_target
from ..backend.cpu.options import CpuOptions
from ..backend.llvm_worker import llvm_workers, parts_for, warm_up_workers
from ..compiler import targets

_thread: threading.Thread | None = None


def start() -> None:
    """Import the backends now (~0.1 s: done in the first cell instead, it would compete with
    the warm-up thread for the import lock), then start the rest in the background."""
    global _thread
    targets()
    if _thread is None:
        _thread = threading.Thread(target=_initialize, name="hloscope-backend-warm-up", daemon=True)
        _thread.start()


def _initialize() -> None:
    try:
        jit.initialize()
        target = llvm_target(CpuOptions())
        with llvm_workers(parts_for(0)) as workers:
            warm_up_workers(list(dict.fromkeys(workers)), target)
        library_loader.ensure_loaded("kernels")
        library_loader.ensure_loaded("rows-f32")
    except Exception:  # noqa: BLE001 - the first real compile reports any problem, with its context
        pass


def wait(timeout: float | None = None) -> None:
    """Block until the warm-up started by `start()` is done (benchmarks time what follows it)."""
    if _thread is not None:
        _thread.join(timeout)
