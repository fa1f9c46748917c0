"""Compiling and loading the library: once per process, before the first program that calls it.

The library's module is optimized and compiled in the LLVM worker like any program, for this
host at -O3, then linked into this process; each kernel's address is registered with
`llvm.add_symbol`, so every later program's object finds it by name, as it finds the thread
pool and BLAS. A program's compile does no work for it after that.
"""

from __future__ import annotations

import threading
import time

import llvmlite.binding as llvm

from .. import jit
from ...llvm_worker import default_worker
from ..llvm_target import llvm_target, target_options
from ..options import CpuOptions
from .source import library_module, symbols

_LOCK = threading.Lock()  # two threads' first programs must not both load it
_NATIVE: jit.NativeCode | None = None  # keeps the library's machine code for the life of the process
build_seconds: float | None = None  # what loading it took, once it is loaded


def ensure_loaded() -> None:
    """Compile and link the library if this process has not yet (thread-safe)."""
    global _NATIVE, build_seconds
    with _LOCK:
        if _NATIVE is not None:
            return
        start = time.perf_counter()
        jit.initialize()
        host = CpuOptions()
        worker = default_worker()
        handle, _ = worker.optimize(str(library_module()), llvm_target(host))
        native = jit.NativeCode(worker.object(handle), symbols()[0], target_options(host))
        for name in symbols():
            llvm.add_symbol(name, native.engine.get_function_address(name))
        _NATIVE = native
        build_seconds = time.perf_counter() - start


def loaded() -> bool:
    return _NATIVE is not None
