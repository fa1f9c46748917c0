"""BLAS for `dot`: the sgemm/dgemm of numpy's or scipy's OpenBLAS, handed to the JIT as plain symbols.

XLA's CPU backend calls Eigen's matrix multiply (`__xla_cpu_runtime_EigenMatMulF32`) for
big dots. hloscope calls a BLAS that is already in the process, found in this order:

  numpy   numpy's wheels ship their own OpenBLAS (scipy-openblas64: 64-bit indices, symbols
          `scipy_sgemm_64_`, `scipy_dgemm_64_`). Looked up by name through the handle of
          numpy's core extension, so the dynamic loader searches exactly the libraries numpy
          links against. Preferred: it is the newer build of the two in current wheels, and
          single-threaded gemms of the benchmark's partition shapes ran 8-18% faster with it
          (benchmarks/cpu_bench.py, matmul and MLP rows).
  scipy   scipy.linalg.cython_blas exports a C function pointer for every BLAS routine in
          `__pyx_capi__` (PyCapsules), 32-bit indices. Used where numpy's BLAS is not
          OpenBLAS (Accelerate on a Mac, a source build).

Either way we register the address with LLVM under our own name (`hloscope_sgemm`,
`hloscope_dgemm`), and the generated IR declares and calls it. The routines use the Fortran
calling convention: every argument by pointer, sizes as 32- or 64-bit integers
(`index_bits()`), column-major matrices. A row-major C = A B is the column-major
C^T = B^T A^T, so the generated call passes B first (see dot_kernel.py).

A partition of a parallel dot already runs on one of hloscope's threads, so its gemm must
not start BLAS threads of its own: the generated code calls a per-thread thread control
(`hloscope_blas_threads_local`, an `int f(int)` that sets this thread's BLAS threads and
returns the previous setting). It is looked up by name through the same handle as the
gemm, so it belongs to the same library, whatever the library file is called. A BLAS
without such a function (Apple Accelerate, reference BLAS) gets a stand-in that does
nothing; `info()` says which library and which control were found.
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
# `scipy_`-prefixed; this one is not (0.3.30, 0.3.31), which the second name covers if that changes.
THREAD_CONTROLS = ("openblas_set_num_threads_local", "scipy_openblas_set_num_threads_local",
                   "mkl_set_num_threads_local")

# numpy's OpenBLAS builds: the symbol pattern ({routine} is sgemm or dgemm) and index bits.
NUMPY_GEMM_NAMES = (("scipy_{routine}_64_", 64), ("{routine}_64_", 64))


@dataclass(frozen=True)
class GemmLibrary:
    """One BLAS found in the process: where its gemms are and how it takes sizes."""

    source: str  # "numpy" or "scipy": whose copy of the library it is
    library: str  # from the owner's build configuration, e.g. "scipy-openblas 0.3.31"
    addresses: dict[str, int]  # our symbol name -> address
    index_bits: int  # 32 (LP64) or 64 (ILP64)
    handle: ctypes.CDLL | None  # lookups through it search the library (thread control)


@dataclass(frozen=True)
class BlasInfo:
    """Which BLAS `dot="blas"` calls and how its threads are held to one per partition."""

    library: str  # e.g. "scipy-openblas 0.3.31"; "" if no BLAS was found
    thread_control: str  # the symbol found (THREAD_CONTROLS), or "" for the no-op stand-in
    source: str = "scipy"  # whose copy: "numpy" or "scipy"
    index_bits: int = 32

    def describe(self) -> str:
        """One line for a report or a bug report."""
        if not self.library:
            return ("no BLAS: neither numpy's OpenBLAS nor scipy.linalg.cython_blas could be loaded, "
                    "so dot='blas' lowers every dot to loops (kernels of kind dot-loops)")
        where = (f"{self.library}, numpy's copy ({self.index_bits}-bit indices)" if self.source == "numpy"
                 else f"{self.library} through scipy.linalg.cython_blas")
        if not self.thread_control:
            return (f"BLAS: {where}; thread control: none found "
                    f"(none of {', '.join(THREAD_CONTROLS)}), so a no-op stand-in is called and the "
                    "partitions of a parallel dot use whatever threads the BLAS starts itself")
        return (f"BLAS: {where}; thread control: "
                f"{self.thread_control} (one BLAS thread per partition of a parallel dot)")


def _capsule_address(capsule) -> int:
    name_of = ctypes.pythonapi.PyCapsule_GetName
    name_of.restype, name_of.argtypes = ctypes.c_char_p, [ctypes.py_object]
    pointer_of = ctypes.pythonapi.PyCapsule_GetPointer
    pointer_of.restype, pointer_of.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    return pointer_of(capsule, name_of(capsule))


def _address(handle: ctypes.CDLL, name: str) -> int | None:
    fn = getattr(handle, name, None)  # None: dlsym did not find it
    return ctypes.cast(fn, ctypes.c_void_p).value if fn is not None else None


def numpy_gemm() -> GemmLibrary | None:
    """numpy's own OpenBLAS, or None where numpy's BLAS is not a scipy-openblas build."""
    try:
        core = importlib.import_module("numpy._core._multiarray_umath")
    except ImportError:  # numpy < 2
        core = importlib.import_module("numpy.core._multiarray_umath")
    try:
        handle = ctypes.CDLL(core.__file__)
    except (OSError, AttributeError):
        return None
    for pattern, bits in NUMPY_GEMM_NAMES:
        found = {ours: _address(handle, pattern.format(routine=theirs)) for theirs, ours in SYMBOLS.values()}
        if all(found.values()):
            return GemmLibrary("numpy", _configured_blas("numpy") or "numpy's OpenBLAS",
                               {k: v for k, v in found.items() if v}, bits, handle)
    return None


def scipy_gemm() -> GemmLibrary | None:
    """scipy's BLAS through cython_blas's function table, or None without scipy."""
    try:
        cython_blas = _cython_blas()
        addresses = {ours: _capsule_address(cython_blas.__pyx_capi__[theirs]) for theirs, ours in SYMBOLS.values()}
    except (ImportError, KeyError, AttributeError):
        return None
    try:
        handle = ctypes.CDLL(cython_blas.__file__)  # the loader hands back the handle it already has
    except (OSError, AttributeError):
        handle = None
    return GemmLibrary("scipy", _configured_blas("scipy") or "scipy's BLAS (unnamed: this scipy does not "
                       "report its build configuration)", addresses, 32, handle)


@lru_cache(maxsize=1)
def gemm_library() -> GemmLibrary | None:
    """The BLAS dots call (numpy's OpenBLAS, else scipy's); None when neither loads."""
    return numpy_gemm() or scipy_gemm()


def gemm_addresses() -> dict[str, int]:
    """{our symbol name: address} for sgemm and dgemm; empty without a BLAS."""
    found = gemm_library()
    return dict(found.addresses) if found else {}


def index_bits() -> int:
    """The width of the BLAS's integer arguments (sizes and leading dimensions)."""
    found = gemm_library()
    return found.index_bits if found else 32


def register_symbols() -> bool:
    """Make the gemm symbols resolvable by the JIT (once per process). False without a BLAS."""
    addresses = gemm_addresses()
    for name, address in addresses.items():
        llvm.add_symbol(name, address)
    llvm.add_symbol(THREADS_SYMBOL, threads_local_address())
    return bool(addresses)


def blas_handle() -> ctypes.CDLL | None:
    """A handle whose lookups search the BLAS the gemms come from; None without one."""
    found = gemm_library()
    return found.handle if found else None


def _cython_blas() -> ModuleType:
    """scipy.linalg.cython_blas (imported by name: a compiled module scipy ships no types for)."""
    return importlib.import_module("scipy.linalg.cython_blas")


def find_thread_control(handle: ctypes.CDLL | None, names: tuple[str, ...] = THREAD_CONTROLS) -> tuple[str, int]:
    """(name, address) of the first of `names` reachable through `handle`, or ("", address
    of the no-op stand-in) when there is none."""
    for name in names:
        address = _address(handle, name) if handle is not None else None
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


def _configured_blas(package: str) -> str:
    """The BLAS `package` (numpy or scipy) was built against, as its build configuration
    names it ("scipy-openblas 0.3.31", "accelerate", ...); "" when it does not say."""
    try:
        config = importlib.import_module(package).show_config(mode="dicts")
        assert config is not None, "show_config returns None only when it prints (mode='stdout')"
        blas = config["Build Dependencies"]["blas"]
        version = str(blas.get("version") or "")
        version = ".".join(version.split(".")[:3])  # "0.3.31.188.0": the release, not the build
        return " ".join(v for v in (str(blas.get("name") or ""), version) if v not in ("", "unknown"))
    except (ImportError, TypeError, KeyError, AttributeError):  # scipy < 1.11 has no mode="dicts"
        return ""


def library_name() -> str:
    """The BLAS the gemms come from, by name; "" when there is none."""
    found = gemm_library()
    return found.library if found else ""


@lru_cache(maxsize=1)
def info() -> BlasInfo:
    """The BLAS this process's dots call and the thread control found in it."""
    found = gemm_library()
    if found is None:
        return BlasInfo("", _thread_control()[0])
    return BlasInfo(found.library, _thread_control()[0], found.source, found.index_bits)


def available(dtype: str) -> bool:
    return dtype in SYMBOLS and SYMBOLS[dtype][1] in gemm_addresses()
