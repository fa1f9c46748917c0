"""BLAS for `dot`: scipy's sgemm/dgemm, handed to the JIT as plain symbols.

XLA's CPU backend calls Eigen's matrix multiply (`__xla_cpu_runtime_EigenMatMulF32`) for
big dots. hloscope calls the BLAS that scipy ships: scipy.linalg.cython_blas exports a
C function pointer for every BLAS routine in `__pyx_capi__` (PyCapsules). We read the
address out of each capsule, register it with LLVM under our own name
(`hloscope_sgemm`, `hloscope_dgemm`), and the generated IR declares and calls it.

The routines use the Fortran calling convention: every argument by pointer, int32 sizes
(scipy's LP64 OpenBLAS), column-major matrices. A row-major C = A B is the column-major
C^T = B^T A^T, so the generated call passes B first (see dot_kernel.py).
"""

from __future__ import annotations

import ctypes
from functools import lru_cache

import llvmlite.binding as llvm

SYMBOLS = {"f32": ("sgemm", "hloscope_sgemm"), "f64": ("dgemm", "hloscope_dgemm")}
THREADS_SYMBOL = "hloscope_blas_threads_local"  # OpenBLAS's openblas_set_num_threads_local


def _capsule_address(capsule) -> int:
    name_of = ctypes.pythonapi.PyCapsule_GetName
    name_of.restype, name_of.argtypes = ctypes.c_char_p, [ctypes.py_object]
    pointer_of = ctypes.pythonapi.PyCapsule_GetPointer
    pointer_of.restype, pointer_of.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    return pointer_of(capsule, name_of(capsule))


@lru_cache(maxsize=1)
def gemm_addresses() -> dict[str, int]:
    """{our symbol name: address} for sgemm and dgemm; empty if scipy is missing."""
    try:
        from scipy.linalg import cython_blas
    except ImportError:
        return {}
    return {ours: _capsule_address(cython_blas.__pyx_capi__[theirs]) for theirs, ours in SYMBOLS.values()}


def register_symbols() -> bool:
    """Make the gemm symbols resolvable by the JIT (once per process). False without scipy."""
    addresses = gemm_addresses()
    for name, address in addresses.items():
        llvm.add_symbol(name, address)
    llvm.add_symbol(THREADS_SYMBOL, threads_local_address())
    return bool(addresses)


@lru_cache(maxsize=1)
def threads_local_address() -> int:
    """openblas_set_num_threads_local from scipy's OpenBLAS, or a stand-in that does nothing.

    A partition of a parallel dot already runs on one of hloscope's threads; its gemm must
    not start BLAS threads of its own.
    """
    try:
        import scipy.linalg.cython_blas  # noqa: F401  (loads scipy's OpenBLAS into the process)

        for path in _openblas_paths():
            fn = getattr(ctypes.CDLL(path), "openblas_set_num_threads_local", None)
            if fn is not None:
                return ctypes.cast(fn, ctypes.c_void_p).value
    except (ImportError, OSError):
        pass
    return ctypes.cast(_NO_THREADS, ctypes.c_void_p).value


_NO_THREADS = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_int)(lambda n: 1)


def _openblas_paths() -> list[str]:
    import glob
    import os

    import scipy

    libs = os.path.join(os.path.dirname(os.path.dirname(scipy.__file__)), "scipy.libs")
    return sorted(glob.glob(os.path.join(libs, "*openblas*.so*")))


def available(dtype: str) -> bool:
    return dtype in SYMBOLS and SYMBOLS[dtype][1] in gemm_addresses()
