"""Multi-core execution: a big kernel's outer loop split into partitions run on pthreads.

XLA:CPU's ParallelTaskAssigner gives each large enough kernel a number of partitions of
its outer dimensions (`outer_dimension_partitions`) and runs them on a thread pool. Here
the rule is simpler and printed in the report: a kernel touching at least
`min_elements` elements is split into min(threads, outer extent) partitions of its
partitionable loop, with boundaries rounded to whole vectors for flat loops.

At run time a JIT-compiled entry function hands the partitions to the process's thread pool
(thread_pool.py). An AOT object, which cannot count on that pool, starts partitions
1..n-1 with `pthread_create` (declared in the IR), runs partition 0 itself, runs inline any
partition whose thread could not be started, and joins. Either way each partition gets a
small context struct {buffer pointers..., begin, end}, read by a per-kernel trampoline.

The AOT path's pthread assumptions hold on every supported host (64-bit Linux and macOS):
threads start with default attributes (a NULL pthread_attr_t*, so its size never matters;
kernels need only a few stack slots, far below any default thread stack), pthread_t is
kept in an i64 slot and passed to pthread_join as an i64 (an 8-byte integer on glibc, a
pointer on macOS and musl: the same size, and passed in the same register), and the
context structs are laid out with 8-byte pointers. See thread_pool.py for the JIT pool.
"""

from __future__ import annotations


from llvmlite import ir

from ..llvm_types import I8, I32, I64, PTR, VOID, left_unoptimized
from ..loops import for_range
from ..loop_function import LoopKernel
from .fast.thread_pool import SYMBOL as POOL_SYMBOL


def decide_partitions(kernel: LoopKernel, threads: int, min_elements: int) -> None:
    """Set kernel.partitions by the rule above (1 = run on the calling thread only)."""
    if threads > 1 and kernel.extent > 1 and kernel.work >= min_elements:
        kernel.partitions = min(threads, kernel.extent // max(1, kernel.granule) or 1)
    kernel.partitions = max(1, kernel.partitions)


def partition_bounds(extent: int, count: int, granule: int = 1) -> list[tuple[int, int]]:
    """[begin, end) of each partition: near-equal, boundaries multiples of `granule`."""
    cuts = [0]
    for p in range(1, count):
        cut = extent * p // count
        cuts.append(min(extent, (cut + granule - 1) // granule * granule))
    cuts.append(extent)
    return [(lo, hi) for lo, hi in zip(cuts, cuts[1:])]


class ParallelSupport:
    """The pthread helpers of one LLVM module, emitted on first use."""

    def __init__(self, llmod: ir.Module):
        self.llmod = llmod
        self._spawn = None
        self._join = None

    def _declare(self, name, ret, args):
        fn = self.llmod.globals.get(name)
        return fn or ir.Function(self.llmod, ir.FunctionType(ret, args), name)

    def spawn(self) -> ir.Function:
        """hloscope.spawn(task, contexts, stride, count, tids, started): start 1..count-1."""
        if self._spawn is None:
            create = self._declare("pthread_create", I32, [PTR, PTR, PTR, PTR])
            fn = ir.Function(self.llmod, ir.FunctionType(VOID, [PTR, PTR, I64, I64, PTR, PTR]), "hloscope.spawn")
            fn.linkage = "internal"
            task, ctxs, stride, count, tids, started = fn.args
            b = ir.IRBuilder(fn.append_basic_block("entry"))
            with for_range(b, 1, count, "t") as t:
                ctx = b.gep(ctxs, [b.mul(t, stride)], inbounds=True, source_etype=I8)
                tid = b.gep(tids, [t], inbounds=True, source_etype=I64)
                rc = b.call(create, [tid, ir.Constant(PTR, None), task, ctx])
                ok = b.zext(b.icmp_signed("==", rc, I32(0)), I8)
                b.store(ok, b.gep(started, [t], inbounds=True, source_etype=I8))
            b.ret_void()
            self._spawn = fn
        return self._spawn

    def join(self) -> ir.Function:
        """hloscope.join(tids, started, count): wait for every started partition."""
        if self._join is None:
            pjoin = self._declare("pthread_join", I32, [I64, PTR])
            fn = ir.Function(self.llmod, ir.FunctionType(VOID, [PTR, PTR, I64]), "hloscope.join")
            fn.linkage = "internal"
            tids, started, count = fn.args
            b = ir.IRBuilder(fn.append_basic_block("entry"))
            with for_range(b, 1, count, "t") as t:
                ok = b.load(b.gep(started, [t], inbounds=True, source_etype=I8), typ=I8)
                with b.if_then(b.icmp_unsigned("!=", ok, I8(0))):
                    tid = b.load(b.gep(tids, [t], inbounds=True, source_etype=I64), typ=I64)
                    b.call(pjoin, [tid, ir.Constant(PTR, None)])
            b.ret_void()
            self._join = fn
        return self._join

    def task(self, kernel_fn: ir.Function, nbuf: int) -> ir.Function:
        """`<kernel>.task(ptr ctx) -> ptr`: unpack a context struct and run the kernel (one
        task per kernel function: a repeated computation's kernels share it)."""
        found = self.llmod.globals.get(kernel_fn.name + ".task")
        if isinstance(found, ir.Function):
            return found
        fn = left_unoptimized(ir.Function(self.llmod, ir.FunctionType(PTR, [PTR]), kernel_fn.name + ".task"))
        fn.linkage = "internal"
        b = ir.IRBuilder(fn.append_basic_block("entry"))
        ctx_type = context_type(nbuf)
        fields = [
            b.load(b.gep(fn.args[0], [I32(0), I32(i)], inbounds=True, source_etype=ctx_type), typ=t)
            for i, t in enumerate(ctx_type.elements)
        ]
        b.call(kernel_fn, fields)
        b.ret(ir.Constant(PTR, None))
        return fn


def context_type(nbuf: int) -> ir.LiteralStructType:
    return ir.LiteralStructType([PTR] * nbuf + [I64, I64])


def emit_parallel_call(b: ir.IRBuilder, alloca, support: ParallelSupport, kernel_fn: ir.Function,
                       pointers: list, bounds: list[tuple[int, int]], pool: bool) -> None:
    """Run kernel_fn on `bounds` partitions: through the process's thread pool (JIT), or
    with a thread per partition but the first, then join (AOT: self-contained)."""
    count = len(bounds)
    nbuf = len(pointers)
    ctx_type = context_type(nbuf)
    ctxs = alloca(ir.ArrayType(ctx_type, count), "contexts")  # a typed pointer in llvmlite
    for t, (lo, hi) in enumerate(bounds):
        for i, v in enumerate(list(pointers) + [I64(lo), I64(hi)]):
            b.store(v, b.gep(ctxs, [I32(0), I32(t), I32(i)], inbounds=True))
    stride = I64(8 * (nbuf + 2))
    if pool:
        run = support._declare(POOL_SYMBOL, VOID, [PTR, PTR, I64, I64])
        b.call(run, [support.task(kernel_fn, nbuf), ctxs, stride, I64(count)])
        return
    tids = alloca(ir.ArrayType(I64, count), "tids")
    started = alloca(ir.ArrayType(I8, count), "started")
    b.call(support.spawn(), [support.task(kernel_fn, nbuf), ctxs, stride, I64(count), tids, started])
    b.call(kernel_fn, list(pointers) + [I64(bounds[0][0]), I64(bounds[0][1])])
    for t, (lo, hi) in enumerate(bounds[1:], start=1):
        ok = b.load(b.gep(started, [I32(0), I32(t)], inbounds=True))
        with b.if_then(b.icmp_unsigned("==", ok, I8(0))):
            b.call(kernel_fn, list(pointers) + [I64(lo), I64(hi)])
    b.call(support.join(), [tids, started, I64(count)])
