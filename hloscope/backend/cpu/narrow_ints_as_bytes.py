"""Sub-byte integers on the CPU (s4, u4, s2, u2, s1, u1) as the bytes numpy keeps them in.

ml_dtypes stores one int4 per byte, in its low bits (-3 is 0x0D). So the CPU backend lowers
a module with such values by rewriting it over those bytes (s8 for signed, u8 for unsigned),
handing native code the very same buffers (the executable's signature stays s4):

    x = s4[4] add(a, b)   ->   a' = s8[4] shift-right-arithmetic(shift-left(a, 4), 4)   (b' alike)
                               x = s8[4] and(add(a', b'), 15)

Values are decoded (sign-extended or masked) before arithmetic and encoded (masked to their
bits) after it, which gives the evaluator's wrap-around. convert from a float saturates and
sends NaN to 0, from an integer wraps, as XLA and the evaluator do. Moving data needs no
decoding. Other ops on these types are refused by name.
"""

from __future__ import annotations

import numpy as np

from ...ir.attributes import Literal
from ...ir.dtypes import element_type, integer_range
from ...ir.instruction import Instruction
from ...ir.module import HloModule
from ...ir.shape import ArrayShape, Shape
from .type_rewrite import BytesRewriter, any_array, map_arrays, rewrite_computations, with_computations

NARROW = {"s4": "s8", "u4": "u8", "s2": "s8", "u2": "u8", "s1": "s8", "u1": "u8"}
ARITHMETIC = frozenset("add subtract multiply negate and or xor not maximum minimum abs clamp".split())


def _narrow(shape: Shape) -> bool:
    return any_array(shape, lambda a: a.dtype in NARROW)


def has_narrow_ints(module: HloModule) -> bool:
    return any(_narrow(i.shape) for c in module.computations for i in c.instructions)


def raw_shape(shape: Shape) -> Shape:
    """s4[d] -> s8[d] (u4 -> u8): the bytes the values are kept in (no E(4): one value a byte)."""
    return map_arrays(shape, lambda a: ArrayShape(NARROW[a.dtype], a.dims, a.layout) if a.dtype in NARROW else a)


def narrow_ints_as_bytes(module: HloModule) -> HloModule:
    return with_computations(module, rewrite_computations(module, _NarrowIntRewriter))


class _NarrowIntRewriter(BytesRewriter):
    types = frozenset(NARROW)

    def scalar(self, name: str, dtype: str, value: int) -> str:
        literal = Literal(np.array(value, element_type(dtype).numpy))
        self.out.append(Instruction(name, "constant", ArrayShape(dtype, ()), (), {}, literal=literal))
        return name

    def splat(self, name: str, dtype: str, dims: tuple[int, ...], value: int) -> str:
        return self.emit(name, "broadcast", ArrayShape(dtype, dims), (self.scalar(f"{name}.s", dtype, value),),
                         dimensions=())

    def raw_shape(self, shape: Shape) -> Shape:
        return raw_shape(shape)

    def compute(self, inst: Instruction) -> bool:
        """Arithmetic on the decoded values, encoded again; a compare on the decoded values."""
        if inst.opcode not in ARITHMETIC and inst.opcode != "compare":
            return False
        args = tuple(self.decoded(o, f"{inst.name}.{k}") for k, o in enumerate(inst.operands))
        if inst.opcode == "compare":
            self.out.append(inst.replace(operands=args))
            return True
        wide = self.emit(f"{inst.name}.wide", inst.opcode, raw_shape(inst.shape), args, **dict(inst.attrs))
        self.encode(inst.name, wide, inst.shape.as_array())
        return True

    def decoded(self, name: str, tag: str) -> str:
        """Operand `name` as values: sign-extended or masked from its byte."""
        shape = self.comp[name].shape
        if not (isinstance(shape, ArrayShape) and shape.dtype in NARROW):
            return name
        bits, wide = element_type(shape.dtype).bits, raw_shape(shape).as_array()
        if shape.dtype.startswith("u"):
            return self.emit(f"{tag}.dec", "and", wide, (name, self.splat(f"{tag}.mask", wide.dtype, shape.dims,
                                                                           (1 << bits) - 1)))
        k = self.splat(f"{tag}.k", "s8", shape.dims, 8 - bits)
        up = self.emit(f"{tag}.up", "shift-left", wide, (name, k))
        return self.emit(f"{tag}.dec", "shift-right-arithmetic", wide, (up, k))

    def encode(self, name: str, wide: str, shape: ArrayShape) -> None:
        """Values to bytes: keep the type's low bits (which wraps, as the evaluator does)."""
        raw = raw_shape(shape).as_array()
        mask = self.splat(f"{name}.mask", raw.dtype, shape.dims, (1 << element_type(shape.dtype).bits) - 1)
        self.emit(name, "and", raw, (wide, mask))

    def convert(self, inst: Instruction) -> None:
        src, dst = self.comp[inst.operands[0]].shape.as_array(), inst.shape.as_array()
        x = self.decoded(inst.operands[0], inst.name)
        if dst.dtype not in NARROW:
            self.emit(inst.name, "convert", dst, (x,))
            return
        wide = raw_shape(dst).as_array()
        if element_type(src.dtype).is_float:  # saturate (NaN -> 0) in s32, then it fits
            low, high = integer_range(element_type(dst.dtype))
            as_int = self.emit(f"{inst.name}.i", "convert", ArrayShape("s32", dst.dims), (x,))
            lo, hi = self.splat(f"{inst.name}.lo", "s32", dst.dims, low), self.splat(f"{inst.name}.hi", "s32", dst.dims, high)
            x = self.emit(f"{inst.name}.sat", "clamp", ArrayShape("s32", dst.dims), (lo, as_int, hi))
        x = self.emit(f"{inst.name}.wide", "convert", wide, (x,))
        self.encode(inst.name, x, dst)
