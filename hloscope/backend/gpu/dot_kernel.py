"""dot: the classic shared-memory tiled matrix product (CUDA's "matrixMul" sample).

Per batch element (blockIdx.z), each 16x16 block of threads computes one 16x16 tile of C:

    row = blockIdx.y * 16 + ty;  col = blockIdx.x * 16 + tx
    for (k0 = 0; k0 < K; k0 += 16) {
        As[ty][tx] = A[row][k0 + tx]      // each thread loads one element of each tile
        Bs[ty][tx] = B[k0 + ty][col]      // (0 outside the matrices)
        __syncthreads()                   // the tiles are complete
        for (k = 0; k < 16; k++) acc += As[ty][k] * Bs[k][tx]
        __syncthreads()                   // everyone is done before they are overwritten
    }
    C[row][col] = acc

Every element of A and B is read from global memory K/16 times fewer than in the naive
kernel; the rest come from shared memory. The accumulator is the output's register type (f32
for f16/bf16 outputs, rounded once at the store). Operands stored transposed (gemm_form's
lhs_transposed/rhs_transposed) are read with swapped strides. Batches beyond the grid's z
limit are covered by a loop. This is a teaching kernel: no register tiling, no tensor cores.
"""

from __future__ import annotations

from llvmlite import ir

from ...ir.computation import Computation
from ...ir.instruction import Instruction
from ..buffers import ArrayStorage
from ..gemm import GemmForm, gemm_form
from ..kernel_spec import KernelSpec
from ..elemental_data import clamp
from ..llvm_types import I64, constant, load, storage_type, store, value_type
from ..scalar_convert import emit_convert
from ..scalar_ops import emit_binary
from .kernel import GpuKernel, GpuKernelFunction, GpuModuleContext, Launch

TILE = 16
MAX_Z = 65535


def dot_ok(comp: Computation, dot: Instruction) -> bool:
    """A dot of two parameters in matrix form, of a numeric type: it gets this kernel."""
    ops = [comp[o] for o in dot.operands]
    if any(o.opcode != "parameter" for o in ops) or dot.array_shape.dtype == "pred":
        return False
    return gemm_form(dot, ops[0].array_shape, ops[1].array_shape) is not None


def emit_dot(mc: GpuModuleContext, spec: KernelSpec, dot: Instruction, out: ArrayStorage) -> GpuKernel:
    comp = spec.comp
    lhs_p, rhs_p = (comp[o] for o in dot.operands)
    # dot_ok chose this kernel: both operands are (verified, so numbered) parameters in matrix form
    assert lhs_p.parameter_number is not None and rhs_p.parameter_number is not None
    lhs, rhs = spec.inputs[lhs_p.parameter_number], spec.inputs[rhs_p.parameter_number]
    lhs_shape, rhs_shape = lhs_p.array_shape, rhs_p.array_shape
    form = gemm_form(dot, lhs_shape, rhs_shape)
    assert form is not None
    kf = GpuKernelFunction(mc, spec.name, [lhs, rhs, out], {out})
    ctx = mc.emit_context(kf.builder)
    tiles = _Tiles(ctx, kf, form, dot.array_shape.dtype, (lhs_shape.dtype, rhs_shape.dtype))
    first_z = kf.sreg("ctaid.z")
    with kf.strided(first_z, form.batch, kf.sreg("nctaid.z"), "batch") as z:
        tiles.emit(z, kf.pointer(lhs), kf.pointer(rhs), kf.pointer(out))
    kf.finish((TILE, TILE, 1))
    grid = (-(-form.n // TILE), -(-form.m // TILE), min(form.batch, MAX_Z))
    if 0 in (form.m, form.n, form.batch):
        grid = (0, 0, 0)
    launch = Launch(grid, (TILE, TILE, 1), kf.shared_bytes)
    kernel = GpuKernel(kf.fn.name, spec.instruction, "dot-tiled", kf.buffers, launch, function=kf.fn,
                       elements=form.batch * form.m * form.n)
    kernel.notes.append(f"tiled {form.batch}x[{form.m}x{form.k}]@[{form.k}x{form.n}], {TILE}x{TILE} tiles "
                        "in shared memory, batch in blockIdx.z")
    return kernel


class _Tiles:
    """The loop over K tiles for one batch element."""

    def __init__(self, ctx, kf: GpuKernelFunction, form: GemmForm, dtype: str, in_dtypes):
        self.ctx, self.kf, self.b, self.form, self.dtype, self.in_dtypes = ctx, kf, ctx.b, form, dtype, in_dtypes
        self.ty = value_type(dtype)
        self.a_tile = kf.shared(self.ty, TILE * TILE, "lhs_tile")
        self.b_tile = kf.shared(self.ty, TILE * TILE, "rhs_tile")
        self.tx, self.ty_ = kf.sreg("tid.x"), kf.sreg("tid.y")
        b = self.b
        self.row = b.add(b.mul(kf.sreg("ctaid.y"), I64(TILE)), self.ty_, name="row")
        self.col = b.add(b.mul(kf.sreg("ctaid.x"), I64(TILE)), self.tx, name="col")
        self.slot = ctx.alloca(self.ty, "acc")
        self.mine = b.add(b.mul(self.ty_, I64(TILE)), self.tx, name="tile_pos")

    def emit(self, z, lhs, rhs, out) -> None:
        b, f, kf = self.b, self.form, self.kf
        b.store(constant(self.dtype, 0), self.slot)
        with kf.strided(I64(0), f.k, I64(TILE), "k0") as k0:
            a = self._element(lhs, 0, z, self.row, b.add(k0, self.tx), f.m, f.k)
            b.store(a, b.gep(self.a_tile, [self.mine], source_etype=self.ty))
            bv = self._element(rhs, 1, z, b.add(k0, self.ty_), self.col, f.k, f.n)
            b.store(bv, b.gep(self.b_tile, [self.mine], source_etype=self.ty))
            kf.barrier()
            self._tile_product()
            kf.barrier()
        inside = b.and_(b.icmp_signed("<", self.row, I64(f.m)), b.icmp_signed("<", self.col, I64(f.n)))
        with b.if_then(inside):
            at = b.add(b.mul(z, I64(f.m * f.n)), b.add(b.mul(self.row, I64(f.n)), self.col))
            store(b, b.load(self.slot), b.gep(out, [at], inbounds=True, source_etype=storage_type(self.dtype)), self.dtype)

    def _tile_product(self) -> None:
        b = self.b
        with self.kf.strided(I64(0), TILE, I64(1), "kk") as kk:
            x = b.load(b.gep(self.a_tile, [b.add(b.mul(self.ty_, I64(TILE)), kk)], source_etype=self.ty), typ=self.ty)
            y = b.load(b.gep(self.b_tile, [b.add(b.mul(kk, I64(TILE)), self.tx)], source_etype=self.ty), typ=self.ty)
            b.store(self._madd(b.load(self.slot), x, y), self.slot)

    def _madd(self, acc, x, y):
        if isinstance(acc.type, (ir.FloatType, ir.DoubleType)):
            return self.ctx.scalar.call("fmuladd", x, y, acc)
        product = emit_binary(self.ctx.scalar, "multiply", x, y, self.dtype)
        return emit_binary(self.ctx.scalar, "add", acc, product, self.dtype)

    def _element(self, ptr, which: int, z, i, j, rows: int, cols: int):
        """Operand `which` (0 = A: m x k, 1 = B: k x n) at (i, j), or 0 outside it. The
        position is clamped before the load, so no thread ever reads out of bounds."""
        b, f = self.b, self.form
        if rows == 0 or cols == 0:
            return constant(self.dtype, 0)
        valid = b.and_(b.icmp_signed("<", i, I64(rows)), b.icmp_signed("<", j, I64(cols)))
        i, j = clamp(b, i, 0, rows - 1), clamp(b, j, 0, cols - 1)
        transposed = f.lhs_transposed if which == 0 else f.rhs_transposed
        offset = b.add(b.mul(j, I64(rows)), i) if transposed else b.add(b.mul(i, I64(cols)), j)
        offset = b.add(b.mul(z, I64(rows * cols)), offset)
        src = self.in_dtypes[which]
        value = load(b, b.gep(ptr, [offset], inbounds=True, source_etype=storage_type(src)), src)
        value = emit_convert(self.ctx.scalar, value, src, self.dtype)
        return b.select(valid, value, constant(self.dtype, 0))
