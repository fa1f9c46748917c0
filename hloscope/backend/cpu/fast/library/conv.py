"""The library's 2-D convolution: im2col rows a block at a time, one gemm per block, any size.

    void hloscope_conv2d_gemm_<t>(ptr x, ptr w, ptr out, ptr col, ptr geometry, i64 begin, i64 end)

the output positions [begin, end) (batch-major, then row-major over the output), as the
generated kernel computes them (conv_kernel.py): for each block of BLOCK positions, the
rows [taps x features] of the positions' input windows are written to the partition's first
rows of `col` (so they stay in cache), zeros where a tap falls in the padding, and the
block's outputs are one single-threaded gemm with the kernel, a (taps x features) x
out_features matrix. Features are contiguous in x, w is that matrix, out is positions x
out_features; `geometry` is an i64 array with GEOMETRY's fields (elements, not bytes).
Present only where a BLAS gemm is (blas.py).
"""

from __future__ import annotations

from llvmlite import ir

from ... import blas
from ....llvm_types import I8, I32, I64, PTR, VOID, declared
from ....loops import for_range

GEOMETRY = ("out_h", "out_w", "in_h", "in_w", "features_in", "features_out", "window_h", "window_w",
            "stride_h", "stride_w", "pad_h", "pad_w", "dilation_h", "dilation_w", "x_batch", "x_h", "x_w")
BLOCK = 128  # positions per gemm, as the generated kernel's GEMM_BLOCK_ROWS
TYPES = {"f32": ir.FloatType(), "f64": ir.DoubleType()}


def conv_name(dtype: str) -> str:
    return f"hloscope_conv2d_gemm_{dtype}"


def conv_symbols() -> list[str]:
    return [conv_name(t) for t in TYPES if blas.available(t)]


def add_convolutions(m: ir.Module) -> None:
    for dtype in TYPES:
        if blas.available(dtype):
            _conv(m, dtype)


def _conv(m: ir.Module, dtype: str) -> None:
    ty = TYPES[dtype]
    fn = ir.Function(m, ir.FunctionType(VOID, [PTR] * 5 + [I64, I64]), conv_name(dtype))
    x, w, out, col, geometry, begin, end = fn.args
    for arg in (x, w, out, col):  # four distinct arrays (a convolution's result never overwrites its input)
        arg.add_attribute("noalias")
    fn.attributes.add("nounwind")
    entry = ir.IRBuilder(fn.append_basic_block("entry"))
    b = entry
    g = {name: b.load(b.gep(geometry, [I64(k)], inbounds=True, source_etype=I64), typ=I64, name=name)
         for k, name in enumerate(GEOMETRY)}
    features = g["features_in"]
    k = b.mul(b.mul(g["window_h"], g["window_w"]), features, name="k")  # a row of the im2col matrix
    gemm = _Gemm(m, b, dtype)

    def element(base, offset):
        return b.gep(base, [offset], inbounds=True, source_etype=ty)

    def inside(value, size):
        return b.and_(b.icmp_signed(">=", value, I64(0)), b.icmp_signed("<", value, size))

    blocks = b.udiv(b.add(b.sub(end, begin), I64(BLOCK - 1)), I64(BLOCK), name="blocks")
    with for_range(b, 0, blocks, "block") as i:
        lo = b.add(begin, b.mul(i, I64(BLOCK)), name="lo")
        hi = b.add(lo, I64(BLOCK))
        hi = b.select(b.icmp_signed("<", hi, end), hi, end, name="hi")
        with for_range(b, lo, hi, "p") as p:
            ow, rest = b.srem(p, g["out_w"]), b.sdiv(p, g["out_w"])
            oh, batch = b.srem(rest, g["out_h"]), b.sdiv(rest, g["out_h"])
            row = element(col, b.mul(b.add(b.sub(p, lo), begin), k))
            image = b.mul(batch, g["x_batch"])
            with for_range(b, 0, g["window_h"], "kh") as kh:
                ih = b.add(b.sub(b.mul(oh, g["stride_h"]), g["pad_h"]), b.mul(kh, g["dilation_h"]))
                with for_range(b, 0, g["window_w"], "kw") as kw:
                    iw = b.add(b.sub(b.mul(ow, g["stride_w"]), g["pad_w"]), b.mul(kw, g["dilation_w"]))
                    dst = element(row, b.mul(b.add(b.mul(kh, g["window_w"]), kw), features))
                    with b.if_else(b.and_(inside(ih, g["in_h"]), inside(iw, g["in_w"]))) as (then, otherwise):
                        with then:
                            src = element(x, b.add(image, b.add(b.mul(ih, g["x_h"]), b.mul(iw, g["x_w"]))))
                            with for_range(b, 0, features, "c", interleave=False) as c:
                                b.store(b.load(element(src, c), typ=ty), element(dst, c))
                        with otherwise:  # the padding
                            with for_range(b, 0, features, "z", interleave=False) as c:
                                b.store(ir.Constant(ty, 0.0), element(dst, c))
        gemm.call(element(out, b.mul(lo, g["features_out"])), element(col, b.mul(begin, k)), w,
                  b.sub(hi, lo), g["features_out"], k)
    b.ret_void()


class _Gemm:
    """out[rows, n] = a[rows, k] @ w[k, n] (row-major) on this thread alone: the column-major
    C^T = W^T A^T of blas.py's gemm, its sizes in the BLAS's integer width."""

    def __init__(self, m: ir.Module, b: ir.IRBuilder, dtype: str):
        self.b = b
        ty, index = TYPES[dtype], ir.IntType(blas.index_bits())
        self.fn = declared(m, blas.SYMBOLS[dtype][1], ir.FunctionType(VOID, [PTR] * 13))
        self.threads = declared(m, blas.THREADS_SYMBOL, ir.FunctionType(I32, [I32]))
        self.index, self.ty = index, ty
        slots = {name: b.alloca(t, name=name) for name, t in (("transa", I8), ("transb", I8), ("m", index),
                                                              ("n", index), ("k", index), ("lda", index),
                                                              ("ldb", index), ("ldc", index), ("alpha", ty),
                                                              ("beta", ty))}
        b.store(I8(ord("N")), slots["transa"])
        b.store(I8(ord("N")), slots["transb"])
        b.store(ir.Constant(ty, 1.0), slots["alpha"])
        b.store(ir.Constant(ty, 0.0), slots["beta"])
        self.slots = slots

    def call(self, out, a, w, rows, n, k) -> None:
        b, s = self.b, self.slots

        def size(value):
            return value if self.index == I64 else b.trunc(value, self.index)

        for name, value in (("m", n), ("n", rows), ("k", k), ("lda", n), ("ldb", k), ("ldc", n)):
            b.store(size(value), s[name])
        previous = b.call(self.threads, [I32(1)])
        b.call(self.fn, [s["transa"], s["transb"], s["m"], s["n"], s["k"], s["alpha"], w, s["lda"], a, s["ldb"],
                         s["beta"], out, s["ldc"]])
        b.call(self.threads, [previous])
