"""Run the GPU kernels on the CPU, one OS thread per GPU thread, to test them without a GPU.

The GPU lowering emits every GPU-only construct through a thread model. `EmulatedThreads`
replaces NVPTX's with native code that needs no GPU:

    %tid.x, %ctaid.y, ...     a load from this OS thread's register block (pthread_getspecific)
    __syncthreads()           pthread_barrier_wait on the block's barrier
    shfl.sync.bfly            store the word in a per-thread slot, barrier, load the partner's
                              slot, barrier (valid because every thread of a block reaches each
                              shuffle of hloscope's kernels together, as a full warp must)
    shared memory             a plain global (blocks run one after another)

The kernels are then compiled for this CPU with LLVM and launched by `EmulatedDevice`,
which has the CUDA device's interface (alloc, upload, load, launch, ...), so the real
GpuExecutable runs on it: the arena layout, the copies and the schedule are the ones a GPU
would see. A kernel with barriers runs its block's threads concurrently, one block after
another; one without runs every (block, thread) in turn on one OS thread.
"""

from __future__ import annotations

import ctypes
import threading

import llvmlite.binding as llvm
import numpy as np
from llvmlite import ir

from hloscope.backend.cpu import jit
from hloscope.backend.gpu.executable import GpuExecutable
from hloscope.backend.gpu.options import GpuOptions
from hloscope.backend.gpu.target import GpuBuild, kernels, rows
from hloscope.backend.llvm_types import I32, I64, PTR
from hloscope.backend.preparation import codegen_preparation
from hloscope.compilation.front import front, source_stage
from hloscope.compilation.stages import Stage, run_stages
from hloscope.compiler import new_compilation
from hloscope.runtime.signature import Signature

REGISTERS = [f"{r}.{a}" for r in ("tid", "ctaid", "ntid", "nctaid") for a in "xyz"]
MAX_THREADS = 1024
JOIN_TIMEOUT = 120.0

_libc = ctypes.CDLL(None, use_errno=True)
_libc.pthread_setspecific.argtypes = [ctypes.c_uint, ctypes.c_void_p]
_libc.pthread_barrier_init.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint]
_libc.pthread_barrier_destroy.argtypes = [ctypes.c_void_p]
_libc.pthread_barrier_wait.argtypes = [ctypes.c_void_p]


class _Native:
    """Process-wide native state: the TLS key, the block barrier, the shuffle slots."""

    def __init__(self):
        key = ctypes.c_uint()
        assert _libc.pthread_key_create(ctypes.byref(key), None) == 0
        self.key = key.value
        self.barrier = ctypes.create_string_buffer(256)  # a pthread_barrier_t (32 bytes on glibc)
        self.slots = (ctypes.c_int32 * MAX_THREADS)()
        self.count = 0

    def reset_barrier(self, threads: int) -> None:
        if self.count:
            _libc.pthread_barrier_destroy(self.barrier)
        assert _libc.pthread_barrier_init(self.barrier, None, threads) == 0
        self.count = threads


NATIVE = _Native()


def _address(value: int) -> ir.Constant:
    return ir.Constant(I64, value).inttoptr(PTR)


class EmulatedThreads:
    """The thread model of the emulator: native code in place of GPU intrinsics."""

    name = "emulated"
    triple = None  # the host's

    @staticmethod
    def _fn(b: ir.IRBuilder, name: str, ret, args):
        return b.module.globals.get(name) or ir.Function(b.module, ir.FunctionType(ret, args), name)

    def sreg(self, b, register: str):
        block = b.call(self._fn(b, "pthread_getspecific", PTR, [I32]), [I32(NATIVE.key)])
        return b.load(b.gep(block, [I64(REGISTERS.index(register))], source_etype=I32), typ=I32)

    def barrier(self, b) -> None:
        b.call(self._fn(b, "pthread_barrier_wait", I32, [PTR]), [_address(ctypes.addressof(NATIVE.barrier))])

    def shuffle_xor(self, b, word, lane_mask: int):
        tid = self.sreg(b, "tid.x")
        linear = b.add(tid, b.mul(self.sreg(b, "tid.y"), self.sreg(b, "ntid.x")))
        slots = _address(ctypes.addressof(NATIVE.slots))
        b.store(word, b.gep(slots, [linear], source_etype=I32))
        self.barrier(b)
        value = b.load(b.gep(slots, [b.xor(linear, I32(lane_mask))], source_etype=I32), typ=I32)
        self.barrier(b)
        return value

    def shared_array(self, llmod, ty, count: int, name: str):
        g = ir.GlobalVariable(llmod, ir.ArrayType(ty, count), name=name)
        g.linkage = "internal"
        g.initializer = ir.Constant(ir.ArrayType(ty, count), None)
        g.align = 16
        g.type = PTR
        return g

    def mark_kernel(self, llmod, fn) -> None:
        pass

    def launch_bound(self, llmod, fn, block) -> None:
        pass

    def global_pointer(self, b, ptr):
        return ptr


class EmulatedDevice:
    """The CUDA device's interface, on host memory and host threads."""

    name = "CPU emulation"

    def __init__(self):
        self._memory: dict[int, np.ndarray] = {}
        self._engines = []
        self.launches: list[tuple] = []  # (name, grid, block) of every launch, for tests

    def activate(self) -> None:
        pass

    def alloc(self, nbytes: int) -> int:
        raw = np.full(nbytes + 256, 0xCD, np.uint8)  # filled with garbage, like device memory
        address = raw.ctypes.data + (-raw.ctypes.data % 256)
        self._memory[address] = raw
        return address

    def free(self, pointer: int) -> None:
        self._memory.pop(pointer, None)

    def upload(self, pointer: int, array: np.ndarray) -> None:
        ctypes.memmove(pointer, array.ctypes.data, array.nbytes)

    def download(self, array: np.ndarray, pointer: int) -> None:
        ctypes.memmove(array.ctypes.data, pointer, array.nbytes)

    def copy(self, dst: int, src: int, nbytes: int) -> None:
        assert dst + nbytes <= src or src + nbytes <= dst, "a device copy between overlapping regions"
        ctypes.memmove(dst, src, nbytes)

    def load(self, ir_text: str):
        options = jit.TargetOptions(opt_level=2)
        engine = llvm.create_mcjit_compiler(jit.optimize(ir_text, options), jit.target_machine(options))
        engine.finalize_object()
        cooperative = {f.name for f in llvm.parse_assembly(ir_text).functions
                       if "pthread_barrier_wait" in str(f) and not f.is_declaration}
        self._engines.append(engine)
        return engine, cooperative

    def function(self, module, name: str):
        engine, cooperative = module
        address = engine.get_function_address(name)
        assert address, f"kernel {name} not found"
        return name, address, name in cooperative

    def launch(self, function, grid, block, shared_bytes: int, pointers: list[int]) -> None:
        name, address, cooperative = function
        self.launches.append((name, tuple(grid), tuple(block)))
        kernel = ctypes.CFUNCTYPE(None, *[ctypes.c_void_p] * len(pointers))(address)
        threads = block[0] * block[1] * block[2]
        assert threads <= MAX_THREADS
        blocks = [(x, y, z) for z in range(grid[2]) for y in range(grid[1]) for x in range(grid[0])]
        if not cooperative:
            _run_serial(kernel, pointers, grid, block, blocks)
            return
        NATIVE.reset_barrier(threads)
        errors: list[BaseException] = []
        workers = [threading.Thread(target=_worker, args=(kernel, pointers, t, grid, block, blocks, errors),
                                    daemon=True) for t in range(threads)]
        for w in workers:
            w.start()
        for w in workers:
            w.join(JOIN_TIMEOUT)
            if w.is_alive():
                raise RuntimeError(f"emulated launch of {name} hangs (a barrier not every thread reaches?)")
        if errors:
            raise RuntimeError(f"emulated launch of {name} failed: {errors[0]!r}")

    def synchronize(self) -> None:
        pass


def _registers(t: int, block, grid, b) -> list[int]:
    bx, by = block[0], block[1]
    return [t % bx, (t // bx) % by, t // (bx * by), *b, *block, *grid]


def _run_serial(kernel, pointers, grid, block, blocks) -> None:
    """Every (block, thread) in turn: right for kernels whose threads never wait for each other."""
    registers = (ctypes.c_int32 * 12)()
    _libc.pthread_setspecific(NATIVE.key, ctypes.addressof(registers))
    threads = block[0] * block[1] * block[2]
    for b in blocks:
        for t in range(threads):
            registers[:] = _registers(t, block, grid, b)
            kernel(*pointers)


def _worker(kernel, pointers, t: int, grid, block, blocks, errors) -> None:
    registers = (ctypes.c_int32 * 12)()
    _libc.pthread_setspecific(NATIVE.key, ctypes.addressof(registers))
    try:
        for b in blocks:
            registers[:] = _registers(t, block, grid, b)
            kernel(*pointers)
            _libc.pthread_barrier_wait(NATIVE.barrier)  # the block is done before the next starts
    except BaseException as e:
        errors.append(e)


def emulated_executable(module, pipeline="default", **options) -> GpuExecutable:
    """compile(module, backend="gpu") with the kernels built for the emulator instead of PTX:
    the GPU target's own lowering, on the emulator's thread model, and an executable whose
    device runs the (host) LLVM IR."""
    c = new_compilation(module, "gpu", pipeline, **options)
    lower = rows(GpuBuild(GpuOptions.of(c.options), threads=EmulatedThreads()))[0]

    def load(c) -> str:
        c.kernels = kernels(c, None)
        c.executable = GpuExecutable(c.device_program, c.llvm_ir, Signature.of(c.input_module), c.compiled_part(),
                                     c.input_module, c.options, device=EmulatedDevice())
        return "on the CPU emulator"

    run_stages(c, [source_stage(c), *front(codegen_preparation()), lower,
                   Stage("load", load, makes=("kernels", "executable"))])
    return c.executable
