"""A test task for thread pools built from thread_pool.PoolModule: dst[i] = 3 src[i] + 1 on
the partition's [begin, end), with the context struct its jobs pass."""

from __future__ import annotations

import ctypes

from llvmlite import ir

from hloscope.backend.cpu.fast import thread_pool
from hloscope.backend.llvm_types import F64, I32, I64, PTR
from hloscope.backend.loops import for_range

CONTEXT = ir.LiteralStructType([PTR, PTR, I64, I64])  # src, dst, begin, end


class Context(ctypes.Structure):
    _fields_ = [("src", ctypes.c_void_p), ("dst", ctypes.c_void_p), ("begin", ctypes.c_int64), ("end", ctypes.c_int64)]


def add_probe_task(pool: thread_pool.PoolModule) -> None:
    """`probe_task(ptr context)` in the pool's module."""
    task = ir.Function(pool.m, ir.FunctionType(PTR, [PTR]), "probe_task")
    b = ir.IRBuilder(task.append_basic_block("entry"))
    src, dst, begin, end = (b.load(b.gep(task.args[0], [I32(0), I32(k)], source_etype=CONTEXT), typ=t)
                            for k, t in enumerate(CONTEXT.elements))
    with for_range(b, begin, end, "i") as i:
        x = b.load(b.gep(src, [i], source_etype=F64), typ=F64)
        b.store(b.fadd(b.fmul(x, F64(3.0)), F64(1.0)), b.gep(dst, [i], source_etype=F64))
    b.ret(ir.Constant(PTR, None))
