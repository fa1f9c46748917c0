"""HLO-level operations on tracers: each function emits one HLO instruction (or a tiny fixed
group) into the current frame and returns a Tracer. This is the frontend's `jax.lax`: the
numpy rules in rules/ are written in terms of these, never in terms of the builder.

Operands must already agree in shape and dtype where HLO requires it; the numpy-level
promotion and broadcasting happen in rules/common.py.
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from ..ir.attributes import PadDim, SliceDim, WindowDim
from ..ir.dtypes import from_numpy
from ..ir.shape import ArrayShape
from .abstract import ShapedArray
from .trace import Frame, tracing_frame
from .tracer import Tracer


def frame() -> Frame:
    """The computation being traced, which every op here writes into."""
    return tracing_frame("an HLO operation")


def hlo_dtype(dtype) -> str:
    return from_numpy(dtype).name


def emit(opcode: str, operands: Sequence[Tracer] = (), shape=None, **attrs) -> Tracer:
    """Any HLO op; the shape is inferred by the builder unless given."""
    return frame().emit(opcode, operands, shape, **attrs)


# ---- leaves ----
def constant(value, dtype) -> Tracer:
    """A constant of numpy `dtype` (a scalar or a whole array)."""
    return frame().wrap(frame().cb.constant(np.asarray(value, dtype=dtype)))


def full(shape: Sequence[int], value, dtype) -> Tracer:
    """`value` broadcast to `shape`: a scalar constant and a broadcast, as JAX writes it."""
    return broadcast_in_dim(constant(value, dtype), shape, ())


def iota(dtype, shape: Sequence[int], dimension: int) -> Tracer:
    return emit("iota", (), ArrayShape(hlo_dtype(dtype), tuple(shape)), iota_dimension=dimension)


# ---- elementwise ----
def unary(opcode: str, x: Tracer) -> Tracer:
    return emit(opcode, (x,))


def binary(opcode: str, x: Tracer, y: Tracer) -> Tracer:
    return emit(opcode, (x, y))


def compare(x: Tracer, y: Tracer, direction: str, kind: str | None = None) -> Tracer:
    """compare(x, y), direction; `kind` TOTALORDER orders floats by their bits (NaN last)."""
    return emit("compare", (x, y), direction=direction, **({"type": kind} if kind else {}))


def select(pred: Tracer, on_true: Tracer, on_false: Tracer) -> Tracer:
    return emit("select", (pred, on_true, on_false))


def convert(x: Tracer, dtype) -> Tracer:
    """x converted to numpy `dtype` (no instruction if it already is)."""
    dtype = np.dtype(dtype)
    if x.dtype == dtype:
        return x
    return emit("convert", (x,), ArrayShape(hlo_dtype(dtype), x.shape))


# ---- data movement ----
def broadcast_in_dim(x: Tracer, shape: Sequence[int], dims: Sequence[int]) -> Tracer:
    """XLA's broadcast: operand dim i becomes output dim dims[i]."""
    shape = tuple(shape)
    if x.shape == shape and tuple(dims) == tuple(range(len(shape))):
        return x
    return emit("broadcast", (x,), ArrayShape(hlo_dtype(x.dtype), shape), dimensions=tuple(dims))


def reshape(x: Tracer, shape: Sequence[int]) -> Tracer:
    shape = tuple(shape)
    if x.shape == shape:
        return x
    return emit("reshape", (x,), ArrayShape(hlo_dtype(x.dtype), shape))


def transpose(x: Tracer, perm: Sequence[int]) -> Tracer:
    perm = tuple(perm)
    if perm == tuple(range(x.ndim)):
        return x
    return emit("transpose", (x,), dimensions=perm)


def reverse(x: Tracer, dims: Sequence[int]) -> Tracer:
    return emit("reverse", (x,), dimensions=tuple(dims)) if dims else x


def slice_(x: Tracer, starts, limits, strides=None) -> Tracer:
    strides = strides or [1] * x.ndim
    if tuple(starts) == (0,) * x.ndim and tuple(limits) == x.shape and set(strides) <= {1}:
        return x
    spec = tuple(SliceDim(a, b, s) for a, b, s in zip(starts, limits, strides))
    return emit("slice", (x,), slice=spec)


def pad(x: Tracer, value: Tracer, config: Sequence[tuple[int, int, int]]) -> Tracer:
    return emit("pad", (x, value), padding=tuple(PadDim(*c) for c in config))


def concatenate(xs: Sequence[Tracer], axis: int) -> Tracer:
    return xs[0] if len(xs) == 1 else emit("concatenate", xs, dimensions=(axis,))


def dynamic_slice(x: Tracer, starts: Sequence[Tracer], sizes: Sequence[int]) -> Tracer:
    return emit("dynamic-slice", (x, *starts), dynamic_slice_sizes=tuple(sizes))


def gather(x: Tracer, indices: Tracer, **dims) -> Tracer:
    """XLA gather; `dims` are offset_dims, collapsed_slice_dims, start_index_map,
    index_vector_dim and slice_sizes."""
    return emit("gather", (x, indices), **{k: (v if isinstance(v, int) else tuple(v)) for k, v in dims.items()})


def get_tuple_element(inst, index: int) -> Tracer:
    f = frame()
    return f.wrap(f.cb.get_tuple_element(inst, index))


# ---- reductions and contractions ----
def region(dtypes: Sequence, body: Callable[..., Sequence[Tracer]]):
    """A scalar computation `region_K.N` taking (accumulators..., values...) for a reduce:
    `body(*params)` emits its result(s) with ops from this module, inside the new region."""
    return _scalar_computation([*dtypes, *dtypes], body)


def comparator(dtypes: Sequence, body: Callable[..., Tracer]):
    """A sort comparator taking (lhs_0, rhs_0, lhs_1, rhs_1, ...), one pair per operand, and
    returning a pred: does lhs come first?"""
    return _scalar_computation([d for d in dtypes for _ in range(2)], lambda *params: [body(*params)])


def _scalar_computation(param_dtypes: Sequence, body: Callable[..., Sequence[Tracer]]):
    outer = frame()
    sub = Frame(outer.lowering, outer.lowering.region_name(), parent=outer, scope=outer.scope)
    sub.cb.metadata = outer.cb.metadata
    params = [sub.parameter(ShapedArray((), d), f"Arg_{i}") for i, d in enumerate(param_dtypes)]
    with sub.active():
        outs = list(body(*params))
    return sub.finish(outs)


def reduce(xs: Sequence[Tracer], inits: Sequence[Tracer], axes: Sequence[int], computation) -> list[Tracer]:
    """Variadic reduce over `axes`; one tracer per input (a tuple result is unpacked)."""
    inst = frame().emit_inst("reduce", [*xs, *inits], dimensions=tuple(axes), to_apply=computation)
    if len(xs) == 1:
        return [frame().wrap(inst)]
    return [get_tuple_element(inst, i) for i in range(len(xs))]


def sort(xs: Sequence[Tracer], dimension: int, computation) -> list[Tracer]:
    """A stable sort of every operand along `dimension` by the comparator's order."""
    inst = frame().emit_inst("sort", list(xs), dimensions=(dimension,), is_stable=True, to_apply=computation)
    if len(xs) == 1:
        return [frame().wrap(inst)]
    return [get_tuple_element(inst, i) for i in range(len(xs))]


def reduce_window(x: Tracer, init: Tracer, window: Sequence[WindowDim], computation) -> Tracer:
    return emit("reduce-window", (x, init), window=tuple(window), to_apply=computation)


def dot_general(x: Tracer, y: Tracer, contracting, batch=((), ())) -> Tracer:
    """XLA dot: result dims are batch, then x's free dims, then y's free dims."""
    dims = dict(lhs_batch_dims=batch[0], lhs_contracting_dims=contracting[0],
                rhs_batch_dims=batch[1], rhs_contracting_dims=contracting[1])
    return emit("dot", (x, y), **{k: tuple(v) for k, v in dims.items() if len(v)})


def make_window(sizes, padding=None) -> tuple[WindowDim, ...]:
    """A reduce-window window: per-dimension sizes, stride 1, and (low, high) padding."""
    padding = padding or [(0, 0)] * len(sizes)
    return tuple(WindowDim(s, 1, lo, hi) for s, (lo, hi) in zip(sizes, padding))
