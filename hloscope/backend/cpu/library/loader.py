"""Compiling and loading the library: each part once per process, before the first program
that calls it.

    kernels     the reductions and the depthwise convolution (source.py)
    rows-f32    the row interpreter for f32 (rows.py), and its op functions
    rows-f64    the same for f64

A part's modules are optimized and compiled in the LLVM workers like any program, for this
host at -O3, several at once where the part has several (the interpreter's op functions are
spread over as many modules as there are workers), then linked into this process; each
symbol's address is registered with `llvm.add_symbol`, so every later program's object
finds it by name, as it finds the thread pool and BLAS. A program's compile does no work
for it after that. A part is loaded when a program's IR names one of its symbols
(`ensure_for`), or ahead of time by the notebook's warm-up.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Callable

import llvmlite.binding as llvm

from .. import jit
from ...llvm_worker import default_workers, parts_for, run_on
from ..llvm_target import llvm_target, target_options
from ..options import CpuOptions
from . import rows, source


@dataclass(frozen=True)
class Part:
    modules: Callable[[int], list[str]]  # the part's module texts, for this many workers
    symbols: tuple[str, ...]
    needs: tuple[str, ...] = ()  # parts whose symbols its modules call


PARTS = {
    "kernels": Part(lambda workers: [str(source.library_module())], tuple(source.symbols())),
    **{f"rows-{t}": Part((lambda t: lambda workers: rows.row_modules(t, workers))(t), (rows.interpreter_name(t),),
                         needs=("kernels",))
       for t in rows.TYPES},
}

_LOCK = threading.RLock()  # two threads' first programs must not both load a part
_NATIVE: dict[str, jit.NativeCode] = {}  # keeps each part's machine code for the life of the process
build_seconds: dict[str, float] = {}  # what loading each part took, once it is loaded


def ensure_loaded(name: str = "kernels") -> None:
    """Compile and link part `name` (and what it needs) if this process has not yet (thread-safe)."""
    with _LOCK:
        if name in _NATIVE:
            return
        part = PARTS[name]
        for needed in part.needs:
            ensure_loaded(needed)
        start = time.perf_counter()
        jit.initialize()
        host = CpuOptions()
        texts = part.modules(parts_for(0))
        workers = default_workers(len(texts))
        target = llvm_target(host)
        handles = run_on(workers, [lambda w=w, t=t: w.optimize(t, target)[0] for w, t in zip(workers, texts)])
        objects = run_on(workers, [lambda w=w, h=h: w.object(h) for w, h in zip(workers, handles)])
        native = jit.NativeCode(objects, part.symbols[0], target_options(host))
        for symbol in part.symbols:
            llvm.add_symbol(symbol, native.engine.get_function_address(symbol))
        _NATIVE[name] = native
        build_seconds[name] = time.perf_counter() - start


def ensure_for(ir_text: str) -> None:
    """Load every part whose symbols `ir_text` (a program's LLVM IR) calls."""
    for name, part in PARTS.items():
        if name not in _NATIVE and any(f'@"{symbol}"(' in ir_text or f"@{symbol}(" in ir_text
                                       for symbol in part.symbols):
            ensure_loaded(name)


def loaded(name: str = "kernels") -> bool:
    return name in _NATIVE
