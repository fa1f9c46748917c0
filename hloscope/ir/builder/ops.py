"""Per-opcode conveniences on ComputationBuilder: `cb.add(x, y)`, `cb.dot(...)`, `cb.reduce(...)`.

Each turns friendly Python arguments into XLA's attributes (in XLA's print order) and calls
the generic `op`, which infers and checks the shape.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from typing import Any, Union

from ..attributes import Metadata, PadDim, SliceDim, WindowDim
from ..computation import Computation
from ..instruction import Instruction
from ..shape import ArrayShape, Shape
from ..shape_inference import infer_shape

Handle = Union[Instruction, str]  # what the builder returns, or an instruction name
CompRef = Union[Computation, str]


def make_window(
    sizes, strides=None, padding=None, lhs_dilation=None, rhs_dilation=None
) -> tuple[WindowDim, ...]:
    """A reduce-window window from per-dimension lists; padding is a list of (low, high)."""
    n = len(sizes)
    strides, padding = strides or [1] * n, padding or [(0, 0)] * n
    lhs, rhs = lhs_dilation or [1] * n, rhs_dilation or [1] * n
    return tuple(
        WindowDim(s, st, p[0], p[1], lo, hi)
        for s, st, p, lo, hi in zip(sizes, strides, padding, lhs, rhs)
    )


# The two factories leave their return type to inference, which keeps the exact method
# signature, so a checker catches `cb.add(x)` with a missing operand.
def _unary(opcode: str):
    """A builder method for the elementwise `opcode(x)`."""

    def method(self: OpMethods, x: Handle, **kw: Any) -> Instruction:
        return self.op(opcode, (x,), **kw)

    method.__doc__ = f"`{opcode}(x)`, elementwise."
    return method


def _binary(opcode: str):
    """A builder method for the elementwise `opcode(x, y)`."""

    def method(self: OpMethods, x: Handle, y: Handle, **kw: Any) -> Instruction:
        return self.op(opcode, (x, y), **kw)

    method.__doc__ = f"`{opcode}(x, y)`, elementwise; both operands have one shape."
    return method


class OpMethods(ABC):
    """One method per common opcode, all ending in `op`, which ComputationBuilder supplies."""

    @abstractmethod
    def op(
        self,
        opcode: str,
        operands: Iterable[Handle] = (),
        shape: Shape | str | None = None,
        metadata: Metadata | dict | None = None,
        name: str | None = None,
        **attrs: Any,
    ) -> Instruction:
        """Add `opcode(operands)` with `attrs` (see ComputationBuilder.op)."""

    @abstractmethod
    def _shape(self, handle: Handle) -> Shape:
        """The shape of an instruction already in this computation."""

    def _array_shape(self, handle: Handle) -> ArrayShape:
        """The shape of an operand the op needs to be an array (HloVerifierError naming it if not)."""
        return self._shape(handle).as_array(handle.name if isinstance(handle, Instruction) else handle)

    def iota(self, shape: ArrayShape, dimension: int, **kw) -> Instruction:
        return self.op("iota", (), shape=shape, iota_dimension=dimension, **kw)

    # ---- elementwise ----
    abs, negate, sign, exponential, log, sqrt, rsqrt, tanh = map(
        _unary, "abs negate sign exponential log sqrt rsqrt tanh".split()
    )
    exponential_minus_one, log_plus_one, logistic, sine, cosine = map(
        _unary, "exponential-minus-one log-plus-one logistic sine cosine".split()
    )
    floor, ceil, round_nearest_even, round_nearest_afz, erf, cbrt, tan = map(
        _unary, "floor ceil round-nearest-even round-nearest-afz erf cbrt tan".split()
    )
    not_, is_finite, popcnt, count_leading_zeros, copy = map(
        _unary, "not is-finite popcnt count-leading-zeros copy".split()
    )
    add, subtract, multiply, divide, remainder, power = map(
        _binary, "add subtract multiply divide remainder power".split()
    )
    maximum, minimum, atan2, and_, or_, xor = map(
        _binary, "maximum minimum atan2 and or xor".split()
    )
    shift_left, shift_right_arithmetic, shift_right_logical = map(
        _binary, "shift-left shift-right-arithmetic shift-right-logical".split()
    )

    def compare(
        self, x: Handle, y: Handle, direction: str, comparison_type: str | None = None, **kw
    ) -> Instruction:
        """`compare(x, y), direction=LT` -> pred of the same dims."""
        extra = {"type": comparison_type} if comparison_type else {}
        return self.op("compare", (x, y), direction=direction, **extra, **kw)

    def select(self, pred: Handle, on_true: Handle, on_false: Handle, **kw) -> Instruction:
        return self.op("select", (pred, on_true, on_false), **kw)

    def clamp(self, lo: Handle, x: Handle, hi: Handle, **kw) -> Instruction:
        return self.op("clamp", (lo, x, hi), **kw)

    def convert(self, x: Handle, dtype: str, **kw) -> Instruction:
        return self.op("convert", (x,), shape=self._array_shape(x).with_dtype(dtype), **kw)

    def bitcast_convert(self, x: Handle, dtype: str, **kw) -> Instruction:
        shape = infer_shape("bitcast-convert", [self._shape(x)], {}, declared=ArrayShape(dtype, ()))
        return self.op("bitcast-convert", (x,), shape=shape, **kw)

    def map(self, operands: Sequence[Handle], to_apply: CompRef, **kw) -> Instruction:
        rank = self._array_shape(operands[0]).rank
        return self.op("map", operands, dimensions=tuple(range(rank)), to_apply=to_apply, **kw)

    # ---- data movement ----
    def broadcast(
        self, x: Handle, dims: Sequence[int], dimensions: Sequence[int] | None = None, **kw
    ) -> Instruction:
        """Broadcast to `dims`; operand dim i goes to output dim dimensions[i] (default: the trailing ones)."""
        shape = self._array_shape(x)
        dimensions = (
            tuple(range(len(dims) - shape.rank, len(dims)))
            if dimensions is None
            else tuple(dimensions)
        )
        return self.op(
            "broadcast",
            (x,),
            shape=ArrayShape(shape.dtype, tuple(dims)),
            dimensions=dimensions,
            **kw,
        )

    def reshape(self, x: Handle, dims: Sequence[int], **kw) -> Instruction:
        return self.op("reshape", (x,), shape=ArrayShape(self._array_shape(x).dtype, tuple(dims)), **kw)

    def bitcast(self, x: Handle, shape: Shape, **kw) -> Instruction:
        return self.op("bitcast", (x,), shape=shape, **kw)

    def transpose(self, x: Handle, permutation: Sequence[int], **kw) -> Instruction:
        return self.op("transpose", (x,), dimensions=tuple(permutation), **kw)

    def reverse(self, x: Handle, dimensions: Sequence[int], **kw) -> Instruction:
        return self.op("reverse", (x,), dimensions=tuple(dimensions), **kw)

    def slice(
        self,
        x: Handle,
        starts: Sequence[int],
        limits: Sequence[int],
        strides: Sequence[int] | None = None,
        **kw,
    ) -> Instruction:
        strides = strides or [1] * len(starts)
        spec = tuple(SliceDim(a, b, s) for a, b, s in zip(starts, limits, strides))
        return self.op("slice", (x,), slice=spec, **kw)

    def dynamic_slice(
        self, x: Handle, starts: Sequence[Handle], sizes: Sequence[int], **kw
    ) -> Instruction:
        return self.op("dynamic-slice", (x, *starts), dynamic_slice_sizes=tuple(sizes), **kw)

    def dynamic_update_slice(
        self, x: Handle, update: Handle, starts: Sequence[Handle], **kw
    ) -> Instruction:
        return self.op("dynamic-update-slice", (x, update, *starts), **kw)

    def concatenate(self, operands: Sequence[Handle], dimension: int, **kw) -> Instruction:
        return self.op("concatenate", operands, dimensions=(dimension,), **kw)

    def pad(self, x: Handle, value: Handle, config: Sequence, **kw) -> Instruction:
        """config: per dimension a PadDim or (low, high[, interior])."""
        padding = tuple(p if isinstance(p, PadDim) else PadDim(*p) for p in config)
        return self.op("pad", (x, value), padding=padding, **kw)

    def tuple(self, *elements: Handle, **kw) -> Instruction:
        return self.op("tuple", elements, **kw)

    def get_tuple_element(self, x: Handle, index: int, **kw) -> Instruction:
        return self.op("get-tuple-element", (x,), index=index, **kw)

    # ---- reductions and contractions ----
    def reduce(
        self, inputs, inits, dimensions: Sequence[int], to_apply: CompRef, **kw
    ) -> Instruction:
        """Reduce `inputs` (one handle or several) over `dimensions` starting from `inits`."""
        operands = [*_listify(inputs), *_listify(inits)]
        return self.op("reduce", operands, dimensions=tuple(dimensions), to_apply=to_apply, **kw)

    def reduce_window(
        self, inputs, inits, window: Sequence[WindowDim], to_apply: CompRef, **kw
    ) -> Instruction:
        operands = [*_listify(inputs), *_listify(inits)]
        return self.op("reduce-window", operands, window=tuple(window), to_apply=to_apply, **kw)

    def dot(
        self,
        lhs: Handle,
        rhs: Handle,
        lhs_contracting_dims=(),
        rhs_contracting_dims=(),
        lhs_batch_dims=(),
        rhs_batch_dims=(),
        dtype: str | None = None,
        **kw,
    ) -> Instruction:
        """dot_general; the result type is the operands' unless `dtype` (XLA's preferred type) is given."""
        dims = dict(
            lhs_batch_dims=lhs_batch_dims,
            lhs_contracting_dims=lhs_contracting_dims,
            rhs_batch_dims=rhs_batch_dims,
            rhs_contracting_dims=rhs_contracting_dims,
        )
        attrs = {k: tuple(v) for k, v in dims.items() if len(v)}  # XLA prints only non-empty ones
        if dtype is not None:
            kw["shape"] = infer_shape(
                "dot", [self._shape(lhs), self._shape(rhs)], attrs, declared=ArrayShape(dtype, ())
            )
        return self.op("dot", (lhs, rhs), **attrs, **kw)

    def gather(
        self,
        operand: Handle,
        indices: Handle,
        offset_dims,
        collapsed_slice_dims,
        start_index_map,
        index_vector_dim: int,
        slice_sizes,
        **kw,
    ) -> Instruction:
        return self.op(
            "gather",
            (operand, indices),
            offset_dims=tuple(offset_dims),
            collapsed_slice_dims=tuple(collapsed_slice_dims),
            start_index_map=tuple(start_index_map),
            index_vector_dim=index_vector_dim,
            slice_sizes=tuple(slice_sizes),
            **kw,
        )

    def scatter(
        self,
        operands,
        indices: Handle,
        updates,
        update_window_dims,
        inserted_window_dims,
        scatter_dims_to_operand_dims,
        index_vector_dim: int,
        to_apply: CompRef,
        **kw,
    ) -> Instruction:
        ops = [*_listify(operands), indices, *_listify(updates)]
        return self.op(
            "scatter",
            ops,
            update_window_dims=tuple(update_window_dims),
            inserted_window_dims=tuple(inserted_window_dims),
            scatter_dims_to_operand_dims=tuple(scatter_dims_to_operand_dims),
            index_vector_dim=index_vector_dim,
            to_apply=to_apply,
            **kw,
        )

    def sort(
        self, operands, dimension: int, comparator: CompRef, is_stable: bool = False, **kw
    ) -> Instruction:
        stable = {"is_stable": True} if is_stable else {}
        return self.op(
            "sort", _listify(operands), dimensions=(dimension,), **stable, to_apply=comparator, **kw
        )

    # ---- calls and control flow ----
    def call(self, computation: CompRef, *args: Handle, **kw) -> Instruction:
        return self.op("call", args, to_apply=computation, **kw)

    def fusion(
        self, computation: CompRef, args: Sequence[Handle], kind: str = "kLoop", **kw
    ) -> Instruction:
        return self.op("fusion", args, kind=kind, calls=computation, **kw)

    def while_loop(self, condition: CompRef, body: CompRef, init: Handle, **kw) -> Instruction:
        return self.op("while", (init,), condition=condition, body=body, **kw)

    def conditional(
        self, index: Handle, branches: Sequence[CompRef], operands: Sequence[Handle], **kw
    ) -> Instruction:
        """Branch i gets operands[i]; a pred index takes (true, false) branches, an s32 index any number."""
        if self._array_shape(index).dtype == "pred" and len(branches) == 2:
            kw.update(true_computation=branches[0], false_computation=branches[1])
        else:
            kw.update(branch_computations=tuple(branches))
        return self.op("conditional", (index, *operands), **kw)

    def custom_call(
        self, target: str, operands: Sequence[Handle], shape: Shape, **kw
    ) -> Instruction:
        return self.op("custom-call", operands, shape=shape, custom_call_target=target, **kw)


def _listify(x) -> list:
    return list(x) if isinstance(x, (list, tuple)) else [x]
