"""convolution: im2col + GEMM, or a direct loop nest (XLA:CPU calls Eigen or oneDNN).

    gemm    per output position p (rows [begin, end) of the partition):
                col[p, tap, c] = the input element tap `tap` of p reads (0 for padding/holes)
            then out[p, :] = col[p, :] @ W, one BLAS sgemm/dgemm over the partition's rows,
            W the kernel as a (taps * C) x O matrix, the form an HWIO kernel is stored in.
    direct  per output position p:
                row[:] = 0
                for tap: if tap reads a real element:
                    for c in the group's input features: for o in output features:
                        row[o] += in[p, tap, group(o) * Cg + c] * W[tap, c, o]
                out[p, :] = row      (converted to the result type)
            the innermost loop runs along output features: contiguous in the kernel (and in
            the input for depthwise NHWC), so LLVM vectorizes it.

The gemm path needs what BLAS needs (f32/f64 throughout, one group, the kernel stored
spatial-major with output features minor, the output position-major with features
minor) and enough features per position for a matrix product to pay; everything else,
depthwise and tiny channel counts in particular, takes the direct loops. Either way the
positions are split across threads.
"""

from __future__ import annotations

from math import prod
from typing import TYPE_CHECKING

from llvmlite import ir

from ...ir.instruction import Instruction
from ..buffers import BufferLayout
from ..conv_geometry import ConvGeometry, dot_strides, kernel_tap, split_position, tap_position
from ..gemm import GemmForm
from ..kernel_spec import KernelSpec, ModuleContext
from ..llvm_types import I1, I8, I64, PTR, VOID, constant, declared, load, storage_type, store, value_type
from ..loop_function import LoopFunction, LoopKernel
from ..loops import for_range, loop_nest
from ..scalar_convert import emit_convert
from ..scalar_ops import emit_binary
from ..unsupported import unsupported
from . import blas
from .dot_kernel import emit_blas
from .fast.library.calls import library_conv2d, library_depthwise

if TYPE_CHECKING:
    from .strategy import Strategy

GEMM_MIN_FEATURES = 8  # fewer input or output features per group: a matrix product does not pay
GEMM_BLOCK_ROWS = 128  # im2col rows per gemm call: 128 x (9 taps x 64 features) x f32 = 288 KiB, in L2


def emit_conv_kernel(mc: ModuleContext, spec: KernelSpec, layout: BufferLayout, strategy: "Strategy") -> LoopKernel:
    """The kernel of a convolution-rooted computation whose operands are its parameters, as
    its strategy says (strategy.py: the library's, im2col + gemm, or direct loops)."""
    conv = spec.comp.root_instruction
    ops = [spec.comp[o] for o in conv.operands]
    if any(o.opcode != "parameter" for o in ops):
        raise unsupported(mc.target, "convolution of computed operands inside a fusion", spec.instruction)
    geom = ConvGeometry.of(conv, ops[0].array_shape, ops[1].array_shape)
    if strategy.form == "depthwise":
        kernel = library_depthwise(mc, spec, geom)
    elif strategy.form == "im2col":
        kernel = library_conv2d(mc, spec, geom, layout)
    elif strategy.kind == "conv-gemm":
        kernel = _emit_gemm(mc, spec, geom, layout, ops)
    else:
        kernel = _emit_direct(mc, spec, geom, ops)
    kernel.notes.insert(0, strategy.reason)
    return kernel


def choose_gemm(geom: ConvGeometry, dot: str) -> tuple[bool, str]:
    """(im2col + GEMM?, why) for this convolution (see the module docstring)."""
    dtypes = {geom.lhs.dtype, geom.rhs.dtype, geom.out.dtype}
    if len(dtypes) != 1 or not blas.available(geom.out.dtype):
        return False, f"direct loops: BLAS has no {'/'.join(sorted(dtypes))} gemm"
    if dot != "blas":
        return False, "direct loops: the dot option is 'loops'"
    if geom.feature_groups > 1 or geom.batch_groups > 1:
        return False, "direct loops: grouped (depthwise-like) convolutions are no single matrix product"
    if min(geom.in_features, geom.out_features) < GEMM_MIN_FEATURES:
        return False, f"direct loops: {geom.in_features} -> {geom.out_features} features are too few for a GEMM"
    if not _kernel_is_matrix(geom) or not _output_is_matrix(geom):
        return False, "direct loops: the kernel or output layout is not a (taps*C) x O / positions x O matrix"
    shape = f"[{geom.positions}x{geom.taps * geom.in_features}]@[{geom.taps * geom.in_features}x{geom.out_features}]"
    if input_is_matrix(geom):
        return True, f"a pointwise (1x1) convolution is one {geom.out.dtype} BLAS gemm {shape} on the input as is"
    return True, f"im2col + {geom.out.dtype} BLAS gemm {shape}"


def input_is_matrix(geom: ConvGeometry) -> bool:
    """A 1x1 window that visits every input position once, over an input stored batch,
    spatial dims in order, then features (minor): the input already is im2col's matrix."""
    lb = geom.labels
    plain = all(w.size == 1 and w.stride == 1 and w.pad_low == w.pad_high == 0 and w.lhs_dilate == 1
                for w in geom.window)
    stored = tuple(reversed(geom.lhs.layout)) == (lb.input_batch, *lb.input_spatial, lb.input_feature)
    return plain and stored and geom.lhs.dims[lb.input_batch] == geom.out_batch


def _kernel_is_matrix(geom: ConvGeometry) -> bool:
    """Stored spatial dims in order, then input features, then output features (minor)."""
    lb = geom.labels
    major_to_minor = (*lb.kernel_spatial, lb.kernel_input_feature, lb.kernel_output_feature)
    return tuple(reversed(geom.rhs.layout)) == major_to_minor


def _output_is_matrix(geom: ConvGeometry) -> bool:
    """Stored batch, spatial dims in order, then features (minor)."""
    lb = geom.labels
    return tuple(reversed(geom.out.layout)) == (lb.output_batch, *lb.output_spatial, lb.output_feature)


def _emit_gemm(mc: ModuleContext, spec: KernelSpec, geom: ConvGeometry, layout: BufferLayout,
               ops: list[Instruction]) -> LoopKernel:
    k = geom.taps * geom.in_features
    dtype = geom.out.dtype
    if input_is_matrix(geom):
        return _emit_pointwise(mc, spec, geom, ops)
    col_shape = geom.out.__class__(dtype, (geom.positions, k))
    col = layout.grow_arena(col_shape.byte_size, f"{spec.instruction}.im2col", col_shape)
    lhs, rhs, out = spec.input_of(ops[0]), spec.input_of(ops[1]), spec.outputs[0]
    kf = LoopFunction(mc.llmod, spec.name, [lhs, rhs, out, col], {out, col})
    ctx = mc.emit_context(kf.builder)
    _emit_blocks(ctx, geom, k, kf.pointer(lhs), kf.pointer(rhs), kf.pointer(out), kf.pointer(col), kf.begin, kf.end)
    kf.finish()
    kernel = LoopKernel(spec.name, spec.instruction, "conv-gemm", kf.buffers, extent=geom.positions, granule=16,
                        work=geom.macs, function=kf.fn)
    kernel.notes.append(f"im2col in blocks of {GEMM_BLOCK_ROWS} positions (kept in cache), one gemm per block; "
                        "positions split across hloscope's threads, one BLAS thread each")
    return kernel


def _emit_pointwise(mc: ModuleContext, spec: KernelSpec, geom: ConvGeometry, ops: list[Instruction]) -> LoopKernel:
    """out[positions, O] = in[positions, C] @ W[C, O]: the dot kernel's BLAS call."""
    lhs, rhs, out = spec.input_of(ops[0]), spec.input_of(ops[1]), spec.outputs[0]
    kf = LoopFunction(mc.llmod, spec.name, [lhs, rhs, out], {out})
    ctx = mc.emit_context(kf.builder)
    form = GemmForm(1, geom.positions, geom.out_features, geom.in_features, False, False)
    emit_blas(ctx, form, geom.out.dtype, kf.pointer(out), kf.pointer(lhs), kf.pointer(rhs), kf.begin, kf.end)
    kf.finish()
    kernel = LoopKernel(spec.name, spec.instruction, "conv-gemm", kf.buffers, extent=geom.positions, granule=16,
                        work=geom.macs, function=kf.fn)
    kernel.notes.append("no im2col: positions split across hloscope's threads, one BLAS thread each")
    return kernel


def _emit_blocks(ctx, geom: ConvGeometry, k: int, lhs, rhs, out, col, begin, end) -> None:
    """Rows [begin, end) in blocks of GEMM_BLOCK_ROWS: each block's im2col rows are written
    to the partition's first scratch rows (so they stay in cache) and multiplied at once."""
    b = ctx.b
    size = geom.out.element_type.byte_size
    blocks = b.udiv(b.add(b.sub(end, begin), I64(GEMM_BLOCK_ROWS - 1)), I64(GEMM_BLOCK_ROWS))
    with for_range(b, 0, blocks, "block") as i:
        lo = b.add(begin, b.mul(i, I64(GEMM_BLOCK_ROWS)))
        hi = b.add(lo, I64(GEMM_BLOCK_ROWS))
        hi = b.select(b.icmp_signed("<", hi, end), hi, end)
        _emit_im2col(b, geom, lhs, col, lo, hi, b.sub(begin, lo))
        # emit_blas reads A from row `lo` of its lhs: point it (begin - lo) rows back, to `begin`
        shifted = b.gep(col, [b.mul(b.sub(begin, lo), I64(k * size))], source_etype=I8)
        form = GemmForm(1, geom.positions, geom.out_features, k, False, False)
        emit_blas(ctx, form, geom.out.dtype, out, shifted, rhs, lo, hi)


def _emit_im2col(b: ir.IRBuilder, geom: ConvGeometry, lhs: ir.Value, col: ir.Value, begin, end, shift) -> None:
    """col[p + shift, kernel tap, c] for positions p in [begin, end): the input element or 0."""
    ls, _, _ = geom.strides()
    lb, dtype, c_count = geom.labels, geom.out.dtype, geom.in_features
    ety = storage_type(dtype)
    sizes = [w.size for w in geom.window]
    tap_strides = [prod(sizes[i + 1:]) * c_count for i in range(len(sizes))]
    with for_range(b, begin, end, "p") as p:
        batch, out_sp = split_position(b, geom, p)
        with loop_nest(b, [(0, s) for s in sizes], [f"t{i}" for i in range(len(sizes))]) as tap:
            real, in_sp = tap_position(b, geom, out_sp, tap)
            row = b.add(b.mul(b.add(p, shift), I64(geom.taps * c_count)), dot_strides(b, kernel_tap(b, geom, tap), tap_strides))
            with b.if_else(real) as (then, otherwise):
                with then:
                    base = b.add(b.mul(batch, I64(ls[lb.input_batch])),
                                 dot_strides(b, in_sp, [ls[d] for d in lb.input_spatial]))
                    if ls[lb.input_feature] == 1:  # features contiguous (NHWC): one copy of the run
                        _copy(b, b.gep(col, [row], inbounds=True, source_etype=ety),
                              b.gep(lhs, [base], inbounds=True, source_etype=ety), c_count * geom.out.element_type.byte_size)
                    else:
                        with for_range(b, 0, c_count, "c") as c:
                            src = b.gep(lhs, [b.add(base, b.mul(c, I64(ls[lb.input_feature])))], inbounds=True,
                                        source_etype=ety)
                            dst = b.gep(col, [b.add(row, c)], inbounds=True, source_etype=ety)
                            b.store(b.load(src, typ=ety), dst)
                with otherwise:  # the padding: zeros
                    _zero(b, b.gep(col, [row], inbounds=True, source_etype=ety), c_count * geom.out.element_type.byte_size)


def _copy(b: ir.IRBuilder, dst, src, size: int) -> None:
    """llvm.memcpy of `size` bytes: the code generator writes it as a few vector moves, where a
    copy loop would cost the vectorizer's work (a third of the kernel's LLVM time)."""
    fn = declared(b.module, "llvm.memcpy.p0.p0.i64", ir.FunctionType(VOID, [PTR, PTR, I64, I1]))
    b.call(fn, [dst, src, I64(size), I1(0)])


def _zero(b: ir.IRBuilder, dst, size: int) -> None:
    fn = declared(b.module, "llvm.memset.p0.i64", ir.FunctionType(VOID, [PTR, I8, I64, I1]))
    b.call(fn, [dst, I8(0), I64(size), I1(0)])


def _emit_direct(mc: ModuleContext, spec: KernelSpec, geom: ConvGeometry, ops: list[Instruction]) -> LoopKernel:
    lhs, rhs, out = spec.input_of(ops[0]), spec.input_of(ops[1]), spec.outputs[0]
    kf = LoopFunction(mc.llmod, spec.name, [lhs, rhs, out], {out})
    ctx = mc.emit_context(kf.builder)
    b, acc = ctx.b, geom.acc_dtype
    # one position's sums, in the entry block like every stack slot
    row = ir.IRBuilder(kf.slots).alloca(value_type(acc), size=I64(max(1, geom.out_features)), name="row")
    ls, ks, os_ = geom.strides()
    lb = geom.labels
    o_count, cg = geom.out_features, geom.group_in_features
    per_fgroup, per_bgroup = o_count // geom.feature_groups, o_count // geom.batch_groups
    with for_range(b, kf.begin, kf.end, "p") as p:
        batch, out_sp = split_position(b, geom, p)

        def slot(o):
            return b.gep(row, [o], inbounds=True, source_etype=value_type(acc))

        with for_range(b, 0, o_count, "o0") as o:
            b.store(constant(acc, 0), slot(o))
        sizes = [w.size for w in geom.window]
        with loop_nest(b, [(0, s) for s in sizes], [f"t{i}" for i in range(len(sizes))]) as tap:
            real, in_sp = tap_position(b, geom, out_sp, tap)
            with b.if_then(real):
                in_base = dot_strides(b, in_sp, [ls[d] for d in lb.input_spatial])
                k_base = dot_strides(b, kernel_tap(b, geom, tap), [ks[d] for d in lb.kernel_spatial])
                with for_range(b, 0, cg, "c") as c, for_range(b, 0, o_count, "o") as o:
                    fgroup = b.udiv(o, I64(per_fgroup)) if geom.feature_groups > 1 else I64(0)
                    in_batch = batch
                    if geom.batch_groups > 1:
                        in_batch = b.add(b.mul(b.udiv(o, I64(per_bgroup)), I64(geom.out_batch)), batch)
                    feature = b.add(b.mul(fgroup, I64(cg)), c)
                    x_at = b.add(in_base, b.add(b.mul(in_batch, I64(ls[lb.input_batch])),
                                                b.mul(feature, I64(ls[lb.input_feature]))))
                    w_at = b.add(k_base, b.add(b.mul(c, I64(ks[lb.kernel_input_feature])),
                                               b.mul(o, I64(ks[lb.kernel_output_feature]))))
                    x = _element(ctx, kf.pointer(lhs), x_at, geom.lhs.dtype, acc)
                    w = _element(ctx, kf.pointer(rhs), w_at, geom.rhs.dtype, acc)
                    b.store(_madd(ctx, b.load(slot(o)), x, w, acc), slot(o))
        out_base = b.add(b.mul(batch, I64(os_[lb.output_batch])),
                         dot_strides(b, out_sp, [os_[d] for d in lb.output_spatial]))
        with for_range(b, 0, o_count, "o1") as o:
            at = b.add(out_base, b.mul(o, I64(os_[lb.output_feature])))
            ptr = b.gep(kf.pointer(out), [at], inbounds=True, source_etype=storage_type(geom.out.dtype))
            store(b, emit_convert(ctx.scalar, b.load(slot(o)), acc, geom.out.dtype), ptr, geom.out.dtype)
    kf.finish()
    kernel = LoopKernel(spec.name, spec.instruction, "conv-direct", kf.buffers, extent=geom.positions,
                        work=geom.macs, function=kf.fn)
    kernel.notes.append(f"{geom.positions} positions x {geom.taps} taps x {cg} input features x {o_count} "
                        f"outputs, accumulated in {acc}; positions split across threads")
    return kernel


def _element(ctx, ptr, offset, dtype: str, acc: str):
    p = ctx.b.gep(ptr, [offset], inbounds=True, source_etype=storage_type(dtype))
    return emit_convert(ctx.scalar, load(ctx.b, p, dtype), dtype, acc)


def _madd(ctx, acc_value, x, y, dtype: str):
    """acc + x*y (an FMA for floats where the CPU has one)."""
    if dtype in ("f32", "f64"):
        return ctx.scalar.call("fmuladd", x, y, acc_value)
    return emit_binary(ctx.scalar, "add", acc_value, emit_binary(ctx.scalar, "multiply", x, y, dtype), dtype)


