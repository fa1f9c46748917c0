"""Loading the CPU backend in the background when `%load_ext hloscope` runs.

LLVM's native target, the BLAS symbols and the thread pool take ~0.7 s once per process,
and the LLVM worker (a child process: backend/llvm_worker.py) takes a moment to start;
started when the extension loads, they are usually ready before the first %%hlo cell
needs them. The backend's own initialization is thread-safe, so a compile that starts
meanwhile simply waits for it.
"""

from __future__ import annotations

import threading

from ..backend.cpu import jit
from ..backend.cpu.llvm_target import llvm_target
from ..backend.cpu.options import CpuOptions
from ..backend.llvm_worker import default_workers, in_parallel, parts_for
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


# A loop LLVM vectorizes: its first -O3 run and code generation in a fresh child cost ~0.2 s
# more than later ones (LLVM's code paged in, its pass pipeline built), paid here instead.
WARM_UP_IR = """
define void @warm_up(ptr noalias %out, ptr noalias %in, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %p = getelementptr inbounds float, ptr %in, i64 %i
  %x = load float, ptr %p
  %y = fmul float %x, 2.0
  %q = getelementptr inbounds float, ptr %out, i64 %i
  store float %y, ptr %q
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
"""


def _initialize() -> None:
    try:
        jit.initialize()
        target = llvm_target(CpuOptions())
        workers = default_workers(parts_for(0))
        for w in workers:
            w.start()
        if not any(w.runs_here for w in workers):
            in_parallel([lambda w=w: w.object(w.optimize(WARM_UP_IR, target)[0]) for w in workers])
    except Exception:  # noqa: BLE001 - the first real compile reports any problem, with its context
        pass


def wait(timeout: float | None = None) -> None:
    """Block until the warm-up started by `start()` is done (benchmarks time what follows it)."""
    if _thread is not None:
        _thread.join(timeout)
