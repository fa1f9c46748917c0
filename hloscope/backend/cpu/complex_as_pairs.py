"""Complex numbers on the CPU as pairs of reals: c64[d] becomes f32[d,2] (c128: f64[d,2]).

numpy and XLA store a complex array as interleaved (re, im) pairs, byte for byte an array of
reals with one more, most minor, dimension of 2. So the CPU backend lowers a module with
complex values by rewriting it into real arithmetic over that dimension, and hands the same
buffers to native code (the executable's signature stays complex):

    c = c64[4] multiply(a, b)   ->   ar = f32[4,1] slice(a), slice={[0:4], [0:1]}  (ai, br, bi alike)
                                     re = ar*br - ai*bi,  im = ar*bi + ai*br
                                     c = f32[4,2] concatenate(re, im), dimensions={1}

Elementwise: add, subtract, negate, multiply, divide (Smith's), abs (an overflow-safe hypot), exponential,
real, imag, complex, convert (c64<->c128, real->complex), select; moving data: copy,
reshape, broadcast, transpose, slice, dynamic-slice, dynamic-update-slice, concatenate,
reverse, tuple, get-tuple-element; fft as DFT matrix products (fft_as_dots.py); and calls
(fusion, call: inlined, their bodies rewritten the same way). Any other op on a complex value is
refused by name (`not supported on cpu: dot on c64 (instruction dot.3)`).
"""

from __future__ import annotations

import numpy as np

from ...ir.attributes import Literal, SliceDim
from ...ir.instruction import Instruction
from ...ir.module import HloModule
from ...ir.shape import ArrayShape, Shape
from ..unsupported import unsupported
from .fft_as_dots import lower_fft
from .type_rewrite import TypeRewriter, any_array, map_arrays, rewrite_computations, with_computations

TARGET = "cpu"
REAL_OF = {"c64": "f32", "c128": "f64"}
SAME_ON_PAIRS = frozenset("add subtract negate copy tuple get-tuple-element parameter".split())


def is_complex(shape: Shape) -> bool:
    return any_array(shape, lambda a: a.dtype in REAL_OF)


def has_complex(module: HloModule) -> bool:
    return any(is_complex(i.shape) for c in module.computations for i in c.instructions)


def pair_shape(shape: Shape) -> Shape:
    """c64[d] -> f32[d,2], the pair dimension most minor; other shapes unchanged."""
    return map_arrays(shape, lambda a: ArrayShape(REAL_OF[a.dtype], (*a.dims, 2), (a.rank, *a.layout))
                      if a.dtype in REAL_OF else a)


def complex_as_pairs(module: HloModule) -> HloModule:
    """`module` with every complex value as pairs of reals (see the module docstring)."""
    return with_computations(module, rewrite_computations(module, _ComplexRewriter))


class _ComplexRewriter(TypeRewriter):
    def shape_of(self, name: str) -> Shape:
        return self.comp[name].shape

    def rewrite(self, inst: Instruction) -> None:
        touches = is_complex(inst.shape) or any(is_complex(self.shape_of(o)) for o in inst.operands)
        if not touches:
            self.out.append(inst)
            return
        if inst.opcode in ("fusion", "call"):
            self.inline(inst)
            return
        rule = _RULES.get(inst.opcode)
        if rule is None and inst.opcode not in SAME_ON_PAIRS:
            dtype = next(s.dtype for s in [inst.shape, *map(self.shape_of, inst.operands)]
                         if isinstance(s, ArrayShape) and s.dtype in REAL_OF)
            raise unsupported(TARGET, f"{inst.opcode} on {dtype}", inst.name)
        if rule is None:
            self.out.append(inst.replace(shape=pair_shape(inst.shape)))
        else:
            rule(self, inst)

    # ---- pieces ----
    def part(self, name: str, which: int, tag: str) -> str:
        """f32[d,1]: the real (0) or imaginary (1) part of complex value `name`."""
        shape = self.shape_of(name).as_array()
        real = REAL_OF[shape.dtype]
        bounds = tuple(SliceDim(0, d) for d in shape.dims) + (SliceDim(which, which + 1),)
        return self.emit(f"{tag}.{'ri'[which]}", "slice", ArrayShape(real, (*shape.dims, 1)), (name,), slice=bounds)

    def parts_flat(self, name: str, tag: str) -> tuple[str, str]:
        """(Re, Im) of complex value `name` as two real arrays of its own dims."""
        shape = self.shape_of(name).as_array()
        flat = ArrayShape(REAL_OF[shape.dtype], shape.dims)
        return (self.flat(f"{tag}.re0", self.part(name, 0, tag), flat),
                self.flat(f"{tag}.im0", self.part(name, 1, tag), flat))

    def op(self, name: str, opcode: str, like: str, *operands: str, **attrs) -> str:
        for o in self.out:
            if o.name == like:
                return self.emit(name, opcode, o.shape, operands, **attrs)
        raise AssertionError(f"{like} is not emitted yet")

    def pair(self, name: str, re: str, im: str, shape: Shape) -> str:
        return self.emit(name, "concatenate", pair_shape(shape), (re, im), dimensions=(shape.as_array().rank,))

    def flat(self, name: str, value: str, shape: ArrayShape) -> str:
        return self.emit(name, "reshape", shape, (value,))


def _multiply(r: _ComplexRewriter, inst: Instruction) -> None:
    a, b = inst.operands
    n = inst.name
    ar, ai, br, bi = r.part(a, 0, f"{n}.a"), r.part(a, 1, f"{n}.a"), r.part(b, 0, f"{n}.b"), r.part(b, 1, f"{n}.b")
    rr, ii = r.op(f"{n}.rr", "multiply", ar, ar, br), r.op(f"{n}.ii", "multiply", ar, ai, bi)
    ri, ir_ = r.op(f"{n}.ri", "multiply", ar, ar, bi), r.op(f"{n}.ir", "multiply", ar, ai, br)
    re, im = r.op(f"{n}.re", "subtract", ar, rr, ii), r.op(f"{n}.im", "add", ar, ri, ir_)
    r.pair(n, re, im, inst.shape)


def _divide(r: _ComplexRewriter, inst: Instruction) -> None:
    """(a + bi) / (c + di) by Smith's method, as numpy: divide by the larger of |c|, |d| first."""
    x, y = inst.operands
    n = inst.name
    a, b, c, d = r.part(x, 0, f"{n}.x"), r.part(x, 1, f"{n}.x"), r.part(y, 0, f"{n}.y"), r.part(y, 1, f"{n}.y")

    def op(tag: str, opcode: str, *args: str) -> str:
        return r.op(f"{n}.{tag}", opcode, a, *args)

    col = r.out[-1].shape.as_array()
    c_big = r.emit(f"{n}.cbig", "compare", ArrayShape("pred", col.dims), (op("absc", "abs", c), op("absd", "abs", d)),
                   direction="GE")
    # |c| >= |d|: t = d/c, den = c + d t, re = (a + b t)/den, im = (b - a t)/den
    t1 = op("t1", "divide", d, c)
    den1 = op("den1", "add", c, op("dt1", "multiply", d, t1))
    re1 = op("re1", "divide", op("n1", "add", a, op("bt1", "multiply", b, t1)), den1)
    im1 = op("im1", "divide", op("m1", "subtract", b, op("at1", "multiply", a, t1)), den1)
    # otherwise: t = c/d, den = c t + d, re = (a t + b)/den, im = (b t - a)/den
    t2 = op("t2", "divide", c, d)
    den2 = op("den2", "add", op("ct2", "multiply", c, t2), d)
    re2 = op("re2", "divide", op("n2", "add", op("at2", "multiply", a, t2), b), den2)
    im2 = op("im2", "divide", op("m2", "subtract", op("bt2", "multiply", b, t2), a), den2)
    re = r.emit(f"{n}.re", "select", col, (c_big, re1, re2))
    im = r.emit(f"{n}.im", "select", col, (c_big, im1, im2))
    r.pair(n, re, im, inst.shape)


def _fft(r: _ComplexRewriter, inst: Instruction) -> None:
    """fft as DFT matrix products (fft_as_dots.py); the result re-paired, or real for IRFFT."""
    src, dst = r.shape_of(inst.operands[0]).as_array(), inst.shape.as_array()
    real = REAL_OF.get(src.dtype) or REAL_OF[dst.dtype]
    yr, yi = lower_fft(r, inst, real)
    if yi is None:
        r.emit(inst.name, "copy", dst, (yr,))
        return
    column = ArrayShape(real, (*dst.dims, 1))
    re = r.emit(f"{inst.name}.re", "reshape", column, (yr,))
    im = r.emit(f"{inst.name}.im", "reshape", column, (yi,))
    r.pair(inst.name, re, im, dst)


def _real_imag(r: _ComplexRewriter, inst: Instruction) -> None:
    p = r.part(inst.operands[0], 0 if inst.opcode == "real" else 1, inst.name)
    r.flat(inst.name, p, inst.shape.as_array())


def _complex(r: _ComplexRewriter, inst: Instruction) -> None:
    shape = inst.shape.as_array()
    column = ArrayShape(REAL_OF[shape.dtype], (*shape.dims, 1))
    re = r.emit(f"{inst.name}.re", "reshape", column, (inst.operands[0],))
    im = r.emit(f"{inst.name}.im", "reshape", column, (inst.operands[1],))
    r.pair(inst.name, re, im, shape)


def _abs(r: _ComplexRewriter, inst: Instruction) -> None:
    """hypot(re, im) as max * sqrt(1 + (min/max)^2): no overflow for large parts."""
    n, x = inst.name, inst.operands[0]
    ar, ai = r.part(x, 0, n), r.part(x, 1, n)
    dtype = inst.shape.as_array().dtype
    col = r.out[-1].shape
    xr, xi = r.op(f"{n}.absr", "abs", ar, ar), r.op(f"{n}.absi", "abs", ar, ai)
    big, small = r.op(f"{n}.max", "maximum", ar, xr, xi), r.op(f"{n}.min", "minimum", ar, xr, xi)
    one = r.emit(f"{n}.one", "broadcast", col, (_emit_scalar(r, f"{n}.1", dtype, 1.0),), dimensions=())
    zero = r.emit(f"{n}.zero", "broadcast", col, (_emit_scalar(r, f"{n}.0", dtype, 0.0),), dimensions=())
    inf = r.emit(f"{n}.inf", "broadcast", col, (_emit_scalar(r, f"{n}.inf0", dtype, np.inf),), dimensions=())
    q = r.op(f"{n}.q", "divide", ar, small, big)
    root = r.op(f"{n}.sqrt", "sqrt", ar, r.op(f"{n}.qq1", "add", ar, one, r.op(f"{n}.qq", "multiply", ar, q, q)))
    scaled = r.op(f"{n}.h", "multiply", ar, big, root)
    pred = ArrayShape("pred", col.as_array().dims)
    is_zero = r.emit(f"{n}.is0", "compare", pred, (big, zero), direction="EQ")
    # (an infinite part makes the magnitude infinite even beside a NaN, as hypot says)
    is_inf = r.emit(f"{n}.isinf", "or", pred, (r.emit(f"{n}.rinf", "compare", pred, (xr, inf), direction="EQ"),
                                                r.emit(f"{n}.iinf", "compare", pred, (xi, inf), direction="EQ")))
    h = r.emit(f"{n}.h0", "select", col, (is_zero, zero, scaled))
    h = r.emit(f"{n}.hinf", "select", col, (is_inf, inf, h))
    r.flat(n, h, inst.shape.as_array())


def _scalar(name: str, dtype: str, value: float) -> Instruction:
    return Instruction(name, "constant", ArrayShape(dtype, ()), (), {},
                       literal=Literal(np.array(value, dtype=np.float32 if dtype == "f32" else np.float64)))


def _emit_scalar(r: _ComplexRewriter, name: str, dtype: str, value: float) -> str:
    r.out.append(_scalar(name, dtype, value))
    return name


def _exp(r: _ComplexRewriter, inst: Instruction) -> None:
    """exp(a + bi) = e^a (cos b + i sin b)."""
    n, x = inst.name, inst.operands[0]
    ar, ai = r.part(x, 0, n), r.part(x, 1, n)
    e = r.op(f"{n}.e", "exponential", ar, ar)
    re = r.op(f"{n}.re", "multiply", ar, e, r.op(f"{n}.cos", "cosine", ar, ai))
    im = r.op(f"{n}.im", "multiply", ar, e, r.op(f"{n}.sin", "sine", ar, ai))
    r.pair(n, re, im, inst.shape)


def _convert(r: _ComplexRewriter, inst: Instruction) -> None:
    src, dst = r.shape_of(inst.operands[0]).as_array(), inst.shape.as_array()
    if src.dtype in REAL_OF and dst.dtype in REAL_OF:
        r.emit(inst.name, "convert", pair_shape(dst), inst.operands)
        return
    if src.dtype in REAL_OF:  # XLA has no complex -> real convert either (real/imag say which part)
        raise unsupported(TARGET, f"convert {src.dtype} -> {dst.dtype}", inst.name)
    real = REAL_OF[dst.dtype]
    column = ArrayShape(real, (*dst.dims, 1))
    re = r.emit(f"{inst.name}.re", "convert", ArrayShape(real, dst.dims), inst.operands)
    re = r.emit(f"{inst.name}.col", "reshape", column, (re,))
    im = r.emit(f"{inst.name}.im", "broadcast", column, (_emit_scalar(r, f"{inst.name}.0", real, 0.0),), dimensions=())
    r.pair(inst.name, re, im, dst)


def _constant(r: _ComplexRewriter, inst: Instruction) -> None:
    literal = inst.literal
    if literal is None or not isinstance(literal.value, np.ndarray):
        raise unsupported(TARGET, "a complex constant that is a tuple or has elided values", inst.name)
    value = np.asarray(literal.value)
    pairs = np.stack([np.real(value), np.imag(value)], axis=-1)
    r.out.append(Instruction(inst.name, "constant", pair_shape(inst.shape), (), {}, inst.metadata,
                             literal=Literal(pairs)))


def _select(r: _ComplexRewriter, inst: Instruction) -> None:
    """select(p, a, b): the predicate is broadcast over the pair dimension."""
    p = r.shape_of(inst.operands[0]).as_array()
    shape = pair_shape(inst.shape).as_array()
    wide = r.emit(f"{inst.name}.p", "broadcast", ArrayShape("pred", shape.dims), (inst.operands[0],),
                  dimensions=tuple(range(p.rank)) if p.rank else ())
    r.emit(inst.name, "select", shape, (wide, *inst.operands[1:]))


def _dynamic_slice(r: _ComplexRewriter, inst: Instruction) -> None:
    """dynamic-slice / dynamic-update-slice: one more start index, 0, for the pair dimension."""
    zero = _emit_scalar_int(r, f"{inst.name}.0")
    attrs = dict(inst.attrs)
    if "dynamic_slice_sizes" in attrs:
        attrs["dynamic_slice_sizes"] = (*inst.attr("dynamic_slice_sizes"), 2)
    r.out.append(Instruction(inst.name, inst.opcode, pair_shape(inst.shape), (*inst.operands, zero), attrs,
                             inst.metadata))


def _emit_scalar_int(r: _ComplexRewriter, name: str) -> str:
    r.out.append(Instruction(name, "constant", ArrayShape("s32", ()), (), {}, literal=Literal(np.array(0, np.int32))))
    return name


def _with_pair_dim(key: str):
    """An op whose attribute `key` lists dimensions: the pair dimension is added, unmoved."""
    def rule(r: _ComplexRewriter, inst: Instruction) -> None:
        shape = pair_shape(inst.shape).as_array()
        attrs = dict(inst.attrs)
        if key == "slice":
            attrs[key] = (*inst.attr(key), SliceDim(0, 2))
        elif key in ("transpose", "broadcast"):
            attrs["dimensions"] = (*inst.attr("dimensions"), shape.rank - 1)
        r.out.append(Instruction(inst.name, inst.opcode, shape, inst.operands, attrs, inst.metadata))
    return rule


_RULES = {
    "multiply": _multiply, "divide": _divide, "fft": _fft, "real": _real_imag, "imag": _real_imag, "complex": _complex, "abs": _abs,
    "exponential": _exp, "convert": _convert, "constant": _constant, "select": _select,
    "dynamic-slice": _dynamic_slice, "dynamic-update-slice": _dynamic_slice,
    "reshape": _with_pair_dim("none"), "concatenate": _with_pair_dim("none"), "reverse": _with_pair_dim("none"),
    "slice": _with_pair_dim("slice"), "transpose": _with_pair_dim("transpose"), "broadcast": _with_pair_dim("broadcast"),
}
