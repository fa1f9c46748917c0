"""A convolution's geometry for code generation, shared by every target's kernel.

Everything is a compile-time constant: sizes, group blocks and each operand's physical
strides (from its layout, so any dim_labels and any layout work). `tap_position` emits,
for one output position and one kernel tap, where in the input that tap reads and
whether it reads a real element (not padding, not a hole of lhs dilation):

    pos  = out_pos * stride - pad_low + tap * rhs_dilate   (in the padded, dilated input)
    real = 0 <= pos <= (in_size - 1) * lhs_dilate  and  pos % lhs_dilate == 0
    in   = pos / lhs_dilate
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from llvmlite import ir

from ..ir.attributes import WindowDim
from ..ir.conv_dims import ConvDimLabels
from ..ir.instruction import Instruction
from ..ir.shape import ArrayShape
from .llvm_types import I1, I64, emitted


def physical_strides(shape: ArrayShape) -> tuple[int, ...]:
    """Elements between neighbours along each logical dimension, in the shape's layout."""
    strides, step = [0] * shape.rank, 1
    for d in shape.layout:
        strides[d] = step
        step *= shape.dims[d]
    return tuple(strides)


def accumulation_type(dtype: str) -> str:
    """The type sums are kept in: the result's, f32 for 16-bit floats (as the evaluator)."""
    return "f32" if dtype in ("f16", "bf16") else dtype


@dataclass(frozen=True)
class ConvGeometry:
    """One convolution: its shapes, labels, window and groups, with derived sizes."""

    lhs: ArrayShape
    rhs: ArrayShape
    out: ArrayShape
    labels: ConvDimLabels
    window: tuple[WindowDim, ...]
    feature_groups: int
    batch_groups: int

    @classmethod
    def of(cls, conv: Instruction, lhs: ArrayShape, rhs: ArrayShape) -> ConvGeometry:
        return cls(lhs, rhs, conv.array_shape, conv.attr("dim_labels"), tuple(conv.attr("window", ())),
                   conv.attr("feature_group_count", 1), conv.attr("batch_group_count", 1))

    @property
    def acc_dtype(self) -> str:
        return accumulation_type(self.out.dtype)

    @property
    def out_spatial(self) -> tuple[int, ...]:
        return tuple(self.out.dims[d] for d in self.labels.output_spatial)

    @property
    def in_spatial(self) -> tuple[int, ...]:
        return tuple(self.lhs.dims[d] for d in self.labels.input_spatial)

    @property
    def out_batch(self) -> int:
        return self.out.dims[self.labels.output_batch]

    @property
    def out_features(self) -> int:
        return self.out.dims[self.labels.output_feature]

    @property
    def group_in_features(self) -> int:
        """Input features each output feature sums over (the kernel's input features)."""
        return self.rhs.dims[self.labels.kernel_input_feature]

    @property
    def in_features(self) -> int:
        return self.lhs.dims[self.labels.input_feature]

    @property
    def positions(self) -> int:
        """Output positions: batch times spatial (each holds out_features values)."""
        return self.out_batch * prod(self.out_spatial)

    @property
    def taps(self) -> int:
        return prod(w.size for w in self.window)

    @property
    def macs(self) -> int:
        return self.out.size * self.taps * self.group_in_features

    def strides(self) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        return physical_strides(self.lhs), physical_strides(self.rhs), physical_strides(self.out)

    def describe(self) -> str:
        """`2-D, 3x3 window, 64 -> 128 features, groups 1` for a kernel's note."""
        sizes = "x".join(str(w.size) for w in self.window) or "1"
        groups = f"feature groups {self.feature_groups}" if self.batch_groups == 1 else \
            f"batch groups {self.batch_groups}"
        return (f"{len(self.window)}-D, {sizes} window, {self.in_features} -> {self.out_features} features, "
                f"{groups}")


def split_position(b: ir.IRBuilder, geom: ConvGeometry, p: ir.Value) -> tuple[ir.Value, list[ir.Value]]:
    """Output position p (batch-major, then spatial row-major) -> (batch, spatial indices)."""
    indices = []
    for size in reversed(geom.out_spatial):
        indices.append(emitted(b.urem(p, I64(size))))
        p = emitted(b.udiv(p, I64(size)))
    return p, indices[::-1]


def tap_position(b: ir.IRBuilder, geom: ConvGeometry, out_spatial: list[ir.Value],
                 tap: list[ir.Value]) -> tuple[ir.Value, list[ir.Value]]:
    """(real element?, input spatial indices) of kernel tap `tap` at output `out_spatial`."""
    real: ir.Value = I1(1)
    indices: list[ir.Value] = []
    for o, t, w, n in zip(out_spatial, tap, geom.window, geom.in_spatial):
        pos = emitted(b.add(b.sub(b.mul(o, I64(w.stride)), I64(w.pad_low)), b.mul(t, I64(w.rhs_dilate))))
        inside = b.and_(b.icmp_signed(">=", pos, I64(0)), b.icmp_signed("<=", pos, I64((n - 1) * w.lhs_dilate)))
        if w.lhs_dilate > 1:
            inside = b.and_(inside, b.icmp_signed("==", b.srem(pos, I64(w.lhs_dilate)), I64(0)))
            pos = emitted(b.sdiv(pos, I64(w.lhs_dilate)))
        real = emitted(b.and_(real, inside))
        indices.append(pos)
    return real, indices


def kernel_tap(b: ir.IRBuilder, geom: ConvGeometry, tap: list[ir.Value]) -> list[ir.Value]:
    """The kernel's spatial indices for tap `tap`: flipped where rhs_reversal says."""
    return [emitted(b.sub(I64(w.size - 1), t)) if w.reversal else t for t, w in zip(tap, geom.window)]


def dot_strides(b: ir.IRBuilder, values: list[ir.Value], strides: list[int]) -> ir.Value:
    """sum(values[i] * strides[i]) as an i64."""
    total: ir.Value = I64(0)
    for v, s in zip(values, strides):
        total = emitted(b.add(total, b.mul(v, I64(s))))
    return total
