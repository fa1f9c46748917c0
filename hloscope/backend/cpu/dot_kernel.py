"""dot: a BLAS call or a tiled loop nest (XLA's DotOpEmitter: Eigen vs. tiled LLVM IR).

Both paths start from the dot's matrix form (backend/gemm.py): per batch element, an
M x K (or K x M) and a K x N (or N x K) row-major matrix. Other dots fall back to the
elemental rule (one inner product per output element).

  blas   C^T = B^T A^T through sgemm/dgemm (column-major), one call per batch element.
  loops  for j0 in blocks of 256 columns: for i in rows: C[i, j0:] = 0;
             for k: a = A[i, k]; C[i, j0:] += a * B[k, j0:]     <- the vectorized axpy
         (or, with B stored transposed, a dot product over k per (i, j)); rows split across
         threads. Readable rather than fast; it makes AOT objects self-contained.
"""

from __future__ import annotations

from llvmlite import ir

from ...ir.instruction import Instruction
from ...ir.shape import ArrayShape
from ..buffers import ArrayStorage
from ..gemm import GemmForm, gemm_form
from ..kernel_spec import KernelSpec, ModuleContext
from ..loop_function import LoopFunction, LoopKernel
from ..llvm_types import F32, F64, I8, I32, I64, PTR, VOID, constant, load, left_unoptimized, storage_type, store, value_type
from ..loops import for_range
from ..scalar_convert import emit_convert
from ..scalar_ops import emit_binary
from . import blas

COLUMN_BLOCK = 256


def emit_dot_kernel(mc: ModuleContext, spec: KernelSpec, dot: Instruction, out: ArrayStorage) -> LoopKernel:
    """The dot kernel of `dot` (in matrix form, both operands parameters of spec.comp)."""
    comp = spec.comp
    lhs_p, rhs_p = (comp[o] for o in dot.operands)
    lhs, rhs = spec.input_of(lhs_p), spec.input_of(rhs_p)
    lhs_shape, rhs_shape = lhs_p.array_shape, rhs_p.array_shape
    dtype = dot.array_shape.dtype
    form = gemm_form(dot, lhs_shape, rhs_shape)
    assert form is not None, "the kernel choices take only dots in matrix form"
    use_blas = mc.options.dot == "blas" and blas_ok(dot, lhs_shape, rhs_shape)
    kf = LoopFunction(mc.llmod, spec.name, [lhs, rhs, out], {out})
    ctx = mc.emit_context(kf.builder)
    p = kf.pointer
    kind = "dot-blas" if use_blas else "dot-loops"
    kernel = LoopKernel(spec.name, spec.instruction, kind, kf.buffers, work=form.m * form.n * form.k * form.batch)
    if use_blas:
        # Each partition's gemm packs all of the operand it does not split: split the wider
        # side of C, so the larger operand is read once in all (256x1024 @ 1024x4096: each
        # thread packs half of B's 16 MB, not all of it, as multithreaded BLAS does).
        by_columns = form.n > form.m
        emit_blas(ctx, form, dtype, p(out), p(lhs), p(rhs), kf.begin, kf.end, by_columns=by_columns)
        left_unoptimized(kf.fn)
        kernel.extent, kernel.granule = (form.n if by_columns else form.m), 16
        kernel.notes.append(f"gemm {form.batch}x[{form.m}x{form.k}]@[{form.k}x{form.n}] via {dtype} BLAS, "
                            f"{'columns' if by_columns else 'rows'} split across hloscope's threads")
    else:
        emit_loops(ctx, form, dot, (lhs_shape, rhs_shape), p(out), p(lhs), p(rhs), kf.begin, kf.end)
        kernel.extent = form.m
        kernel.notes.append(f"tiled loops {form.batch}x[{form.m}x{form.k}]@[{form.k}x{form.n}]")
    kf.finish()
    kernel.function = kf.fn
    return kernel


def blas_ok(dot: Instruction, lhs: ArrayShape, rhs: ArrayShape) -> bool:
    dtype = dot.array_shape.dtype
    return lhs.dtype == rhs.dtype == dtype and blas.available(dtype)


def _byte_gep(b: ir.IRBuilder, ptr, offset):
    return b.gep(ptr, [offset], inbounds=True, source_etype=I8)


def emit_blas(ctx, form: GemmForm, dtype: str, out, lhs, rhs, begin=None, end=None, by_columns: bool = False) -> None:
    """One gemm call per batch element: C^T (n x m) = B^T (n x k) A^T (k x m).

    With [begin, end), only those rows of C (a block of C^T's columns) are computed, or with
    `by_columns` those columns of C (a block of C^T's rows, and of B^T's), by a
    single-threaded gemm: the partitions of a parallel dot run on hloscope's own threads.
    """
    b = ctx.b
    ft = F32 if dtype == "f32" else F64
    gemm = ctx.llmod.globals.get(blas.SYMBOLS[dtype][1])
    if gemm is None:
        gemm = ir.Function(ctx.llmod, ir.FunctionType(VOID, [PTR] * 13), blas.SYMBOLS[dtype][1])

    def slot(ty, value, name):
        p = ctx.alloca(ty, name)
        b.store(ir.Constant(ty, value), p)
        return p

    index = ir.IntType(blas.index_bits())  # the BLAS's integer: i32 (LP64) or i64 (ILP64)

    def size_of(value):  # an i64 size as the BLAS's integer
        return value if index == I64 else b.trunc(value, index)

    transa = slot(I8, ord("T" if form.rhs_transposed else "N"), "transa")
    transb = slot(I8, ord("T" if form.lhs_transposed else "N"), "transb")
    k = slot(index, form.k, "k")
    m, n = ctx.alloca(index, "m"), ctx.alloca(index, "n")
    part = b.sub(end, begin) if begin is not None else None
    b.store(size_of(part) if part is not None and by_columns else index(form.n), m)
    b.store(size_of(part) if part is not None and not by_columns else index(form.m), n)
    lda = slot(index, max(1, form.k if form.rhs_transposed else form.n), "lda")
    ldb = slot(index, max(1, form.m if form.lhs_transposed else form.k), "ldb")
    ldc = slot(index, max(1, form.n), "ldc")
    alpha, beta = slot(ft, 1.0, "alpha"), slot(ft, 0.0, "beta")
    size = 4 if dtype == "f32" else 8
    first = begin if begin is not None else I64(0)
    row, col = (I64(0), first) if by_columns else (first, I64(0))  # C's first row and column
    lhs_row = I64(size if form.lhs_transposed else form.k * size)  # bytes from row i to i+1 of A
    rhs_col = I64(form.k * size if form.rhs_transposed else size)  # bytes from column j to j+1 of B
    previous = _blas_threads(ctx, 1) if begin is not None else None
    with for_range(b, 0, form.batch, "batch") as i:
        a_ptr = _byte_gep(b, rhs, b.add(b.mul(i, I64(form.k * form.n * size)), b.mul(col, rhs_col)))
        b_ptr = _byte_gep(b, lhs, b.add(b.mul(i, I64(form.m * form.k * size)), b.mul(row, lhs_row)))
        c_ptr = _byte_gep(b, out, b.add(b.mul(i, I64(form.m * form.n * size)),
                                        b.add(b.mul(row, I64(form.n * size)), b.mul(col, I64(size)))))
        b.call(gemm, [transa, transb, m, n, k, alpha, a_ptr, lda, b_ptr, ldb, beta, c_ptr, ldc])
    if previous is not None:
        _blas_threads(ctx, previous)


def _blas_threads(ctx, count):
    """openblas_set_num_threads_local: the BLAS threads of the calling thread only."""
    fn = ctx.llmod.globals.get(blas.THREADS_SYMBOL) or ir.Function(
        ctx.llmod, ir.FunctionType(I32, [I32]), blas.THREADS_SYMBOL)
    return ctx.b.call(fn, [count if isinstance(count, ir.Value) else I32(count)])


class _Matrices:
    """Element access to the operands and the result of one GemmForm (per batch element)."""

    def __init__(self, ctx, form: GemmForm, dtype: str, shapes, out, lhs, rhs):
        self.ctx, self.b, self.form, self.dtype = ctx, ctx.b, form, dtype
        self.shapes, self.out, self.lhs, self.rhs = shapes, out, lhs, rhs

    def _element(self, ptr, shape, offset):
        p = self.b.gep(ptr, [offset], inbounds=True, source_etype=storage_type(shape.dtype))
        return emit_convert(self.ctx.scalar, load(self.b, p, shape.dtype), shape.dtype, self.dtype)

    def _at(self, bi, size, row, col, row_stride):
        b = self.b
        return b.add(b.mul(bi, I64(size)), b.add(b.mul(row, I64(row_stride)), col))

    def a(self, bi, i, k):
        f = self.form
        offset = self._at(bi, f.m * f.k, k, i, f.m) if f.lhs_transposed else self._at(bi, f.m * f.k, i, k, f.k)
        return self._element(self.lhs, self.shapes[0], offset)

    def b_(self, bi, k, j):
        f = self.form
        offset = self._at(bi, f.k * f.n, j, k, f.k) if f.rhs_transposed else self._at(bi, f.k * f.n, k, j, f.n)
        return self._element(self.rhs, self.shapes[1], offset)

    def c(self, bi, i, j):
        f = self.form
        return self.b.gep(self.out, [self._at(bi, f.m * f.n, i, j, f.n)], inbounds=True,
                          source_etype=storage_type(self.dtype))

    def madd(self, acc, x, y):
        """acc + x*y (an FMA for floats where the CPU has one)."""
        if acc.type in (F32, F64):
            return self.ctx.scalar.call("fmuladd", x, y, acc)
        product = emit_binary(self.ctx.scalar, "multiply", x, y, self.dtype)
        return emit_binary(self.ctx.scalar, "add", acc, product, self.dtype)


def emit_loops(ctx, form: GemmForm, dot: Instruction, shapes, out, lhs, rhs, begin, end) -> None:
    """The tiled loop nest over rows [begin, end) of every batch element."""
    mats = _Matrices(ctx, form, dot.array_shape.dtype, shapes, out, lhs, rhs)
    with for_range(ctx.b, 0, form.batch, "batch") as bi:
        if form.rhs_transposed:
            _dot_products(mats, bi, begin, end)
        else:
            _axpy_blocks(mats, bi, begin, end)


def _dot_products(mats: _Matrices, bi, begin, end) -> None:
    """B stored n x k: rows of A and of B are both contiguous in k, so C[i, j] = A[i] . B[j]."""
    b, form, dtype = mats.b, mats.form, mats.dtype
    with for_range(b, begin, end, "i") as i, for_range(b, 0, form.n, "j") as j:
        acc = mats.ctx.alloca(value_type(dtype))
        b.store(constant(dtype, 0), acc)
        with for_range(b, 0, form.k, "k") as kk:
            b.store(mats.madd(b.load(acc), mats.a(bi, i, kk), mats.b_(bi, kk, j)), acc)
        store(b, b.load(acc), mats.c(bi, i, j), dtype)


def _axpy_blocks(mats: _Matrices, bi, begin, end) -> None:
    """C[i, block] += A[i, k] * B[k, block] over column blocks: contiguous in j, vectorized."""
    b, form, dtype = mats.b, mats.form, mats.dtype
    blocks = (form.n + COLUMN_BLOCK - 1) // COLUMN_BLOCK
    with for_range(b, 0, blocks, "j0") as j0:
        lo = b.mul(j0, I64(COLUMN_BLOCK))
        hi = b.add(lo, I64(COLUMN_BLOCK))
        hi = b.select(b.icmp_signed("<", hi, I64(form.n)), hi, I64(form.n))
        with for_range(b, begin, end, "i") as i:
            with for_range(b, lo, hi, "j") as j:
                store(b, constant(dtype, 0), mats.c(bi, i, j), dtype)
            with for_range(b, 0, form.k, "k") as kk:
                a = mats.a(bi, i, kk)
                with for_range(b, lo, hi, "j") as j:
                    p = mats.c(bi, i, j)
                    store(b, mats.madd(load(b, p, dtype), a, mats.b_(bi, kk, j)), p, dtype)
