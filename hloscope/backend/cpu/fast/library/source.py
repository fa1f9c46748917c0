"""The library's kernels, as LLVM IR: written once for any size, the sizes are arguments.

    T hloscope_reduce_<op>_<t>(ptr x, i64 n, T init)
        init op x[0] op ... op x[n-1], op add, maximum or minimum, t f32 or f64;
        reassociated (several vector accumulators), as generated reductions are by default
    void hloscope_depthwise_conv2d_<t>(ptr x, ptr w, ptr out, ptr geometry, i64 begin, i64 end)
        the output positions [begin, end) of a 2-D depthwise convolution, one feature per
        group, features contiguous (stride 1) in x, w and out; `geometry` is an i64 array
        with GEOMETRY's fields
    void hloscope_conv2d_gemm_<t>(...)     a 2-D convolution by im2col and gemm (conv.py)

The loops are the ones generated kernels have, with sizes read at run time instead of
constants, so LLVM vectorizes them the same way (with a remainder loop).
"""

from __future__ import annotations

from llvmlite import ir

from ....llvm_types import I64, PTR, VOID, emitted
from ....loops import for_range

TYPES = {"f32": ir.FloatType(), "f64": ir.DoubleType()}
REDUCERS = ("add", "maximum", "minimum")
FLAGS = ("reassoc", "nsz")  # the generated reductions' flags (reassociate_reductions, the default)
LANES = {"f32": 16, "f64": 8}  # one AVX-512 register; LLVM splits the vector where registers are narrower
ALIGN = {"f32": 4, "f64": 8}  # what a vector load of the arrays may assume: their elements' alignment

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
    from .conv import conv_symbols

    return ([reduce_name(op, t) for op in REDUCERS for t in TYPES] + [depthwise_name(t) for t in TYPES]
            + conv_symbols())


def library_module() -> ir.Module:
    from .conv import add_convolutions  # the im2col convolution (where a BLAS gemm is)

    m = ir.Module(name="hloscope_library")
    for t in TYPES:
        for op in REDUCERS:
            _reduce(m, op, t)
        _depthwise(m, t)
    add_convolutions(m)
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
    """llvm.<op> for `ty`: a float or a vector of them (llvm.fmuladd.v16f32)."""
    element = ty.element if isinstance(ty, ir.VectorType) else ty
    suffix = "f32" if element == ir.FloatType() else "f64"
    name = f"llvm.{op}.{f'v{ty.count}{suffix}' if isinstance(ty, ir.VectorType) else suffix}"
    found = m.globals.get(name)
    return found if isinstance(found, ir.Function) else ir.Function(m, ir.FunctionType(ty, [ty] * arity), name)


def _depthwise(m: ir.Module, dtype: str) -> None:
    """for each output position p in [begin, end):   (p = (batch * out_h + oh) * out_w + ow)
           for each block of 4 x LANES features (four vector registers), then of LANES, then 1:
               acc = 0
               for each tap (kh, kw) inside the padded input:
                   acc += x[batch, ih, iw, block] * w[kh, kw, block]
               out[p, block] = acc
    The sums stay in a register across the taps (a generated kernel gets that from its
    constant sizes); written as a loop over features they went through memory at every tap."""
    ty = TYPES[dtype]
    lanes = LANES[dtype]
    fn = ir.Function(m, ir.FunctionType(VOID, [PTR, PTR, PTR, PTR, I64, I64]), depthwise_name(dtype))
    x, w, out, geometry, begin, end = fn.args
    for arg in (x, w, out, geometry):
        arg.add_attribute("noalias")
    fn.attributes.add("nounwind")
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    g = {name: b.load(b.gep(geometry, [I64(k)], inbounds=True, source_etype=I64), typ=I64, name=name)
         for k, name in enumerate(GEOMETRY)}
    # four registers of features at a time (the taps' loop control paid once for four FMAs),
    # then one register, then single features
    widths = (4 * lanes, lanes, 1)
    acc_slots = [b.alloca(ir.VectorType(ty, n) if n > 1 else ty, name=f"acc{n}") for n in widths]
    # (batch, oh, ow) of position `begin` by division, then counted along: a division per
    # position would cost as much as a small window's arithmetic (the sizes are not constants)
    first_row = b.sdiv(begin, g["out_w"])
    counters = {"batch": b.sdiv(first_row, g["out_h"]), "oh": b.srem(first_row, g["out_h"]),
                "ow": b.srem(begin, g["out_w"])}
    slots = {name: b.alloca(I64, name=f"{name}.slot") for name in counters}
    for name, value in counters.items():
        b.store(value, slots[name])

    def element(base, offset):
        return b.gep(base, [offset], inbounds=True, source_etype=ty)

    def inside(value, size):
        return b.and_(b.icmp_signed(">=", value, I64(0)), b.icmp_signed("<", value, size))

    def taps(batch, oh, ow, accumulate):
        """accumulate(x_row, w_row) for every tap inside the padded input."""
        with for_range(b, 0, g["window_h"], "kh") as kh:
            ih = b.add(b.sub(b.mul(oh, g["stride_h"]), g["pad_h"]), b.mul(kh, g["dilation_h"]))
            with b.if_then(inside(ih, g["in_h"])):
                with for_range(b, 0, g["window_w"], "kw") as kw:
                    iw = b.add(b.sub(b.mul(ow, g["stride_w"]), g["pad_w"]), b.mul(kw, g["dilation_w"]))
                    with b.if_then(inside(iw, g["in_w"])):
                        accumulate(element(x, b.add(b.mul(batch, g["x_batch"]),
                                                    b.add(b.mul(ih, g["x_h"]), b.mul(iw, g["x_w"])))),
                                   element(w, b.add(b.mul(kh, g["w_h"]), b.mul(kw, g["w_w"]))))

    def summed(slot, zero, load, fmuladd, batch, oh, ow):
        b.store(zero, slot)
        taps(batch, oh, ow, lambda x_row, w_row: b.store(
            b.call(fmuladd, [load(x_row), load(w_row), b.load(slot, typ=zero.type)]), slot))
        return b.load(slot, typ=zero.type)

    with for_range(b, begin, end, "p"):
        batch, oh, ow = (b.load(slots[name], typ=I64, name=name) for name in ("batch", "oh", "ow"))
        _advance(b, slots, batch, oh, ow, g)
        out_row = element(out, b.add(b.mul(batch, g["out_batch"]),
                                     b.add(b.mul(oh, g["out_h_stride"]), b.mul(ow, g["out_w_stride"]))))
        start: ir.Value = I64(0)
        for width, slot in zip(widths, acc_slots):  # the widest blocks first, then narrower, then one by one
            vec = slot.allocated_type
            blocks = b.sdiv(b.sub(g["features"], start), I64(width))
            with for_range(b, 0, blocks, f"block{width}") as block:
                first = b.add(start, b.mul(block, I64(width)))
                load = (lambda row, first=first, vec=vec: b.load(element(row, first), typ=vec, align=ALIGN[dtype])) \
                    if width > 1 else (lambda row, first=first: b.load(element(row, first), typ=ty))
                zero = ir.Constant(vec, [0.0] * width) if width > 1 else ir.Constant(ty, 0.0)
                acc = summed(slot, zero, load, _intrinsic(m, "fmuladd", vec, 3), batch, oh, ow)
                b.store(acc, element(out_row, first), align=ALIGN[dtype])
            start = emitted(b.add(start, b.mul(blocks, I64(width))))
    b.ret_void()


def _advance(b: ir.IRBuilder, slots: dict, batch, oh, ow, g: dict) -> None:
    """The next position's counters: ow + 1, carrying into oh and then batch."""
    next_ow = b.add(ow, I64(1))
    row_done = b.icmp_signed("==", next_ow, g["out_w"])
    next_oh = b.select(row_done, b.add(oh, I64(1)), oh)
    image_done = b.icmp_signed("==", next_oh, g["out_h"])
    b.store(b.select(row_done, I64(0), next_ow), slots["ow"])
    b.store(b.select(image_done, I64(0), next_oh), slots["oh"])
    b.store(b.select(image_done, b.add(batch, I64(1)), batch), slots["batch"])
