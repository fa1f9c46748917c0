"""BLAS for `dot`: scipy's sgemm/dgemm, handed to the JIT as plain symbols.

XLA's CPU backend calls Eigen's matrix multiply (`__xla_cpu_runtime_EigenMatMulF32`) for
big dots. hloscope calls the BLAS that scipy ships: scipy.linalg.cython_blas exports a
C function pointer for every BLAS routine in `__pyx_capi__` (PyCapsules). We read the
address out of each capsule, register it with LLVM under our own name
(`hloscope_sgemm`, `hloscope_dgemm`), and the generated IR declares and calls it.

The routines use the Fortran calling convention: every argument by pointer, int32 sizes
(scipy's LP64 BLAS), column-major matrices. A row-major C = A B is the column-major
C^T = B^T A^T, so the generated call passes B first (see dot_kernel.py).

A partition of a parallel dot already runs on one of hloscope's threads, so its gemm must
not start BLAS threads of its own: the generated code calls a per-thread thread control
(`hloscope_blas_threads_local`, an `int f(int)` that sets this thread's BLAS threads and
returns the previous setting). It is looked up by name in the BLAS scipy itself is linked
against, by asking the dynamic loader for the name through cython_blas's own handle (the
search covers the module and the libraries it depends on, on Linux and macOS), so it is
the same library whose gemm we call, whatever the library file is called, and never
numpy's own copy of OpenBLAS. A BLAS without such a function (Apple Accelerate, reference
BLAS) gets a stand-in that does nothing; `info()` says which one was found.
"""

from __future__ import annotations

import ctypes
import importlib
from dataclasses import dataclass
from functools import lru_cache
from types import ModuleType

import llvmlite.binding as llvm
from llvmlite import ir

SYMBOLS = {"f32": ("sgemm", "hloscope_sgemm"), "f64": ("dgemm", "hloscope_dgemm")}
THREADS_SYMBOL = "hloscope_blas_threads_local"

# Per-thread thread controls with the same contract (int -> previous int, and the previous
# value restores it), by the name each BLAS exports. Most of scipy-openblas's symbols are
# `scipy_`-prefixed; this one is not (0.3.30), which the second name covers if that changes.
THREAD_CONTROLS = ("openblas_set_num_threads_local", "scipy_openblas_set_num_threads_local",
                   "mkl_set_num_threads_local")


@dataclass(frozen=True)
class BlasInfo:
    """Which BLAS `dot="blas"` calls and how its threads are held to one per partition."""

    library: str  # from scipy's build configuration, e.g. "scipy-openblas 0.3.30"; "" if no scipy BLAS
    thread_control: str  # the symbol found (THREAD_CONTROLS), or "" for the no-op stand-in

    def describe(self) -> str:
        """One line for a report or a bug report."""
        if not self.library:
            return ("no BLAS: scipy.linalg.cython_blas could not be loaded, so dot='blas' "
                    "lowers every dot to loops (kernels of kind dot-loops)")
        if not self.thread_control:
            return (f"BLAS: {self.library} through scipy.linalg.cython_blas; thread control: none found "
                    f"(none of {', '.join(THREAD_CONTROLS)}), so a no-op stand-in is called and the "
                    "partitions of a parallel dot use whatever threads the BLAS starts itself")
        return (f"BLAS: {self.library} through scipy.linalg.cython_blas; thread control: "
                f"{self.thread_control} (one BLAS thread per partition of a parallel dot)")


def _capsule_address(capsule) -> int:
    name_of = ctypes.pythonapi.PyCapsule_GetName
    name_of.restype, name_of.argtypes = ctypes.c_char_p, [ctypes.py_object]
    pointer_of = ctypes.pythonapi.PyCapsule_GetPointer
    pointer_of.restype, pointer_of.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    return pointer_of(capsule, name_of(capsule))


@lru_cache(maxsize=1)
def gemm_addresses() -> dict[str, int]:
    """{our symbol name: address} for sgemm and dgemm; empty if scipy's BLAS is missing."""
    try:
        cython_blas = _cython_blas()
        return {ours: _capsule_address(cython_blas.__pyx_capi__[theirs]) for theirs, ours in SYMBOLS.values()}
    except (ImportError, KeyError, AttributeError):
        return {}


def register_symbols() -> bool:
    """Make the gemm symbols resolvable by the JIT (once per process). False without scipy."""
    addresses = gemm_addresses()
    for name, address in addresses.items():
        llvm.add_symbol(name, address)
    llvm.add_symbol(THREADS_SYMBOL, threads_local_address())
    return bool(addresses)


def blas_handle() -> ctypes.CDLL | None:
    """scipy's cython_blas opened by path (the loader hands back the handle it already has;
    lookups through it search the BLAS it links against); None without scipy."""
    try:
        return ctypes.CDLL(_cython_blas().__file__)
    except (ImportError, OSError, AttributeError):
        return None


def _cython_blas() -> ModuleType:
    """scipy.linalg.cython_blas (imported by name: a compiled module scipy ships no types for)."""
    return importlib.import_module("scipy.linalg.cython_blas")


def find_thread_control(handle: ctypes.CDLL | None, names: tuple[str, ...] = THREAD_CONTROLS) -> tuple[str, int]:
    """(name, address) of the first of `names` reachable through `handle`, or ("", address
    of the no-op stand-in) when there is none."""
    for name in names if handle is not None else ():
        fn = getattr(handle, name, None)  # None: dlsym did not find it
        address = ctypes.cast(fn, ctypes.c_void_p).value if fn is not None else None
        if address is not None:
            return name, address
    return "", no_threads_address()


@lru_cache(maxsize=1)
def _thread_control() -> tuple[str, int]:
    return find_thread_control(blas_handle())


def threads_local_address() -> int:
    """The address the JIT's `hloscope_blas_threads_local` resolves to."""
    return _thread_control()[1]


def no_threads_address() -> int:
    """The stand-in: `int f(int)` that changes nothing and returns 1."""
    return _no_threads_engine().get_function_address(NO_THREADS_SYMBOL)


NO_THREADS_SYMBOL = "hloscope_blas_no_threads"


@lru_cache(maxsize=1)
def _no_threads_engine() -> llvm.ExecutionEngine:
    """The stand-in as native code (kept loaded for the process): partitions call it from
    threads that do not hold the GIL, so a Python callback would serialize them."""
    m = ir.Module(name="hloscope_blas_stand_in")
    fn = ir.Function(m, ir.FunctionType(ir.IntType(32), [ir.IntType(32)]), NO_THREADS_SYMBOL)
    ir.IRBuilder(fn.append_basic_block("entry")).ret(ir.Constant(ir.IntType(32), 1))
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    tm = llvm.Target.from_default_triple().create_target_machine(jit=True)
    engine = llvm.create_mcjit_compiler(llvm.parse_assembly(str(m)), tm)
    engine.finalize_object()
    return engine


def library_name() -> str:
    """scipy's BLAS as its build configuration names it ("scipy-openblas 0.3.30",
    "accelerate", ...); "" when scipy's BLAS cannot be loaded."""
    if not gemm_addresses():
        return ""
    try:
        import scipy

        config = scipy.show_config(mode="dicts")
        assert config is not None, "show_config returns None only when it prints (mode='stdout')"
        blas = config["Build Dependencies"]["blas"]
        return " ".join(str(blas[k]) for k in ("name", "version") if blas.get(k) not in (None, "", "unknown"))
    except (TypeError, KeyError, AttributeError):  # scipy < 1.11 has no mode="dicts"
        return "scipy's BLAS (unnamed: this scipy does not report its build configuration)"


@lru_cache(maxsize=1)
def info() -> BlasInfo:
    """The BLAS this process's dots call and the thread control found in it."""
    return BlasInfo(library_name(), _thread_control()[0])


def available(dtype: str) -> bool:
    return dtype in SYMBOLS and SYMBOLS[dtype][1] in gemm_addresses()
