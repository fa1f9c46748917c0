"""Kernels that call the library: when one fits, and the small function that calls it.

A library kernel keeps the shape every CPU kernel has (its buffers, then [begin, end) of its
partitioned dimension), so the entry, the thread pool and row chains run it like any other;
its body is a call with the sizes as constants. What fits:

    reduce      the computation is one reduce of a parameter (f32/f64) over its minor,
                contiguous dimensions, by add/maximum/minimum: a row at a time, or, for a
                full reduction split in chunks (split_reduce.py), each chunk from the op's
                identity (0, -inf, +inf), then the chunks from the reduce's initial value
    depthwise   a 2-D convolution of two parameters with one input feature per group and
                one output feature per group, features contiguous in every array, no
                input dilation and no reversed window (f32/f64)
    conv2d      a 2-D ungrouped convolution the generated kernel would run as im2col + gemm
                (conv_kernel.py), features contiguous in its input, no input dilation or
                reversed window (f32/f64, where a BLAS gemm is)

Sums are reassociated (the library's vector accumulators), so they are used only where
generated sums would be too (`reassociate_reductions`, the default).
"""

from __future__ import annotations

from math import prod
from typing import NamedTuple

from llvmlite import ir

from .....ir.computation import Computation
from .....ir.instruction import Instruction
from .....ir.module import HloModule
from .....ir.shape import ArrayShape
from ....buffers import ArrayStorage, BufferLayout
from ....conv_geometry import ConvGeometry
from ....elemental_reduce import simple_reducer
from ....index import is_default_physical
from ....kernel_spec import KernelSpec, ModuleContext
from ....llvm_types import I64, PTR, VOID, declared, internal_global, left_unoptimized
from ....loop_function import LoopFunction, LoopKernel
from ....loops import for_range
from ...split_reduce import identity
from .conv import BLOCK as CONV_BLOCK
from .conv import GEOMETRY as CONV_GEOMETRY
from .conv import conv_name, conv_symbols
from .source import GEOMETRY, REDUCERS, TYPES, depthwise_name, reduce_name

NOTE = "calls hloscope's library kernel {name} (compiled once per process for any size)"


class PlainReduce(NamedTuple):
    """A reduction the library takes. The initial value is a parameter (a constant the
    kernel reads) or a constant of the computation."""

    op: str
    source: Instruction  # the parameter reduced
    init: Instruction
    out: ArrayStorage
    reduced: list[int]  # the minor dimensions


def library_reduce(mc: ModuleContext, spec: KernelSpec, found: PlainReduce, chunks: int,
                   layout: BufferLayout) -> list[LoopKernel]:
    """The library kernels of a reduction it takes (plain_reduce): one over rows, or for a
    full reduction split in `chunks` > 1, the partials' and the combine's."""
    op, source, init, out, reduced = found
    shape = source.array_shape
    if chunks > 1 and len(reduced) == shape.rank:
        scratch = layout.grow_arena(chunks * out.size, f"{spec.instruction}.partials",
                                    ArrayShape(out.shape.dtype, (chunks,)))
        return [_partials(mc, spec, op, spec.input_of(source), scratch, chunks, shape.size),
                _combine(mc, spec, op, init, scratch, out, chunks)]
    return [_rows(mc, spec, op, spec.input_of(source), init, out, shape, len(reduced))]


def plain_reduce(hlo: HloModule, comp: Computation, parts) -> PlainReduce | None:
    """The reduction computed by `comp` when the library takes it (see the module
    docstring), else None. (Only where sums may be reassociated: the caller asks.)"""
    heroes, sides, others = parts
    if len(heroes) != 1 or sides or others:
        return None
    hero, outs = heroes[0]
    if comp.root_instruction is not hero or len(hero.operands) != 2 or len(outs) != 1:
        return None
    source, init = (comp[o] for o in hero.operands)
    op = simple_reducer(hlo, hero.attr("to_apply"))
    if source.opcode != "parameter" or op not in REDUCERS:
        return None
    if init.opcode != "parameter" and _scalar(init) is None:
        return None
    shape, out = source.array_shape, outs[0]
    if shape.dtype not in TYPES or out.shape.dtype != shape.dtype:
        return None
    if not (is_default_physical(shape) and is_default_physical(out.shape)):
        return None
    reduced = sorted(hero.attr("dimensions"))
    if not reduced or reduced != list(range(shape.rank - len(reduced), shape.rank)):
        return None  # not the minor dimensions: a row would not be contiguous
    return PlainReduce(op, source, init, out, reduced)


def _scalar(inst) -> float | None:
    literal = getattr(inst, "literal", None)
    if inst.opcode != "constant" or literal is None or literal.elided or getattr(literal.value, "size", 0) != 1:
        return None
    return float(literal.value.reshape(()))


def _reduce_function(mc: ModuleContext, op: str, dtype: str) -> ir.Function:
    ty = TYPES[dtype]
    return declared(mc.llmod, reduce_name(op, dtype), ir.FunctionType(ty, [PTR, I64, ty]))


def _element(b: ir.IRBuilder, ptr: ir.Value, at, dtype: str) -> ir.Value:
    return b.gep(ptr, [at], inbounds=True, source_etype=TYPES[dtype])


def _initial(b: ir.IRBuilder, kf: LoopFunction, spec: KernelSpec, init, dtype: str) -> ir.Value:
    if init.opcode == "parameter":
        return b.load(_element(b, kf.pointer(spec.input_of(init)), I64(0), dtype), typ=TYPES[dtype])
    return ir.Constant(TYPES[dtype], _scalar(init))


def _init_buffers(spec: KernelSpec, init) -> list[ArrayStorage]:
    return [spec.input_of(init)] if init.opcode == "parameter" else []


def _rows(mc, spec, op, source: ArrayStorage, init, out: ArrayStorage, shape: ArrayShape, reduced: int) -> LoopKernel:
    """for r in the partition's rows: out[r] = reduce(x[r*n : (r+1)*n]). The partitioned
    dimension is the first kept one (each step of it is `inner` rows), as in reduce_kernel."""
    dtype, kept = shape.dtype, shape.dims[:shape.rank - reduced]
    n, inner = prod(shape.dims[shape.rank - reduced:]), prod(kept[1:])
    kf = LoopFunction(mc.llmod, spec.name, [source, *_init_buffers(spec, init), out], {out})
    b = kf.builder
    fn = _reduce_function(mc, op, dtype)
    start = _initial(b, kf, spec, init, dtype)
    begin, end = (b.mul(kf.begin, I64(inner)), b.mul(kf.end, I64(inner))) if kept else (I64(0), I64(1))
    with for_range(b, begin, end, "row") as r:
        row = _element(b, kf.pointer(source), b.mul(r, I64(n)), dtype)
        b.store(b.call(fn, [row, I64(n), start]), _element(b, kf.pointer(out), r, dtype))
    kf.finish()
    kernel = LoopKernel(spec.name, spec.instruction, "library-reduce", kf.buffers,
                        extent=kept[0] if kept else 1, work=shape.size, function=kf.fn)
    kernel.notes.append(NOTE.format(name=fn.name) + f": {op} over rows of {n}")
    return kernel


def _partials(mc, spec, op, source: ArrayStorage, scratch: ArrayStorage, chunks: int, size: int) -> LoopKernel:
    """partial[c] = reduce(chunk c of x) for the partition's chunks [begin, end)."""
    dtype = scratch.shape.dtype
    kf = LoopFunction(mc.llmod, spec.name + ".partials", [source, scratch], {scratch})
    b = kf.builder
    fn = _reduce_function(mc, op, dtype)
    with for_range(b, kf.begin, kf.end, "chunk") as c:
        lo = b.udiv(b.mul(c, I64(size)), I64(chunks))
        hi = b.udiv(b.mul(b.add(c, I64(1)), I64(size)), I64(chunks))
        start = ir.Constant(TYPES[dtype], identity(op, dtype))
        value = b.call(fn, [_element(b, kf.pointer(source), lo, dtype), b.sub(hi, lo), start])
        b.store(value, _element(b, kf.pointer(scratch), c, dtype))
    kf.finish()
    left_unoptimized(kf.fn)
    kernel = LoopKernel(spec.name + ".partials", spec.instruction, "library-reduce-partials", kf.buffers,
                        extent=chunks, work=size, function=kf.fn)
    kernel.notes.append(NOTE.format(name=fn.name) + f": {op} of each of {chunks} chunks")
    return kernel


def _combine(mc, spec, op, init, scratch: ArrayStorage, out: ArrayStorage, chunks: int) -> LoopKernel:
    """out = reduce(partials) from the reduce's initial value."""
    dtype = out.shape.dtype
    kf = LoopFunction(mc.llmod, spec.name, [*_init_buffers(spec, init), scratch, out], {out})
    b = kf.builder
    fn = _reduce_function(mc, op, dtype)
    value = b.call(fn, [kf.pointer(scratch), I64(chunks), _initial(b, kf, spec, init, dtype)])
    b.store(value, _element(b, kf.pointer(out), I64(0), dtype))
    kf.finish()
    left_unoptimized(kf.fn)
    kernel = LoopKernel(spec.name, spec.instruction, "library-reduce-combine", kf.buffers, function=kf.fn)
    kernel.notes.append(NOTE.format(name=fn.name) + f": {op} of the {chunks} partial results")
    return kernel


def library_depthwise(mc: ModuleContext, spec: KernelSpec, geom: ConvGeometry) -> LoopKernel:
    """The library kernel for this convolution (depthwise_fits: see the module docstring)."""
    ops = [spec.comp[o] for o in spec.comp.root_instruction.operands]
    lhs, rhs, out = spec.input_of(ops[0]), spec.input_of(ops[1]), spec.outputs[0]
    dtype = geom.out.dtype
    kf = LoopFunction(mc.llmod, spec.name, [lhs, rhs, out], {out})
    b = kf.builder
    fn = declared(mc.llmod, depthwise_name(dtype), ir.FunctionType(VOID, [PTR, PTR, PTR, PTR, I64, I64]))
    table = _table(mc, f"{spec.name}.geometry", _geometry(geom))
    b.call(fn, [kf.pointer(lhs), kf.pointer(rhs), kf.pointer(out), table, kf.begin, kf.end])
    kf.finish()
    left_unoptimized(kf.fn)
    kernel = LoopKernel(spec.name, spec.instruction, "library-conv", kf.buffers, extent=geom.positions,
                        work=geom.macs, function=kf.fn)
    kernel.notes.append(NOTE.format(name=fn.name) + f": {geom.positions} positions x {geom.taps} taps x "
                        f"{geom.out_features} features; positions split across threads")
    return kernel


def depthwise_fits(geom: ConvGeometry) -> bool:
    dtypes = {geom.lhs.dtype, geom.rhs.dtype, geom.out.dtype}
    if len(dtypes) != 1 or geom.out.dtype not in TYPES or len(geom.window) != 2 or geom.batch_groups != 1:
        return False
    if geom.group_in_features != 1 or geom.feature_groups != geom.in_features or geom.out_features != geom.in_features:
        return False
    if any(w.lhs_dilate != 1 or w.reversal for w in geom.window):
        return False
    ls, ks, os_ = geom.strides()
    lb = geom.labels
    return ls[lb.input_feature] == 1 and ks[lb.kernel_output_feature] == 1 and os_[lb.output_feature] == 1


def _geometry(geom: ConvGeometry) -> list[int]:
    """GEOMETRY's fields for this convolution."""
    ls, ks, os_ = geom.strides()
    lb = geom.labels
    (wh, ww), (ih, iw), (oh, ow) = geom.window, geom.in_spatial, geom.out_spatial
    fields = {
        "out_h": oh, "out_w": ow, "in_h": ih, "in_w": iw, "features": geom.out_features,
        "window_h": wh.size, "window_w": ww.size, "stride_h": wh.stride, "stride_w": ww.stride,
        "pad_h": wh.pad_low, "pad_w": ww.pad_low, "dilation_h": wh.rhs_dilate, "dilation_w": ww.rhs_dilate,
        "x_batch": ls[lb.input_batch], "x_h": ls[lb.input_spatial[0]], "x_w": ls[lb.input_spatial[1]],
        "w_h": ks[lb.kernel_spatial[0]], "w_w": ks[lb.kernel_spatial[1]],
        "out_batch": os_[lb.output_batch], "out_h_stride": os_[lb.output_spatial[0]],
        "out_w_stride": os_[lb.output_spatial[1]],
    }
    return [fields[name] for name in GEOMETRY]


def _table(mc: ModuleContext, name: str, values: list[int]) -> ir.GlobalVariable:
    """A constant i64 array: a kernel's sizes, as the library's kernels take them."""
    table_type = ir.ArrayType(I64, len(values))
    table = internal_global(mc.llmod, table_type, mc.unique_name(name), ir.Constant(table_type, [I64(v) for v in values]),
                            align=8)
    table.global_constant = True
    return table


def conv2d_fits(geom: ConvGeometry) -> bool:
    """The library's im2col convolution (conv.py) takes it: a 2-D, ungrouped f32/f64
    convolution that conv_kernel takes as im2col + gemm, with features contiguous in its
    input and no input dilation or reversed window (the caller checks the gemm part)."""
    if len(geom.window) != 2 or any(w.lhs_dilate != 1 or w.reversal for w in geom.window):
        return False
    dtype = geom.out.dtype
    ls, _, _ = geom.strides()
    return {geom.lhs.dtype, geom.rhs.dtype} == {dtype} and conv_name(dtype) in conv_symbols() \
        and ls[geom.labels.input_feature] == 1


def library_conv2d(mc: ModuleContext, spec: KernelSpec, geom: ConvGeometry, layout: BufferLayout) -> LoopKernel:
    """The library's im2col convolution for this one (conv2d_fits)."""
    dtype = geom.out.dtype
    ls, _, _ = geom.strides()
    lb = geom.labels
    ops = [spec.comp[o] for o in spec.comp.root_instruction.operands]
    lhs, rhs, out = spec.input_of(ops[0]), spec.input_of(ops[1]), spec.outputs[0]
    k = geom.taps * geom.in_features
    col_shape = ArrayShape(dtype, (geom.positions, k))
    col = layout.grow_arena(col_shape.byte_size, f"{spec.instruction}.im2col", col_shape)
    kf = LoopFunction(mc.llmod, spec.name, [lhs, rhs, out, col], {out, col})
    fn = declared(mc.llmod, conv_name(dtype), ir.FunctionType(VOID, [PTR] * 5 + [I64, I64]))
    (wh, ww), (ih, iw), (oh, ow) = geom.window, geom.in_spatial, geom.out_spatial
    fields = {"out_h": oh, "out_w": ow, "in_h": ih, "in_w": iw, "features_in": geom.in_features,
              "features_out": geom.out_features, "window_h": wh.size, "window_w": ww.size, "stride_h": wh.stride,
              "stride_w": ww.stride, "pad_h": wh.pad_low, "pad_w": ww.pad_low, "dilation_h": wh.rhs_dilate,
              "dilation_w": ww.rhs_dilate, "x_batch": ls[lb.input_batch], "x_h": ls[lb.input_spatial[0]],
              "x_w": ls[lb.input_spatial[1]]}
    table = _table(mc, f"{spec.name}.geometry", [fields[name] for name in CONV_GEOMETRY])
    kf.builder.call(fn, [*(kf.pointer(buf) for buf in (lhs, rhs, out, col)), table, kf.begin, kf.end])
    kf.finish()
    left_unoptimized(kf.fn)
    kernel = LoopKernel(spec.name, spec.instruction, "library-conv", kf.buffers, extent=geom.positions, granule=16,
                        work=geom.macs, function=kf.fn)
    kernel.notes.append(NOTE.format(name=fn.name) + f": im2col rows in blocks of {CONV_BLOCK} positions (kept in "
                        f"cache), one {dtype} gemm [block x {k}]@[{k}x{geom.out_features}] each; positions split "
                        "across hloscope's threads, one BLAS thread each")
    return kernel
