"""Compiling and loading the library: each part once per process, before the first program
that calls it, and once per machine where a cache directory can be written.

    kernels     the reductions, the depthwise and the im2col convolutions (source.py, conv.py)
    rows-f32    the row interpreter for f32 (rows.py), and its op functions
    rows-f64    the same for f64

A part's modules are optimized and compiled in the LLVM workers like any program, for this
host at -O3, several at once where the part has several (the interpreter's op functions are
spread over as many modules as there are workers), then linked into this process; each
symbol's address is registered with `llvm.add_symbol`, so every later program's object
finds it by name, as it finds the thread pool and BLAS. A program's compile does no work
for it after that. A part is loaded when a program's IR names one of its symbols
(`ensure_for`), or ahead of time by the notebook's warm-up.

A part is built for the CPU that programs naming no CPU are compiled for (jit.host_cpu: this
host, or the one `jit.standing_in_for_host` names), and kept per CPU: the symbols registered
are those of the CPU in use, so a program always calls a library built for its own CPU.

Building the parts costs LLVM about a second of work; their objects are kept in
`cache_directory` (the user's cache folder: $XDG_CACHE_HOME/hloscope, else ~/.cache/hloscope,
or ~/Library/Caches/hloscope on macOS), as disk_cache.py keeps programs, under a key made of
the backend's sources (which write the IR), the LLVM and the host's CPU and features: a later
process on this machine links them in milliseconds, and anything that would change the code
changes the key. A
damaged entry is rebuilt; where the folder cannot be written, every process builds its own.
"""

from __future__ import annotations

import hashlib
import os
import sys
import threading
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable

import llvmlite
import llvmlite.binding as llvm

from ... import blas, disk_cache, jit
from ....llvm_worker import llvm_workers, parts_for, run_on
from ...llvm_target import llvm_target, target_options
from ...options import CpuOptions
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


def _user_cache() -> Path | None:
    try:
        home = Path.home()
    except RuntimeError:  # no home directory (some service accounts): no cache
        return None
    base = os.environ.get("XDG_CACHE_HOME") or str(home / ("Library/Caches" if sys.platform == "darwin" else ".cache"))
    return Path(base) / "hloscope" / "library"


cache_directory: Path | None = _user_cache()  # None: build every part in every process

_LOCK = threading.RLock()  # two threads' first programs must not both load a part
# Each part's machine code per CPU, kept for the life of the process (programs call into it).
_NATIVE: dict[tuple[str, tuple[str, str]], jit.NativeCode] = {}
_REGISTERED: dict[str, tuple[str, str]] = {}  # the CPU whose copy of each part the symbols name
build_seconds: dict[str, float] = {}  # what loading each part took, once it is loaded
from_cache: dict[str, bool] = {}  # whether it came from cache_directory


def ensure_loaded(name: str = "kernels") -> None:
    """Compile and link part `name` (and what it needs) for the CPU in use, if this process
    has not yet, and make its symbols name that copy (thread-safe)."""
    with _LOCK:
        cpu = jit.host_cpu()
        if _REGISTERED.get(name) == cpu:
            return
        part = PARTS[name]
        for needed in part.needs:
            ensure_loaded(needed)
        native = _NATIVE.get((name, cpu)) or _load(name, part)
        _NATIVE[(name, cpu)] = native
        for symbol in part.symbols:
            llvm.add_symbol(symbol, native.engine.get_function_address(symbol))
        _REGISTERED[name] = cpu


def _load(name: str, part: Part) -> jit.NativeCode:
    """Part `name` for the CPU in use: from the disk cache, else built (and kept there)."""
    start = time.perf_counter()
    jit.initialize()
    host = CpuOptions()
    target = llvm_target(host)
    workers = parts_for(0)
    key = _key(name, workers, target)
    objects = _cached(key)
    from_cache[name] = objects is not None
    if objects is None:
        objects = _build(part.modules(workers), target)
        _keep(key, objects)
    native = jit.NativeCode(objects, part.symbols[0], target_options(host))
    build_seconds[name] = time.perf_counter() - start
    return native


def _build(texts: list[str], target: dict) -> list[bytes]:
    with llvm_workers(len(texts)) as workers:
        handles = run_on(workers, [lambda w=w, t=t: w.optimize(t, target)[0] for w, t in zip(workers, texts)])
        return run_on(workers, [lambda w=w, h=h: w.object(h) for w, h in zip(workers, handles)])


def _key(name: str, workers: int, target: dict) -> str:
    """The part, the code that writes its IR, the LLVM that compiles it, the machine and the
    BLAS its convolution calls (which gemm, and its integer width)."""
    h = hashlib.sha256()
    for piece in (name, str(workers), llvmlite.__version__, str(llvm.llvm_version_info), llvm.get_default_triple(),
                  repr(sorted(target.items())), repr(blas.info()), _backend_digest()):
        h.update(piece.encode())
        h.update(b"\0")
    return f"library-{name}-{h.hexdigest()[:32]}"


@lru_cache(maxsize=1)
def _backend_digest() -> str:
    """A digest of hloscope's backend sources, which write the library's IR: hashing them is
    a few ms, where writing the IR to hash it would be ~50 ms per part."""
    h = hashlib.sha256()
    backend = next(p for p in Path(__file__).resolve().parents if p.name == "backend")
    for path in sorted(backend.rglob("*.py")):
        h.update(str(path.relative_to(backend)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def _cached(key: str) -> list[bytes] | None:
    if cache_directory is None:
        return None
    found = disk_cache.get(cache_directory, key)
    return found[0] if found is not None else None


def _keep(key: str, objects: list[bytes]) -> None:
    if cache_directory is None:
        return
    try:
        disk_cache.write_entry(cache_directory, key, objects, {"kind": "library part"})
    except OSError:
        pass  # a read-only or full disk: the next process builds it again


def ensure_for(ir_text: str) -> None:
    """Load every part whose symbols `ir_text` (a program's LLVM IR) calls."""
    for name, part in PARTS.items():
        if not loaded(name) and any(f'@"{symbol}"(' in ir_text or f"@{symbol}(" in ir_text
                                       for symbol in part.symbols):
            ensure_loaded(name)


def loaded(name: str = "kernels") -> bool:
    """Whether part `name` is loaded for the CPU in use, and its symbols name that copy."""
    return _REGISTERED.get(name) == jit.host_cpu()
