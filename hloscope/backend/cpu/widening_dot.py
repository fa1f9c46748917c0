"""A 16-bit float dot through the f32 BLAS gemm (XLA:CPU's change-op-data-type: f16 dots
are computed in f32 on the CPU).

    a32 = f32(a)        operands converted into arena scratch (an f32 operand is read as it is)
    b32 = f32(b)
    c32 = a32 @ b32     dot_kernel.emit_blas: one f32 gemm per batch element, BLAS's threads
    c   = round(c32)    to f16/bf16 (an f32 result is written by the gemm directly)

The sum is carried in f32 and rounded once, as the evaluator does (evaluator/dot.py) and as
the elemental dot did, but at BLAS speed instead of one scalar inner product per element.
The kernel is not split into partitions: the conversions are a few percent of the gemm, and
the gemm runs on the BLAS's own threads.
"""

from __future__ import annotations

from ...ir.instruction import Instruction
from ...ir.shape import ArrayShape
from ..buffers import Buffer, BufferLayout
from ..gemm import gemm_form
from ..kernel_spec import KernelSpec, ModuleContext
from ..llvm_types import load, storage_type, store
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


def emit_widening_dot(mc: ModuleContext, spec: KernelSpec, dot: Instruction, out: Buffer,
                      layout: BufferLayout) -> LoopKernel:
    """The kernel computing `dot` (both operands parameters of spec.comp) into `out`."""
    lhs_p, rhs_p = (spec.comp[o] for o in dot.operands)
    form = gemm_form(dot, lhs_p.array_shape, rhs_p.array_shape)
    assert form is not None, "widening_ok takes only dots in matrix form"
    lhs, rhs = spec.input_of(lhs_p), spec.input_of(rhs_p)
    wide = {buf: _scratch(layout, buf.shape, f"{spec.instruction}.{dot.name}.{role}")
            for buf, role in ((lhs, "lhs"), (rhs, "rhs"), (out, "out")) if buf.shape.dtype != "f32"}
    kf = LoopFunction(mc.llmod, spec.name, [lhs, rhs, *wide.values(), out], {out, *wide.values()})
    ctx = mc.emit_context(kf.builder)
    for buf in (lhs, rhs):
        if buf in wide:
            _convert(ctx.b, kf, buf, wide[buf])
    c = wide.get(out, out)
    emit_blas(ctx, form, "f32", kf.pointer(c), kf.pointer(wide.get(lhs, lhs)), kf.pointer(wide.get(rhs, rhs)))
    if out in wide:
        _convert(ctx.b, kf, c, out)
    kernel = LoopKernel(spec.name, spec.instruction, "dot-blas", kf.buffers, work=form.m * form.n * form.k * form.batch)
    kernel.notes.append(f"{lhs.shape.dtype} x {rhs.shape.dtype} -> {out.shape.dtype} gemm "
                        f"{form.batch}x[{form.m}x{form.k}]@[{form.k}x{form.n}] widened to f32 BLAS: "
                        "operands converted into arena scratch, accumulated in f32, rounded once")
    kf.finish()
    kernel.function = kf.fn
    return kernel


def _scratch(layout: BufferLayout, shape: ArrayShape, name: str) -> Buffer:
    wide = ArrayShape("f32", shape.dims)
    return layout.grow_arena(wide.byte_size, name, wide)


def _convert(b, kf, src: Buffer, dst: Buffer) -> None:
    """dst[i] = src[i] for every element, converted (f16/bf16 -> f32 or back, rounding)."""
    s_type, d_type = src.shape.dtype, dst.shape.dtype
    with for_range(b, 0, src.shape.size, "i") as i:
        value = load(b, b.gep(kf.pointer(src), [i], inbounds=True, source_etype=storage_type(s_type)), s_type)
        store(b, value, b.gep(kf.pointer(dst), [i], inbounds=True, source_etype=storage_type(d_type)), d_type)
