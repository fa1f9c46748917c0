"""LLVM's optimizer and code generator in a child process, seen from the compiler.

    with llvm_workers(1) as [worker]:                           # lent by the process's pool
        handle, optimized_ir = worker.optimize(ir_text, target)   # target: llvm_child's dict
        obj = worker.object(handle)                                 # or worker.assembly(handle)

Why a child (llvm_child.py says more): llvmlite leaks ~120 KB per optimization run that only
the end of the process gives back, and an LLVM abort would end the Jupyter kernel. So:

- the child starts on first use (or early, from `start()`: the notebook's warm-up does it)
  and is replaced after `recycle_after` optimizations, which bounds what it can leak;
- a child that dies mid-request (a crash, an abort) becomes an LlvmError naming the
  request and the last lines LLVM wrote, and the next request starts a fresh child;
- a request that runs past `timeout` seconds kills the child, with an LlvmError saying so;
- where no child can be started, the same functions run in this process (`in_process`).

The workers are lent by the process's one pool of worker processes (runtime/worker_pool.py,
which lends graphviz's layout workers too): a lease is exclusive and spans what belongs
together (an optimization and the code generation of its handle, two stages apart). A module
split into parts (llvm_split.py) leases several workers at once (`lease_workers`,
`in_parallel`): each child is a process of its own, so the parts use as many cores.
"""

from __future__ import annotations

import atexit
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
import os
import pickle
import select
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import llvmlite
import llvmlite.binding as llvm

from ..errors import HloscopeError
from ..runtime.worker_pool import Lease, WorkerPool
from . import llvm_child
from .cpus import usable_cpus

RECYCLE_AFTER = 200  # optimizations per child: at most ~25 MB leaked before it is replaced
TIMEOUT = 600.0  # seconds for one request (LLVM on a 20k-instruction module takes ~30 s)
CHILD = Path(llvm_child.__file__)


class LlvmError(HloscopeError):
    """LLVM failed or stopped while optimizing or generating code."""


class LlvmWorker:
    """One child process running llvm_child.py (see the module docstring)."""

    def __init__(self, recycle_after: int = RECYCLE_AFTER, timeout: float = TIMEOUT, in_process: bool = False):
        self.recycle_after, self.timeout, self.in_process = recycle_after, timeout, in_process
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None
        self._stderr: Any = None
        self._local: llvm_child.Child | None = None
        self._served = 0  # optimizations by the current child
        self._pending: set[int] = set()  # optimized modules not emitted yet (they live in the child)
        self.children = 0  # children started, over the worker's life

    # ---- requests ----
    def optimize(self, ir_text: str, target: dict[str, Any]) -> tuple[int, str]:
        """(a handle for the optimized module, its IR text)."""
        with self._lock:
            if self._served >= self.recycle_after and not self._pending:
                self._stop()
            answer = self._ask({"op": "optimize", "ir": ir_text, "target": target}, "optimizing")
            self._served += 1
            self._pending.add(answer["handle"])
            return answer["handle"], answer["text"]

    def object(self, handle: int) -> bytes:
        """The object file of an optimized module (the handle is used up)."""
        return self._emit("object", handle)["data"]

    def assembly(self, handle: int) -> str:
        """The assembly (PTX for NVPTX) of an optimized module (the handle is used up)."""
        return self._emit("assembly", handle)["text"]

    def assemble(self, optimized_ir: str, target: dict[str, Any]) -> str:
        """The assembly of IR that was optimized already (code generation only)."""
        with self._lock:
            return self._ask({"op": "assemble", "ir": optimized_ir, "target": target}, "generating the assembly")["text"]

    def _emit(self, op: str, handle: int) -> dict[str, Any]:
        with self._lock:
            self._pending.discard(handle)
            return self._ask({"op": op, "handle": handle}, f"generating the {op}")

    def start(self) -> None:
        """Start the child now (it is ready by the time the first compile needs it)."""
        with self._lock:
            self._ensure()

    def close(self) -> None:
        with self._lock:
            self._stop()

    @property
    def alive(self) -> bool:
        """Always: a worker replaces a child that died by itself (the pool's Worker protocol)."""
        return True

    def kill(self) -> None:
        """Stop the child now, from any thread: its request ends as an LlvmError."""
        proc = self._proc
        if proc is not None and proc.poll() is None:
            proc.kill()

    # ---- the child ----
    def _ask(self, request: dict[str, Any], doing: str) -> dict[str, Any]:
        self._ensure()
        if self._local is not None:
            answer = self._answer_here(request)
        else:
            answer = self._answer_there(request, doing)
        if "error" in answer:
            raise LlvmError(f"LLVM failed while {doing}: {answer['error']}: {answer['message']}")
        return answer

    def _answer_here(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self._local is not None
        try:
            return self._local.answer(request)
        except Exception as e:  # noqa: BLE001 - the same answer the child would give
            return {"error": type(e).__name__, "message": str(e)}

    def _answer_there(self, request: dict[str, Any], doing: str) -> dict[str, Any]:
        proc = self._proc
        assert proc is not None and proc.stdin is not None and proc.stdout is not None
        try:
            llvm_child.write_message(proc.stdin, request)
            answer = _read(proc.stdout, time.monotonic() + self.timeout)
        except (OSError, EOFError, TimeoutError) as e:
            why = self._stopped_child(e)
            raise LlvmError(f"LLVM stopped while {doing}: {why}") from None
        return answer

    def _stopped_child(self, error: BaseException) -> str:
        """Why the child stopped answering, with the last lines it wrote; it is gone after."""
        proc = self._proc
        timed_out = isinstance(error, TimeoutError)
        if proc is not None and timed_out:
            proc.kill()
        code = proc.wait() if proc is not None else None
        tail = self._stderr_tail()
        self._stop()
        if timed_out:
            return f"no answer after {self.timeout:.0f} s, so the process was stopped{tail}"
        return f"the LLVM process ended (exit status {code}){tail}"

    def _stderr_tail(self) -> str:
        if self._stderr is None:
            return ""
        self._stderr.seek(0)
        lines = self._stderr.read().decode("utf-8", "replace").strip().splitlines()[-6:]
        return (": " + " | ".join(lines)) if lines else ""

    @property
    def runs_here(self) -> bool:
        """True when LLVM runs in this process (asked to, or no child could start): then
        it must not run on two threads at once."""
        return self.in_process or self._local is not None

    def _alive(self) -> bool:
        return self._local is not None or (self._proc is not None and self._proc.poll() is None)

    def _ensure(self) -> None:
        if self._alive():
            return
        self._stop()
        if self.in_process:
            self._local = _in_process_child()
            return
        self._stderr = tempfile.TemporaryFile()
        root = str(Path(llvmlite.__file__).resolve().parent.parent)
        try:
            self._proc = subprocess.Popen([sys.executable, "-S", str(CHILD), root], stdin=subprocess.PIPE,
                                          stdout=subprocess.PIPE, stderr=self._stderr)
        except OSError:  # no child can be started here: the same work in this process
            self._local = _in_process_child()
        self.children += 1

    def _stop(self) -> None:
        proc, self._proc, self._local, self._served = self._proc, None, None, 0
        self._pending.clear()
        if proc is not None:
            for stream in (proc.stdin, proc.stdout):
                if stream is not None:
                    stream.close()  # the child sees the end of its input and exits
            try:
                proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None


def _read(stream: Any, deadline: float) -> dict[str, Any]:
    """One answer: 8 bytes of length, then the pickled dict; TimeoutError past the deadline."""
    head = _read_exactly(stream, 8, deadline)
    return pickle.loads(_read_exactly(stream, int.from_bytes(head, "little"), deadline))


def _read_exactly(stream: Any, n: int, deadline: float) -> bytes:
    fd = stream.fileno()
    parts, left = [], n
    while left:
        wait = deadline - time.monotonic()
        if wait <= 0 or not select.select([fd], [], [], wait)[0]:
            raise TimeoutError
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            raise EOFError
        parts.append(chunk)
        left -= len(chunk)
    return b"".join(parts)


def _in_process_child() -> llvm_child.Child:
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    return llvm_child.Child(llvm)


MAX_PARTS = 4


def parts_for(requested: int) -> int:
    """How many parts to compile a large module in: `requested`, or 0 for one per usable
    core up to MAX_PARTS."""
    return requested if requested > 0 else max(1, min(MAX_PARTS, usable_cpus()))


# One child per usable core, started on first use, kept warm (a fresh child's first run costs
# ~0.2 s more), closed at exit.
POOL: WorkerPool[LlvmWorker] = WorkerPool(LlvmWorker, limit=parts_for(0), idle_seconds=None)
atexit.register(POOL.close)


def lease_workers(parts: int) -> list[Lease[LlvmWorker]]:
    """Between one and `parts` leases (as many workers as are free); part k goes to lease
    k % len(leases). Give each back with `release()`."""
    return POOL.lease_many(parts)


@contextmanager
def llvm_workers(parts: int = 1) -> Iterator[list[LlvmWorker]]:
    """`parts` workers for one piece of work (a worker repeats where fewer are free)."""
    leases = lease_workers(parts)
    try:
        yield [leases[k % len(leases)].worker for k in range(parts)]
    finally:
        for lease in leases:
            lease.release()


# A loop LLVM vectorizes: the first -O3 run and code generation in a fresh child cost ~0.2 s
# more than later ones (LLVM's code paged in, its pass pipeline built).
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


def warm_up_workers(workers: list[LlvmWorker], target: dict[str, Any]) -> None:
    """Start the workers and take each through one optimization and code generation for
    `target`, so what is timed or awaited next does not pay their first run."""
    run_on(workers, [lambda w=w: w.object(w.optimize(WARM_UP_IR, target)[0]) for w in workers])


def run_on(workers: list[LlvmWorker], calls: list) -> list:
    """The calls (one per worker) at once, or one after another where LLVM runs in this
    process (it must not run on two threads); the workers are started first."""
    for w in workers:
        w.start()
    if any(w.runs_here for w in workers):
        return [call() for call in calls]
    return in_parallel(calls)


class Background:
    """A call running on a daemon thread (a child that hangs must not hold up the end of the
    process); `result()` waits for it and returns its value or raises its error."""

    def __init__(self, call):
        self._value: Any = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(call,), name="hloscope-llvm-background", daemon=True)
        self._thread.start()

    def _run(self, call) -> None:
        try:
            self._value = call()
        except BaseException as e:  # noqa: BLE001 - handed to whoever asks for the result
            self._error = e

    def result(self) -> Any:
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._value


def in_parallel(calls: list) -> list:
    """Run the zero-argument `calls` at once (one thread each; the work happens in the
    children, so the threads only wait on pipes) and return their results in order; the
    first failure is raised after all have finished."""
    if len(calls) == 1:
        return [calls[0]()]
    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        futures = [pool.submit(call) for call in calls]
        return [f.result() for f in futures]
