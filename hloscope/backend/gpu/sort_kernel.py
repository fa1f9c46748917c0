"""sort on the GPU: a bitonic sorting network per row, in shared memory.

One block per row. The row's positions live in shared memory as a permutation, padded to
P, the next power of two. A bitonic network is a fixed schedule of compare-exchanges, the
same whatever the data, which is what lets every thread work at once:

    perm[i] = i                                     for i < P
    for (k = 2; k <= P; k *= 2)                     // bitonic runs of length k
        for (j = k / 2; j > 0; j /= 2) {            // each halving is one step
            for i (this thread's, strided): if (i ^ j) > i:
                up = (i & k) == 0                   // this half sorts up, the next down
                if (up ? before(perm[i ^ j], perm[i]) : before(perm[i], perm[i ^ j]))
                    swap(perm[i], perm[i ^ j])
            __syncthreads()                         // the whole step before the next
        }
    out_k[row, i] = operand_k[row, perm[i]]         for i < n, every operand k

`before(a, b)` is the HLO comparator made a strict total order: a real position before a
padding one; otherwise comparator(a, b), or, when neither comes first, the smaller position.
A bitonic network is not stable by itself; that tie-break makes the one sorted order the
stable one. O(n log^2 n) comparisons, where the CPU's merge sort does O(n log n): the GPU
trades work for parallel steps. Rows up to 8192 elements (32 KB of shared memory); longer
ones would need a multi-block sort (XLA calls CUB's radix sort there).
"""

from __future__ import annotations

from math import prod

from ..kernel_spec import KernelSpec
from ..sort_comparator import comes_first, store_permuted
from ..index import spread
from ..llvm_types import I1, I32, I64, emitted
from ..unsupported import unsupported
from .kernel import GpuKernel, GpuModuleContext, Launch
from .reduce_kernel import open_kernel

MAX_ROW = 8192
MAX_THREADS = 1024


def emit_sort_kernel(mc: GpuModuleContext, spec: KernelSpec) -> GpuKernel:
    sort = spec.comp.root_instruction
    dim = sort.attr("dimensions")[0]
    shape = spec.comp[sort.operands[0]].array_shape
    n = shape.dims[dim]
    if n > MAX_ROW:
        raise unsupported(mc.target, f"sort of rows longer than {MAX_ROW}", spec.instruction)
    others = [d for d in range(shape.rank) if d != dim]
    rows = prod(shape.dims[d] for d in others)
    padded = 1 << max(0, (n - 1).bit_length())
    threads = max(32, min(MAX_THREADS, padded))
    kf, em = open_kernel(mc, spec, {}, None)
    b = kf.builder
    perm = kf.shared(I32, padded, "perm")
    row, tid = kf.sreg("ctaid.x"), kf.sreg("tid.x")
    base = spread(b, row, shape.dims, others, [I64(0)] * shape.rank)
    with kf.strided(tid, padded, I64(threads), "i") as i:
        b.store(b.trunc(i, I32), b.gep(perm, [i], source_etype=I32))
    kf.barrier()
    swap_slot = em.ctx.alloca(I1)
    levels = (padded - 1).bit_length()
    with kf.strided(I64(1), levels + 1, I64(1), "level") as level:  # k = 2 ** level
        with kf.strided(I64(0), level, I64(1), "step") as step:  # j = 2 ** (level - 1 - step)
            k = b.shl(I64(1), level)
            j = b.shl(I64(1), b.sub(b.sub(level, I64(1)), step))
            with kf.strided(tid, padded, I64(threads), "i") as i:
                partner = b.xor(i, j)
                with b.if_then(b.icmp_unsigned(">", partner, i)):
                    mine = b.load(b.gep(perm, [i], source_etype=I32), typ=I32)
                    theirs = b.load(b.gep(perm, [partner], source_etype=I32), typ=I32)
                    up = b.icmp_unsigned("==", b.and_(i, k), I64(0))
                    first, second = b.select(up, theirs, mine), b.select(up, mine, theirs)
                    _before(em, sort, dim, base, n, first, second, swap_slot)
                    with b.if_then(b.load(swap_slot)):
                        b.store(theirs, b.gep(perm, [i], source_etype=I32))
                        b.store(mine, b.gep(perm, [partner], source_etype=I32))
            kf.barrier()
    with kf.strided(tid, n, I64(threads), "i") as i:
        source = emitted(b.zext(b.load(b.gep(perm, [i], source_etype=I32), typ=I32), I64))
        store_permuted(em, kf, sort, spec.outputs, dim, base, i, source)
    kf.finish((threads, 1, 1))
    launch = Launch((rows if n else 0, 1, 1), (threads, 1, 1), kf.shared_bytes)
    kernel = GpuKernel(kf.fn.name, spec.instruction, "sort-bitonic", kf.buffers, launch, function=kf.fn,
                       elements=rows * n)
    kernel.notes.append(f"bitonic sort of {rows} rows of {n} (padded to {padded}), a block per row, "
                        f"{levels * (levels + 1) // 2} compare-exchange steps in shared memory")
    return kernel


def _before(em, sort, dim, base, n: int, a, c, slot) -> None:
    """slot = does position a come strictly before position c (a total order, see above)."""
    b = em.b
    a64, c64 = b.zext(a, I64), b.zext(c, I64)
    a_real, c_real = b.icmp_unsigned("<", a64, I64(n)), b.icmp_unsigned("<", c64, I64(n))
    b.store(b.and_(a_real, b.not_(c_real)), slot)  # a real position goes before padding
    with b.if_then(b.and_(a_real, c_real)):
        ahead, behind = comes_first(em, sort, dim, base, a64, c64), comes_first(em, sort, dim, base, c64, a64)
        tie_break = b.and_(b.not_(behind), b.icmp_unsigned("<", a64, c64))
        b.store(b.or_(ahead, tie_break), slot)
