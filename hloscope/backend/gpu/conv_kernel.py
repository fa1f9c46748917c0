"""convolution on the GPU: a direct kernel, one output element per thread, grid-stride.

    for i in this thread's output elements (physical order, so a warp's stores coalesce):
        (batch, o, spatial) = the logical index of element i
        acc = 0                                           (f32 for 16-bit results)
        for tap in the window: if tap reads a real input element (not padding, not a hole):
            for c in the input features of o's group:
                acc += in[batch', group(o) * Cg + c, input position] * W[tap, c, o]
        out[i] = acc

`batch'` is batch itself, or batch + (o's batch group) * output batch with
batch_group_count > 1. No shared-memory tiling: XLA hands convolutions to cuDNN; this is
the plain, always-correct form.
"""

from __future__ import annotations

from llvmlite import ir

from ..conv_geometry import ConvGeometry, dot_strides, kernel_tap, physical_strides, tap_position
from ..kernel_spec import KernelSpec
from ..llvm_types import I64, constant, emitted, load, storage_type, store, value_type
from ..loops import for_range, loop_nest
from ..scalar_convert import emit_convert
from ..scalar_ops import emit_binary
from ..unsupported import unsupported
from .kernel import GpuKernel, GpuKernelFunction, GpuModuleContext, Launch, grid_for
from .loop_kernel import block_for


def emit_conv_kernel(mc: GpuModuleContext, spec: KernelSpec) -> GpuKernel:
    conv = spec.comp.root_instruction
    ops = [spec.comp[o] for o in conv.operands]
    if any(o.opcode != "parameter" for o in ops):
        raise unsupported(mc.target, "convolution of computed operands inside a fusion", spec.instruction)
    geom = ConvGeometry.of(conv, ops[0].array_shape, ops[1].array_shape)
    lhs, rhs, out = spec.input_of(ops[0]), spec.input_of(ops[1]), spec.outputs[0]
    kf = GpuKernelFunction(mc, spec.name, [lhs, rhs, out], {out})
    ctx = mc.emit_context(kf.builder)
    b, acc_type = ctx.b, geom.acc_dtype
    acc = ctx.alloca(value_type(acc_type), "acc")
    n = geom.out.size
    with kf.grid_stride(n, "i") as i:
        index = _logical_index(b, geom, i)
        lb = geom.labels
        batch, o = index[lb.output_batch], index[lb.output_feature]
        b.store(constant(acc_type, 0), acc)
        _accumulate(ctx, geom, kf.pointer(lhs), kf.pointer(rhs), acc, batch, o,
                    [index[d] for d in lb.output_spatial])
        ptr = b.gep(kf.pointer(out), [i], inbounds=True, source_etype=storage_type(geom.out.dtype))
        store(b, emit_convert(ctx.scalar, b.load(acc), acc_type, geom.out.dtype), ptr, geom.out.dtype)
    block = block_for(n, mc.block_size)
    kf.finish((block, 1, 1))
    launch = Launch((grid_for(n, block), 1, 1), (block, 1, 1), kf.shared_bytes)
    kernel = GpuKernel(kf.fn.name, spec.instruction, "conv-direct", kf.buffers, launch, function=kf.fn, elements=n)
    kernel.notes.append(f"{geom.describe()}: direct, one output element per thread ({geom.taps} taps x "
                        f"{geom.group_in_features} input features each, accumulated in {acc_type})")
    return kernel


def _logical_index(b: ir.IRBuilder, geom: ConvGeometry, i: ir.Value) -> list[ir.Value]:
    """The logical index of physical element i of the output."""
    strides = physical_strides(geom.out)
    return [emitted(b.urem(b.udiv(i, I64(s)), I64(size))) for s, size in zip(strides, geom.out.dims)]


def _accumulate(ctx, geom: ConvGeometry, lhs, rhs, acc, batch, o, out_sp) -> None:
    """acc += every (tap, input feature) product output element (batch, o, out_sp) sums."""
    b, lb = ctx.b, geom.labels
    ls, ks = physical_strides(geom.lhs), physical_strides(geom.rhs)
    o_count, cg = geom.out_features, geom.group_in_features
    fgroup = b.udiv(o, I64(o_count // geom.feature_groups)) if geom.feature_groups > 1 else I64(0)
    in_batch = batch
    if geom.batch_groups > 1:
        in_batch = b.add(b.mul(b.udiv(o, I64(o_count // geom.batch_groups)), I64(geom.out_batch)), batch)
    sizes = [w.size for w in geom.window]
    with loop_nest(b, [(0, s) for s in sizes], [f"t{k}" for k in range(len(sizes))]) as tap:
        real, in_sp = tap_position(b, geom, out_sp, tap)
        with b.if_then(real):
            x_base = b.add(dot_strides(b, in_sp, [ls[d] for d in lb.input_spatial]),
                           b.mul(in_batch, I64(ls[lb.input_batch])))
            w_base = b.add(dot_strides(b, kernel_tap(b, geom, tap), [ks[d] for d in lb.kernel_spatial]),
                           b.mul(o, I64(ks[lb.kernel_output_feature])))
            with for_range(b, 0, cg, "c") as c:
                feature = b.add(b.mul(fgroup, I64(cg)), c)
                x = _element(ctx, lhs, b.add(x_base, b.mul(feature, I64(ls[lb.input_feature]))), geom.lhs.dtype,
                             geom.acc_dtype)
                w = _element(ctx, rhs, b.add(w_base, b.mul(c, I64(ks[lb.kernel_input_feature]))), geom.rhs.dtype,
                             geom.acc_dtype)
                b.store(_madd(ctx, b.load(acc), x, w, geom.acc_dtype), acc)


def _element(ctx, ptr, offset, dtype: str, acc: str):
    p = ctx.b.gep(ptr, [offset], inbounds=True, source_etype=storage_type(dtype))
    return emit_convert(ctx.scalar, load(ctx.b, p, dtype), dtype, acc)


def _madd(ctx, acc_value, x, y, dtype: str):
    product = emit_binary(ctx.scalar, "multiply", x, y, dtype)
    return emit_binary(ctx.scalar, "add", acc_value, product, dtype)
