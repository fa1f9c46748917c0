"""`CpuExecutable`: native code compiled for this machine, called like a function.

    exe = hloscope.compile(module)          # backend="cpu"
    y = exe(x, w)                           # numpy in, fresh numpy out (a tuple for tuple results)
    exe.report                              # how it was compiled (hloscope.compilation.Compilation)
    exe.save_aot("out/")                    # object file + C header (see aot.py)
    exe.profile(x, w)                       # [(kernel, ms per run)], measured natively (profiling.py)

A call checks the arguments (runtime/arguments.py), allocates the outputs (numpy arrays,
16-byte aligned as malloc makes them and as the generated code assumes; large ones from
recycled blocks, runtime/output_pool.py), and makes one native call of the entry function
with a table of buffer pointers and a scratch arena. The arena is kept per thread, so one
executable can be called from several threads at once; ctypes releases the GIL during the
call. The machine code lives as long as the executable (or a copy sharing it) does.
"""

from __future__ import annotations

import ctypes
import threading
from pathlib import Path
from typing import Any

import numpy as np

from ...compilation.executable import Executable
from ...compilation.record import Compilation
from ...ir.module import HloModule
from ...runtime.arguments import check_arguments
from ...runtime.donation import donatable, fits
from ...runtime.output_pool import OutputPool
from ...runtime.signature import ArraySpec, Signature
from .aot import save_aot
from .jit import NativeCode
from .profiling import KernelTime, ProfiledProgram

_ALIGN = 64  # arena alignment
OUTPUT_ALIGN = 16  # result alignment (what malloc guarantees)
_ENTRY_TYPE = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p)


def aligned_empty(nbytes: int) -> np.ndarray:
    """Uninitialized bytes whose address is a multiple of 64."""
    raw = np.empty(nbytes + _ALIGN, np.uint8)
    start = -raw.ctypes.data % _ALIGN
    return raw[start : start + nbytes]


def _interface_address(a: np.ndarray) -> int:
    return a.__array_interface__["data"][0]


def _find_data_offset() -> int | None:
    """The byte offset of an ndarray's data pointer in its C struct (16 on CPython: right
    after the object header), verified on a probe array; None if it does not check out."""
    probe = np.arange(3, dtype=np.float32)
    try:
        if ctypes.c_void_p.from_address(id(probe) + 16).value == _interface_address(probe):
            return 16
    except (ValueError, OSError):
        pass
    return None


_DATA_OFFSET = _find_data_offset()


def _fast_address(a: np.ndarray) -> int:
    """The data pointer read straight from the array object (5x faster than the interface)."""
    return ctypes.c_void_p.from_address(id(a) + 16).value or 0


_address = _fast_address if _DATA_OFFSET == 16 else _interface_address


def _output(spec: ArraySpec, pool: OutputPool | None = None) -> np.ndarray:
    """A fresh result array. numpy's allocator (malloc) aligns to 16 bytes, which is what the
    generated code assumes for results; anything less gets an over-aligned buffer. Large
    results come from the executable's pool of recycled blocks (output_pool.py)."""
    if pool is not None:
        return pool.empty(spec.dims, spec.dtype, spec.nbytes, aligned_empty)
    out = np.empty(spec.dims, spec.dtype)
    if _address(out) % OUTPUT_ALIGN:
        out = aligned_empty(spec.nbytes).view(spec.dtype).reshape(spec.dims)
    return out


class CpuExecutable(Executable):
    """A compiled HLO module for this CPU. Call it with numpy arrays."""

    def __init__(self, native: NativeCode, signature: Signature, arena_bytes: int, report: Compilation,
                 module: HloModule | None = None, options: dict[str, Any] | None = None):
        self.native = native  # keeps the machine code alive
        self.signature = signature
        self.arena_bytes = arena_bytes
        self.report = report
        self.module = module  # the input module, for explore
        self.options = dict(options or {})
        self._entry = _ENTRY_TYPE(native.address)
        self._local = threading.local()
        self._pool = OutputPool()
        self._table = ctypes.c_void_p * (len(signature.params) + len(signature.results))
        self._single = signature.nesting is None
        self._donations: dict[int, int] | None = None  # result -> parameter, found on first use
        self._profiled: ProfiledProgram | None = None  # the instrumented variant, built on first profile
        self._profiled_lock = threading.Lock()

    def __call__(self, *args: Any) -> Any:
        arrays = check_arguments(self.signature, args)
        outputs = [_output(spec, self._pool) for spec in self.signature.results]
        self._run(arrays, outputs)
        return outputs[0] if self._single else self.signature.pack(outputs)

    def call_donating(self, *args: Any) -> Any:
        """Like a call, honouring the module's `input_output_alias` where it is safe
        (runtime/donation.py): such a result is written into its parameter's array, which is
        returned as that result (XLA's donation: the argument's old value is gone)."""
        if self._donations is None:
            module = self.report.module if self.report is not None else None
            self._donations = donatable(module) if module is not None else {}
        if not self._donations:
            return self(*args)
        arrays = check_arguments(self.signature, args)
        outputs = []
        for i, spec in enumerate(self.signature.results):
            p = self._donations.get(i)
            donate = p is not None and arrays[p] is args[p] and fits(arrays, p, spec)
            outputs.append(arrays[p] if donate and p is not None else _output(spec, self._pool))
        self._run(arrays, outputs)
        return self.signature.pack(outputs)

    def _run(self, arrays: list, outputs: list) -> None:
        """The entry on these argument and result arrays, with this thread's arena."""
        table = self._table(*map(_address, arrays), *map(_address, outputs))
        try:
            arena = self._local.arena
        except AttributeError:
            arena = self._new_arena()
        self._entry(table, arena)

    def profile(self, *args: Any, repeat: int = 20) -> list[tuple[str, float]]:
        """[(kernel, milliseconds per run)] for each kernel of the record a call runs, in
        schedule order (as the GPU executable's), measured inside the native code of an
        instrumented variant (profiling.py): the median of `repeat` runs after one to warm up."""
        return [(k.kernel, k.ms) for k in self.kernel_times(*args, repeat=repeat)]

    def kernel_times(self, *args: Any, repeat: int = 20) -> list[KernelTime]:
        """Like `profile`, with each kernel's instruction (and the call it shares, if any)."""
        return self.profiled_program().run(args, repeat)[0]

    def profiled_program(self) -> ProfiledProgram:
        """The instrumented variant (compiled on first use, then kept; the normal code and the
        compile caches are untouched)."""
        with self._profiled_lock:
            if self._profiled is None:
                self._profiled = ProfiledProgram(self)
            return self._profiled

    def with_report(self, report: Compilation) -> CpuExecutable:
        return CpuExecutable(self.native, self.signature, self.arena_bytes, report, self.module, self.options)

    def _new_arena(self) -> int:
        """This thread's arena (kept: threads never share one, calls on a thread reuse it)."""
        buffer = aligned_empty(max(self.arena_bytes, _ALIGN))
        self._local.buffer = buffer
        self._local.arena = _address(buffer)
        return self._local.arena

    def save_aot(self, directory: str | Path, name: str | None = None) -> tuple[Path, Path]:
        """Write `<name>.o` and `<name>.h` (see hloscope.backend.cpu.aot); returns their paths."""
        return save_aot(self, directory, name)
