"""How many CPUs hloscope may use in this process: what `threads=0` (the kernels' threads)
and `llvm_parts=0` (LLVM's workers) stand for.

    usable_cpus()      the CPUs this process may run on (its affinity mask where the OS has
                       one, Linux; else every CPU: macOS has no affinity masks), at most the
                       share set below
    share_cpus(n)      use at most n of them: for a process that shares the machine with
                       others of its kind (a test worker beside others, one of several
                       notebook kernels), so that together they do not ask for more threads
                       than there are CPUs. None lifts the limit.
"""

from __future__ import annotations

import os

_share: int | None = None


def usable_cpus() -> int:
    affinity = getattr(os, "sched_getaffinity", None)
    cpus = len(affinity(0)) if affinity is not None else (os.cpu_count() or 1)
    return min(cpus, _share) if _share is not None else cpus


def share_cpus(count: int | None) -> None:
    global _share
    if count is not None and count < 1:
        raise ValueError(f"share_cpus: at least 1 CPU, not {count}")
    _share = count
