"""From LLVM IR text to callable machine code, with llvmlite (LLVM's new pass manager).

    optimize   parse, verify, and run LLVM's standard -O0..-O3 pipeline for the target
               machine (loop and SLP vectorizers included from -O2), as XLA's IrCompiler does
    codegen    object code for the target (ELF on Linux, Mach-O on macOS); assembly on
               request (a second codegen run)
    load       an MCJIT engine that links the object into this process; symbols such as
               pthread_create or the BLAS registered by blas.py resolve at load time

The same object bytes are what the disk cache stores, so a cached program loads exactly as
a freshly compiled one does.

Hosts: 64-bit POSIX (Linux, macOS; see docs/hosts.md). Names are given unmangled
everywhere: the module's data layout tells LLVM to add macOS's leading underscore, MCJIT
mangles the names it is asked for the same way, and it strips the underscore again when it
looks a symbol up in the process (where llvm.add_symbol put ours). `initialize` refuses
other hosts with a clear error rather than let LLVM abort on a missing pthread symbol.
"""

from __future__ import annotations

import ctypes
import os
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterator

import llvmlite.binding as llvm
from llvmlite import ir

from ...errors import NotSupportedError
from ..llvm_child import drop_unused_vector_forms
from . import blas
from .half_floats import SYMBOLS as HALF_SYMBOLS
from .half_floats import half_module
from .fast.thread_pool import INIT_SYMBOL, SYMBOL, PoolModule


@dataclass(frozen=True)
class TargetOptions:
    """Which machine to generate code for, and how hard LLVM optimizes."""

    opt_level: int = 3
    cpu: str = ""  # "" = this host (llvm.get_host_cpu_name())
    features: str = ""  # "" with cpu "" = this host's features; else e.g. "+avx2,+fma"
    unroll: bool = False  # LLVM's loop unrolling

    def resolved(self) -> tuple[str, str]:
        if self.cpu:
            return self.cpu, self.features
        return host_cpu()


# LLVM tunes Intel's AVX-512 server cores to prefer 256-bit vectors (`prefer-256-bit`), as
# XLA:CPU does (`xla_cpu_prefer_vector_width=256`): Skylake-era cores clocked down running
# 512-bit code. From Ice Lake server on the cost is small, and on an Emerald Rapids host
# (cpu_bench shapes, interleaved) 512-bit vectors ran gelu in 1.92-1.97 ms instead of
# 2.70-2.74, exp-sin 7.7-8.0 instead of 8.3-9.3 and softmax faster in 3 runs of 4, with the
# memory-bound kernels and the compile time unchanged. So on these cores the loop vectorizer
# may use the full width.
FULL_WIDTH_CPUS = frozenset({"icelake-server", "sapphirerapids", "emeraldrapids", "graniterapids",
                             "graniterapids-d", "diamondrapids"})


_STAND_IN: list[tuple[str, str]] = []  # the CPUs this process compiles for in place of the host's, innermost last


def host_cpu() -> tuple[str, str]:
    """The LLVM CPU name and features that a compile naming no CPU is for: this host's
    (real_host_cpu), or the one `standing_in_for_host` names."""
    return _STAND_IN[-1] if _STAND_IN else real_host_cpu()


@lru_cache(maxsize=1)
def real_host_cpu() -> tuple[str, str]:
    """This host's LLVM CPU name and features (with 512-bit vectors preferred where that
    pays, FULL_WIDTH_CPUS)."""
    llvm.initialize_native_target()
    name, features = llvm.get_host_cpu_name(), llvm.get_host_cpu_features().flatten()
    if name in FULL_WIDTH_CPUS and "+avx512f" in features.split(","):
        features += ",-prefer-256-bit"
    return name, features


@contextmanager
def standing_in_for_host(cpu: str, features: str = "") -> Iterator[None]:
    """Within the block, whatever would be compiled for this host (programs that name no CPU,
    and the library they call) is compiled for `cpu` instead, as if hloscope ran on such a
    machine. This host must be able to run that code. The test suite runs its numerically
    sensitive tests so: as a machine without AVX, an AVX2 laptop and an AVX-512 server would."""
    _STAND_IN.append((cpu, features))
    try:
        yield
    finally:
        _STAND_IN.pop()


_INIT_LOCK = threading.Lock()  # two threads' first compiles must not both load a pool
_INITIALIZED = False
_POOL_ENGINE = None  # keeps the pool's machine code loaded for the life of the process


def initialize() -> None:
    """Once per process: check the host, then LLVM's native target, the BLAS symbols, the
    thread pool and the f16 conversions (half_floats.py). Thread-safe; a failure is raised and the next call tries again."""
    global _INITIALIZED, _POOL_ENGINE
    with _INIT_LOCK:
        if _INITIALIZED:
            return
        check_host()
        llvm.initialize_native_target()
        llvm.initialize_native_asmprinter()
        blas.register_symbols()
        _POOL_ENGINE = load_thread_pool(PoolModule())
        llvm.add_symbol(SYMBOL, _POOL_ENGINE.get_function_address(SYMBOL))
        _RUNTIME_ENGINES.append(_register(half_module(), HALF_SYMBOLS))
        _INITIALIZED = True


_RUNTIME_ENGINES: list[llvm.ExecutionEngine] = []  # runtime functions other code calls, kept loaded


def _engine(module: ir.Module) -> llvm.ExecutionEngine:
    """`module` compiled for this host and linked into the process."""
    mod = llvm.parse_assembly(str(module))
    mod.verify()
    cpu, features = real_host_cpu()
    tm = llvm.Target.from_default_triple().create_target_machine(cpu=cpu, features=features, opt=2, jit=True)
    mod.triple, mod.data_layout = tm.triple, str(tm.target_data)
    engine = llvm.create_mcjit_compiler(mod, tm)
    engine.finalize_object()
    return engine


def _register(module: ir.Module, symbols: tuple[str, ...]) -> llvm.ExecutionEngine:
    """Link `module` and register its `symbols`, so that every later program finds them."""
    engine = _engine(module)
    for symbol in symbols:
        llvm.add_symbol(symbol, engine.get_function_address(symbol))
    return engine


def check_host(os_name: str = os.name, pointer_bytes: int = ctypes.sizeof(ctypes.c_void_p)) -> None:
    """Raise NotSupportedError on a host the CPU backend's generated code cannot run on
    (the defaults describe this process)."""
    if os_name != "posix":
        raise NotSupportedError(f"the CPU backend runs only on POSIX hosts (Linux, macOS): its thread pool and "
                                f"parallel kernels call pthreads; this is {os_name!r} (on Windows, use WSL)")
    if pointer_bytes != 8:
        raise NotSupportedError("the CPU backend needs a 64-bit Python: its code keeps pointers, sizes and "
                                f"pthread_t in 8 bytes; this Python's pointers are {pointer_bytes} bytes")


def load_thread_pool(pool: PoolModule) -> llvm.ExecutionEngine:
    """Compile a thread pool module and run its init function (exactly once: initializing a
    mutex twice is undefined). The caller keeps the engine alive for the life of the process,
    since the pool's threads, once started, never stop."""
    engine = _engine(pool.m)  # for the real host: the pool serves the whole process
    rc = ctypes.CFUNCTYPE(ctypes.c_int)(engine.get_function_address(INIT_SYMBOL))()
    if rc != 0:
        raise RuntimeError(f"the thread pool's pthread_mutex_init/pthread_cond_init failed: {os.strerror(rc)} ({rc})")
    return engine


def target_machine(options: TargetOptions, for_jit: bool = True, pic: bool = False) -> llvm.TargetMachine:
    """A fresh TargetMachine (an MCJIT engine takes ownership of the one it is given)."""
    initialize()
    cpu, features = options.resolved()
    target = llvm.Target.from_default_triple()
    if for_jit:
        return target.create_target_machine(cpu=cpu, features=features, opt=min(options.opt_level, 3), jit=True)
    return target.create_target_machine(cpu=cpu, features=features, opt=min(options.opt_level, 3),
                                        reloc="pic" if pic else "default", codemodel="default")


def optimize(ir_text: str, options: TargetOptions, for_jit: bool = True) -> llvm.ModuleRef:
    """Parse and verify `ir_text`, then run the -O<opt_level> pipeline on it."""
    initialize()
    mod = llvm.parse_assembly(ir_text)
    mod.verify()
    tm = target_machine(options, for_jit, pic=not for_jit)
    mod.triple = tm.triple
    mod.data_layout = str(tm.target_data)
    pto = llvm.create_pipeline_tuning_options(speed_level=options.opt_level)
    pto.loop_vectorization = options.opt_level >= 2
    pto.slp_vectorization = options.opt_level >= 2
    # Vectorize and interleave (several accumulators for reductions) but do not unroll:
    # unrolling doubles code size and compile time for no measurable gain on these loops.
    pto.loop_interleaving = options.opt_level >= 2
    pto.loop_unrolling = options.unroll
    pb = llvm.create_pass_builder(tm, pto)
    pb.getModulePassManager().run(mod, pb)
    drop_unused_vector_forms(llvm, mod, pb)
    mod.verify()
    return mod


def object_code(mod: llvm.ModuleRef, options: TargetOptions, for_jit: bool = True) -> bytes:
    return target_machine(options, for_jit, pic=not for_jit).emit_object(mod)


def assembly(optimized_ir: str, options: TargetOptions) -> str:
    """The target assembly of already optimized IR (codegen only, no IR passes)."""
    initialize()
    mod = llvm.parse_assembly(optimized_ir)
    return target_machine(options, for_jit=True).emit_assembly(mod)


class NativeCode:
    """Object code linked into this process; keeps the engine (and so the code) alive.
    Several object files (a module compiled in parts) are linked together: the entry in
    one calls kernels the others define."""

    def __init__(self, objects: bytes | list[bytes], entry_name: str, options: TargetOptions):
        initialize()
        self.objects = [objects] if isinstance(objects, bytes) else list(objects)
        self.entry_name = entry_name
        self.engine = llvm.create_mcjit_compiler(llvm.parse_assembly(""), target_machine(options))
        for obj in self.objects:
            self.engine.add_object_file(llvm.ObjectFileRef.from_data(obj))
        self.engine.finalize_object()
        self.address = self.engine.get_function_address(entry_name)
        if not self.address:
            raise RuntimeError(f"entry point {entry_name} not found in the compiled object")
