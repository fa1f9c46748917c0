"""A 16-bit float dot through the f32 BLAS gemm (XLA:CPU's change-op-data-type: f16 dots
are computed in f32 on the CPU).

    a32 = f32(a)        widen kernels: operands converted into arena scratch, split across
    b32 = f32(b)        threads (an f32 operand is read as it is)
    c32 = a32 @ b32     the gemm kernel: rows split across hloscope's threads as for f32 dots,
    c   = round(c32)    each partition rounding its own rows to f16/bf16 (or, for an f32
                        result, the gemm writes it directly)

The sum is carried in f32 and rounded once, as the evaluator does (evaluator/dot.py) and as
the elemental dot did, but at BLAS speed instead of one scalar inner product per element.
"""

from __future__ import annotations

from ...ir.instruction import Instruction
from ...ir.shape import ArrayShape
from ..buffers import ArrayStorage, BufferLayout
from ..gemm import GemmForm, gemm_form
from ..kernel_spec import KernelSpec, ModuleContext
from ..llvm_types import I64, load, storage_type, store
from ..loop_function import LoopFunction, LoopKernel
from ..loops import for_range
from .dot_kernel import emit_blas
from . import blas

SIXTEEN_BIT = ("f16", "bf16")


def widening_ok(dot: Instruction, lhs: ArrayShape, rhs: ArrayShape) -> bool:
    """A dot this kernel computes exactly as the evaluator does: 16-bit float operands (f32
    ones only beside them), each already of the result's type or widened to an f32 result
    (the evaluator converts operands to the result type first), in matrix form."""
    out = dot.array_shape.dtype
    types = (lhs.dtype, rhs.dtype)
    if out not in SIXTEEN_BIT + ("f32",) or not any(t in SIXTEEN_BIT for t in types + (out,)):
        return False
    if not all(t == out or (out == "f32" and t in SIXTEEN_BIT) for t in types):
        return False
    return blas.available("f32") and gemm_form(dot, lhs, rhs) is not None


def emit_widening_dot(mc: ModuleContext, spec: KernelSpec, dot: Instruction, out: ArrayStorage,
                      layout: BufferLayout) -> list[LoopKernel]:
    """The kernels computing `dot` (both operands parameters of spec.comp) into `out`."""
    lhs_p, rhs_p = (spec.comp[o] for o in dot.operands)
    form = gemm_form(dot, lhs_p.array_shape, rhs_p.array_shape)
    assert form is not None, "widening_ok takes only dots in matrix form"
    lhs, rhs = spec.input_of(lhs_p), spec.input_of(rhs_p)
    wide = {buf: _scratch(layout, buf.shape, f"{spec.instruction}.{dot.name}.{role}")
            for buf, role in ((lhs, "lhs"), (rhs, "rhs"), (out, "out")) if buf.shape.dtype != "f32"}
    kernels = [_widen(mc, spec, buf, wide[buf], role) for buf, role in ((lhs, "lhs"), (rhs, "rhs"))
               if buf in wide and (role == "lhs" or rhs != lhs)]
    what = f"{lhs.shape.dtype} x {rhs.shape.dtype} -> {out.shape.dtype}"
    return kernels + [_gemm(mc, spec, form, (wide.get(lhs, lhs), wide.get(rhs, rhs), wide.get(out, out)), out, what)]


def _gemm(mc: ModuleContext, spec: KernelSpec, form: GemmForm, f32: tuple[ArrayStorage, ArrayStorage, ArrayStorage],
          out: ArrayStorage, what: str) -> LoopKernel:
    """c = a @ b in f32 (f32: a, b, c) for rows [begin, end), then those rows of c rounded into out."""
    a, b, c = f32
    kf = LoopFunction(mc.llmod, mc.unique_name(f"{spec.name}.gemm"), [a, b, c, out], {c, out})
    ctx = mc.emit_context(kf.builder)
    emit_blas(ctx, form, "f32", kf.pointer(c), kf.pointer(a), kf.pointer(b), kf.begin, kf.end)
    if c != out:
        bld = ctx.b
        with for_range(bld, 0, form.batch, "batch") as batch:
            base = bld.mul(batch, I64(form.m * form.n))
            first, last = (bld.add(base, bld.mul(row, I64(form.n))) for row in (kf.begin, kf.end))
            _convert(bld, kf, c, out, first, last)
    kernel = LoopKernel(kf.fn.name, spec.instruction, "dot-blas", kf.buffers, work=form.m * form.n * form.k * form.batch)
    kernel.extent, kernel.granule = form.m, 16
    rounding = f", rounded once to {out.shape.dtype}" if c != out else ""
    kernel.notes.append(f"{what} gemm {form.batch}x[{form.m}x{form.k}]@[{form.k}x{form.n}] widened to f32 BLAS "
                        f"(accumulated in f32{rounding}), rows split across hloscope's threads")
    kf.finish()
    kernel.function = kf.fn
    return kernel


def _widen(mc: ModuleContext, spec: KernelSpec, src: ArrayStorage, dst: ArrayStorage, role: str) -> LoopKernel:
    """dst = f32(src), a flat loop split across threads."""
    kf = LoopFunction(mc.llmod, mc.unique_name(f"{spec.name}.widen_{role}"), [src, dst], {dst})
    ctx = mc.emit_context(kf.builder)
    _convert(ctx.b, kf, src, dst, kf.begin, kf.end)
    kernel = LoopKernel(kf.fn.name, spec.instruction, "loop", kf.buffers, work=src.shape.size)
    kernel.extent, kernel.granule = src.shape.size, 64
    kernel.notes.append(f"the dot's {role} converted from {src.shape.dtype} to f32 scratch for the f32 gemm")
    kf.finish()
    kernel.function = kf.fn
    return kernel


def _scratch(layout: BufferLayout, shape: ArrayShape, name: str) -> ArrayStorage:
    wide = ArrayShape("f32", shape.dims)
    return layout.grow_arena(wide.byte_size, name, wide)


def _convert(b, kf, src: ArrayStorage, dst: ArrayStorage, begin, end) -> None:
    """dst[i] = src[i] for i in [begin, end), converted (to f32, or back with rounding)."""
    s_type, d_type = src.shape.dtype, dst.shape.dtype
    with for_range(b, begin, end, "i") as i:
        value = load(b, b.gep(kf.pointer(src), [i], inbounds=True, source_etype=storage_type(s_type)), s_type)
        store(b, value, b.gep(kf.pointer(dst), [i], inbounds=True, source_etype=storage_type(d_type)), d_type)
