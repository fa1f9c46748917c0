"""f8 and f4 floats on the CPU (f8e5m2, f8e4m3fn, ..., f4e2m1fn) as their bytes, u8.

The CPU backend has no arithmetic on these types; what programs do with them is convert
(jax's fp8 matmuls cast in and out), so that is what this rewrite lowers, with tables
computed from ml_dtypes (the evaluator's reference) when the module is compiled:

  to f32     gather(decode table[code]): the type's 2^bits values, exactly
  from f32   |x| against the rounding boundaries (between neighbouring values, each with
             whether ml_dtypes rounds up there: ties to even), the count of boundaries
             passed indexes the code for that |x| (overflow to inf, NaN or the maximum as
             ml_dtypes does), the sign picks the negative table; zero and NaN by themselves

Other float and integer types convert through f32 (f64 -> f8 rounds twice: a tie can differ
from a direct rounding). Moving data needs no tables. Other ops on these types are
refused by name.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ...ir.attributes import Literal
from ...ir.computation import Computation
from ...ir.dtypes import element_type
from ...ir.instruction import Instruction
from ...ir.module import HloModule
from ...ir.shape import ArrayShape, Shape
from .type_rewrite import BytesRewriter, any_array, map_arrays, rewrite_computations, with_computations

SMALL = frozenset("f8e5m2 f8e4m3 f8e4m3fn f8e4m3b11fnuz f8e3m4 f8e5m2fnuz f8e4m3fnuz f8e8m0fnu f4e2m1fn".split())
ADD = "small_float_count"


def _small(shape: Shape) -> bool:
    return any_array(shape, lambda a: a.dtype in SMALL)


def has_small_floats(module: HloModule) -> bool:
    return any(_small(i.shape) for c in module.computations for i in c.instructions)


def raw_shape(shape: Shape) -> Shape:
    return map_arrays(shape, lambda a: ArrayShape("u8", a.dims, a.layout) if a.dtype in SMALL else a)


@lru_cache(maxsize=None)
def tables(dtype: str):
    """(decode f32[2^bits], boundaries f32[K], up pred[K], codes for + and - u8[K+1],
    codes of +0, -0 and (+NaN, -NaN)) for `dtype`, from ml_dtypes."""
    t = element_type(dtype).numpy
    n = 1 << element_type(dtype).bits
    decode = np.arange(n, dtype=np.uint8).view(t).astype(np.float32)
    values = np.unique(np.abs(decode[np.isfinite(decode) & (decode >= 0)].astype(np.float64)))  # (+0, not -0)

    def code(x: float) -> int:
        return int(np.array([x], np.float32).astype(t).view(np.uint8)[0])

    top = values[-1] + (values[-1] - values[-2])  # the next value past the maximum, were there one
    bounds = np.append((values[:-1] + values[1:]) / 2, (values[-1] + top) / 2).astype(np.float32)
    reps = [*values, float(np.finfo(np.float32).max)]
    pos = np.array([code(r) for r in reps], np.uint8)
    neg = np.array([code(-r) for r in reps], np.uint8)
    up = np.array([code(float(b)) == pos[k + 1] for k, b in enumerate(bounds)])
    nans = (code(float("nan")), code(float(-np.float32(np.nan))))  # a NaN keeps its sign, as in ml_dtypes
    return decode, bounds, up, pos, neg, (code(0.0), code(-0.0), nans)


def small_floats_as_bytes(module: HloModule) -> HloModule:
    count = Computation(ADD, (Instruction("a", "parameter", ArrayShape("s32", ()), parameter_number=0),
                              Instruction("b", "parameter", ArrayShape("s32", ()), parameter_number=1),
                              Instruction("s", "add", ArrayShape("s32", ()), ("a", "b"))), "s")
    return with_computations(module, [count, *rewrite_computations(module, _SmallFloatRewriter)])


class _SmallFloatRewriter(BytesRewriter):
    types = SMALL

    def const(self, name: str, value: np.ndarray, dtype: str) -> str:
        self.out.append(Instruction(name, "constant", ArrayShape(dtype, value.shape), (), {}, literal=Literal(value)))
        return name

    def raw_shape(self, shape: Shape) -> Shape:
        return raw_shape(shape)

    def convert(self, inst: Instruction) -> None:
        src, dst = self.comp[inst.operands[0]].shape.as_array(), inst.shape.as_array()
        x = inst.operands[0]
        if src.dtype in SMALL:
            x = self.decode(x, src, inst.name)
            if dst.dtype == "f32":
                self.emit(inst.name, "copy", dst, (x,))
                return
        elif src.dtype != "f32":
            x = self.emit(f"{inst.name}.f32", "convert", src.with_dtype("f32"), (x,))
        if dst.dtype in SMALL:
            self.encode(inst.name, x, dst)
        else:
            self.emit(inst.name, "convert", dst, (x,))

    def lookup(self, name: str, table: str, index: str, dims: tuple[int, ...], dtype: str) -> str:
        column = self.emit(f"{name}.col", "reshape", ArrayShape("s32", (*dims, 1)), (index,))
        return self.emit(name, "gather", ArrayShape(dtype, dims), (table, column), offset_dims=(),
                         collapsed_slice_dims=(0,), start_index_map=(0,), index_vector_dim=len(dims), slice_sizes=(1,))

    def decode(self, x: str, shape: ArrayShape, tag: str) -> str:
        table = self.const(f"{tag}.values", tables(shape.dtype)[0], "f32")
        index = self.emit(f"{tag}.code", "convert", ArrayShape("s32", shape.dims), (x,))
        return self.lookup(f"{tag}.dec", table, index, shape.dims, "f32")

    def encode(self, name: str, x: str, shape: ArrayShape) -> None:
        _, bounds, up, pos, neg, (zero, minus_zero, nan) = tables(shape.dtype)
        dims, k, t = shape.dims, len(bounds), name
        f32, pred, u8 = (ArrayShape(d, dims) for d in ("f32", "pred", "u8"))
        wide = ArrayShape("f32", (*dims, k))
        mask = ArrayShape("pred", (*dims, k))
        keep = tuple(range(len(dims)))
        ax = self.emit(f"{t}.abs", "abs", f32, (x,))
        bx = self.emit(f"{t}.bx", "broadcast", wide, (ax,), dimensions=keep)
        bb = self.emit(f"{t}.bb", "broadcast", wide, (self.const(f"{t}.bounds", bounds, "f32"),), dimensions=(len(dims),))
        bu = self.emit(f"{t}.bu", "broadcast", mask, (self.const(f"{t}.up", up, "pred"),), dimensions=(len(dims),))
        gt = self.emit(f"{t}.gt", "compare", mask, (bx, bb), direction="GT")
        eq = self.emit(f"{t}.eq", "compare", mask, (bx, bb), direction="EQ")
        hit = self.emit(f"{t}.hit", "or", mask, (gt, self.emit(f"{t}.tie", "and", mask, (eq, bu))))
        ones = self.emit(f"{t}.ones", "convert", ArrayShape("s32", (*dims, k)), (hit,))
        zero_s = self.const(f"{t}.z", np.array(0, np.int32), "s32")
        count = self.emit(f"{t}.count", "reduce", ArrayShape("s32", dims), (ones, zero_s), dimensions=(len(dims),),
                          to_apply=ADD)
        plus = self.lookup(f"{t}.plus", self.const(f"{t}.pos", pos, "u8"), count, dims, "u8")
        minus = self.lookup(f"{t}.minus", self.const(f"{t}.neg", neg, "u8"), count, dims, "u8")
        bits = self.emit(f"{t}.bits", "bitcast-convert", ArrayShape("s32", dims), (x,))
        negative = self.emit(f"{t}.sign", "compare", pred, (bits, self.splat(f"{t}.0", "s32", dims, 0)), direction="LT")
        code = self.emit(f"{t}.signed", "select", u8, (negative, minus, plus))
        is_zero = self.emit(f"{t}.is0", "compare", pred, (ax, self.splat(f"{t}.f0", "f32", dims, 0.0)), direction="EQ")
        zeros = self.emit(f"{t}.zeros", "select", u8, (negative, self.splat(f"{t}.mz", "u8", dims, minus_zero),
                                                       self.splat(f"{t}.pz", "u8", dims, zero)))
        code = self.emit(f"{t}.zeroed", "select", u8, (is_zero, zeros, code))
        is_nan = self.emit(f"{t}.isnan", "compare", pred, (x, x), direction="NE")
        nan_code = self.emit(f"{t}.nans", "select", u8, (negative, self.splat(f"{t}.mnan", "u8", dims, nan[1]),
                                                         self.splat(f"{t}.pnan", "u8", dims, nan[0])))
        self.emit(name, "select", u8, (is_nan, nan_code, code))

    def splat(self, name: str, dtype: str, dims: tuple[int, ...], value) -> str:
        scalar = self.const(f"{name}.s", np.array(value, element_type(dtype).numpy), dtype)
        return self.emit(name, "broadcast", ArrayShape(dtype, dims), (scalar,), dimensions=())
