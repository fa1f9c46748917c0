"""The library's kernels, as LLVM IR: written once for any size, the sizes are arguments.

    T hloscope_reduce_<op>_<t>(ptr x, i64 n, T init)
        init op x[0] op ... op x[n-1], op add, maximum or minimum, t f32 or f64;
        reassociated (several vector accumulators), as generated reductions are by default
    void hloscope_depthwise_conv2d_<t>(ptr x, ptr w, ptr out, ptr geometry, i64 begin, i64 end)
        the output positions [begin, end) of a 2-D depthwise convolution, one feature per
        group, features contiguous (stride 1) in x, w and out; `geometry` is an i64 array
        with GEOMETRY's fields

The loops are the ones generated kernels have, with sizes read at run time instead of
constants, so LLVM vectorizes them the same way (with a remainder loop).
"""

from __future__ import annotations

from llvmlite import ir

from ...llvm_types import I64, PTR, VOID
from ...loops import for_range

TYPES = {"f32": ir.FloatType(), "f64": ir.DoubleType()}
REDUCERS = ("add", "maximum", "minimum")
FLAGS = ("reassoc", "nsz")  # the generated reductions' flags (reassociate_reductions, the default)

# The depthwise kernel's geometry, in this order: sizes, then window, then element strides
# (the feature stride is 1 in every array).
GEOMETRY = ("out_h", "out_w", "in_h", "in_w", "features", "window_h", "window_w",
            "stride_h", "stride_w", "pad_h", "pad_w", "dilation_h", "dilation_w",
            "x_batch", "x_h", "x_w", "w_h", "w_w", "out_batch", "out_h_stride", "out_w_stride")


def reduce_name(op: str, dtype: str) -> str:
    return f"hloscope_reduce_{op}_{dtype}"


def depthwise_name(dtype: str) -> str:
    return f"hloscope_depthwise_conv2d_{dtype}"


def symbols() -> list[str]:
    return ([reduce_name(op, t) for op in REDUCERS for t in TYPES] + [depthwise_name(t) for t in TYPES])


def library_module() -> ir.Module:
    m = ir.Module(name="hloscope_library")
    for t in TYPES:
        for op in REDUCERS:
            _reduce(m, op, t)
        _depthwise(m, t)
    return m


def _reduce(m: ir.Module, op: str, dtype: str) -> None:
    ty = TYPES[dtype]
    fn = ir.Function(m, ir.FunctionType(ty, [PTR, I64, ty]), reduce_name(op, dtype))
    x, n, init = fn.args
    x.add_attribute("noalias")
    fn.attributes.add("nounwind")
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    acc = b.alloca(ty, name="acc")
    b.store(init, acc)
    with for_range(b, 0, n, "i") as i:
        value = b.load(b.gep(x, [i], inbounds=True, source_etype=ty), typ=ty)
        b.store(_combine(m, b, op, ty, b.load(acc, typ=ty), value), acc)
    b.ret(b.load(acc, typ=ty))


def _combine(m: ir.Module, b: ir.IRBuilder, op: str, ty: ir.Type, acc: ir.Value, value: ir.Value) -> ir.Value:
    if op == "add":
        return b.fadd(acc, value, flags=FLAGS)  # pyright: ignore[reportCallIssue]  # llvmlite's binop wrapper hides `flags`
    return b.call(_intrinsic(m, op, ty, 2), [acc, value], fastmath=FLAGS)


def _intrinsic(m: ir.Module, op: str, ty: ir.Type, arity: int) -> ir.Function:
    name = f"llvm.{op}.{'f32' if ty == ir.FloatType() else 'f64'}"
    found = m.globals.get(name)
    return found if isinstance(found, ir.Function) else ir.Function(m, ir.FunctionType(ty, [ty] * arity), name)


def _depthwise(m: ir.Module, dtype: str) -> None:
    """for each output position p in [begin, end):   (p = (batch * out_h + oh) * out_w + ow)
           out[p, :] = 0
           for each tap (kh, kw) inside the padded input:
               out[p, c] += x[batch, ih, iw, c] * w[kh, kw, c]    for every feature c  <- vectorized"""
    ty = TYPES[dtype]
    fn = ir.Function(m, ir.FunctionType(VOID, [PTR, PTR, PTR, PTR, I64, I64]), depthwise_name(dtype))
    x, w, out, geometry, begin, end = fn.args
    for arg in (x, w, out, geometry):
        arg.add_attribute("noalias")
    fn.attributes.add("nounwind")
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    fmuladd = _intrinsic(m, "fmuladd", ty, 3)  # x*w + acc, fused where the CPU has FMA (as generated convolutions)
    g = {name: b.load(b.gep(geometry, [I64(k)], inbounds=True, source_etype=I64), typ=I64, name=name)
         for k, name in enumerate(GEOMETRY)}

    def element(base, offset):
        return b.gep(base, [offset], inbounds=True, source_etype=ty)

    def inside(value, size):
        return b.and_(b.icmp_signed(">=", value, I64(0)), b.icmp_signed("<", value, size))

    with for_range(b, begin, end, "p") as p:
        row = b.sdiv(p, g["out_w"])
        ow = b.srem(p, g["out_w"])
        batch, oh = b.sdiv(row, g["out_h"]), b.srem(row, g["out_h"])
        out_row = element(out, b.add(b.mul(batch, g["out_batch"]),
                                     b.add(b.mul(oh, g["out_h_stride"]), b.mul(ow, g["out_w_stride"]))))
        with for_range(b, 0, g["features"], "z", interleave=False) as c:
            b.store(ir.Constant(ty, 0.0), element(out_row, c))
        with for_range(b, 0, g["window_h"], "kh") as kh:
            ih = b.add(b.sub(b.mul(oh, g["stride_h"]), g["pad_h"]), b.mul(kh, g["dilation_h"]))
            with b.if_then(inside(ih, g["in_h"])):
                with for_range(b, 0, g["window_w"], "kw") as kw:
                    iw = b.add(b.sub(b.mul(ow, g["stride_w"]), g["pad_w"]), b.mul(kw, g["dilation_w"]))
                    with b.if_then(inside(iw, g["in_w"])):
                        x_row = element(x, b.add(b.mul(batch, g["x_batch"]),
                                                 b.add(b.mul(ih, g["x_h"]), b.mul(iw, g["x_w"]))))
                        w_row = element(w, b.add(b.mul(kh, g["w_h"]), b.mul(kw, g["w_w"])))
                        with for_range(b, 0, g["features"], "c") as c:
                            at = element(out_row, c)
                            terms = [b.load(element(x_row, c), typ=ty), b.load(element(w_row, c), typ=ty), b.load(at, typ=ty)]
                            b.store(b.call(fmuladd, terms), at)
    b.ret_void()
