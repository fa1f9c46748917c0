"""The steps of a random walk (hlo_strategies): one function per family of operations.

Each step takes the walk and a value `x` already made, applies one operation whose other
operands it makes or finds, and returns the new instruction, or None when the operation does
not apply to x (a reduce of a scalar, a dot of a pred). The builder infers and checks every
shape, so a step that builds something invalid fails loudly instead of making a bad module.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st

from hloscope.ir.instruction import Instruction
from hloscope.ir.shape import ArrayShape

FLOATS = ("f32", "f64", "bf16", "f16")
INTS = ("s32", "s8", "u8", "u32", "s64")
DTYPES = FLOATS + INTS + ("pred",)
MAX_RANK, MAX_DIM, MAX_ELEMENTS = 3, 4, 256

FLOAT_UNARY = (
    "abs negate sign exponential tanh logistic sine cosine floor ceil round-nearest-even "
    "round-nearest-afz exponential-minus-one erf cbrt copy"
).split()
GUARDED_UNARY = ("log", "sqrt", "rsqrt", "log-plus-one")  # need x > 0 (or > -1): fed abs(x) + 1
INT_UNARY = "abs negate sign not popcnt count-leading-zeros copy".split()
FLOAT_BINARY = "add subtract multiply divide maximum minimum atan2 remainder power".split()
INT_BINARY = (
    "add subtract multiply divide remainder maximum minimum and or xor "
    "shift-left shift-right-arithmetic shift-right-logical"
).split()
PRED_BINARY = "and or xor".split()
JUMPY = frozenset("floor ceil round-nearest-even round-nearest-afz sign is-finite remainder".split())
DIRECTIONS = "EQ NE LT LE GT GE".split()
REDUCERS = ("add", "maximum", "minimum")


def kind_of(dtype: str) -> str:
    """"pred", "int" or "float": which operations apply."""
    return "pred" if dtype == "pred" else "float" if dtype in FLOATS else "int"


def special_values(dtype: str) -> list:
    """Constants that simplification rules match: identities, zeros, extremes, a power of two."""
    if dtype == "pred":
        return [False, True]
    if dtype in FLOATS:
        return [0.0, -0.0, 1.0, 2.0, 0.5, -1.0, np.inf, -np.inf]
    info = np.iinfo(ArrayShape(dtype, ()).numpy_dtype)
    return [0, 1, 2, info.min, info.max] + ([-1] if info.min < 0 else [])


def _smooth(w, opcodes: list[str]) -> list[str]:
    return [o for o in opcodes if o not in JUMPY] if w.smooth else opcodes


def unary(w, x: Instruction) -> Instruction | None:
    kind = kind_of(x.shape.dtype)
    if kind == "pred":
        return w.cb.op("not", (x,))
    if kind == "int":
        return w.cb.op(w.pick(INT_UNARY), (x,))
    opcode = w.pick(_smooth(w, FLOAT_UNARY + list(GUARDED_UNARY) + ["is-finite"]))
    if opcode in GUARDED_UNARY:
        x = w.positive(x)
    return w.cb.op(opcode, (x,))


def binary(w, x: Instruction) -> Instruction:
    kind = kind_of(x.shape.dtype)
    opcode = w.pick({"pred": PRED_BINARY, "int": INT_BINARY, "float": _smooth(w, FLOAT_BINARY)}[kind])
    y = w.like(x.shape.dtype, x.shape.dims)
    if opcode == "power":
        x = w.positive(x)
    return w.cb.op(opcode, (x, y))


def compare(w, x: Instruction) -> Instruction | None:
    if w.smooth and kind_of(x.shape.dtype) == "float":
        return None
    y = w.like(x.shape.dtype, x.shape.dims)
    return w.cb.compare(x, y, w.pick(DIRECTIONS))


def select(w, x: Instruction) -> Instruction:
    s = x.shape
    pred = compare(w, x) if w.draw(st.booleans()) else None
    if pred is None:
        pred = w.like("pred", s.dims)
    if w.draw(st.booleans()) and s.dims:  # a scalar predicate selects whole arrays
        pred = w.like("pred", ())
    return w.cb.select(pred, x, w.like(s.dtype, s.dims))


def clamp(w, x: Instruction) -> Instruction | None:
    s = x.shape
    if s.dtype == "pred":
        return None
    bounds = () if w.draw(st.booleans()) else s.dims  # scalar or full-shape bounds
    return w.cb.clamp(w.like(s.dtype, bounds), x, w.like(s.dtype, bounds))


def convert(w, x: Instruction) -> Instruction:
    to = [d for d in DTYPES if d != x.shape.dtype]
    if w.smooth and kind_of(x.shape.dtype) == "float":
        to = [d for d in to if d in FLOATS]
    return w.cb.convert(x, w.pick(to))


def broadcast(w, x: Instruction) -> Instruction | None:
    dims = x.shape.dims
    extra = w.integer(0 if dims else 1, MAX_RANK + 1 - len(dims))
    out_rank = len(dims) + extra
    keep = sorted(w.draw(st.permutations(range(out_rank)))[: len(dims)])  # where x's dims go
    out = [w.integer(1, MAX_DIM) for _ in range(out_rank)]
    for i, d in enumerate(keep):
        out[d] = dims[i]
    if math.prod(out) > MAX_ELEMENTS:
        return None
    return w.cb.broadcast(x, tuple(out), keep)


def reshape(w, x: Instruction) -> Instruction:
    size, out = x.shape.size, []
    if size == 0:  # an empty array reshapes to any shape with a zero in it
        out = [w.integer(0, MAX_DIM) for _ in range(w.integer(1, MAX_RANK))]
        out[w.integer(0, len(out) - 1)] = 0
        return w.cb.reshape(x, tuple(out))
    while size > 1 and len(out) < MAX_RANK:
        factor = w.pick([f for f in range(1, size + 1) if size % f == 0])
        out.append(factor)
        size //= factor
    if size > 1:
        out.append(size)
    return w.cb.reshape(x, tuple(w.draw(st.permutations(out))) if out else ())


def transpose(w, x: Instruction) -> Instruction:
    return w.cb.transpose(x, w.draw(st.permutations(range(x.shape.rank))))


def slice_(w, x: Instruction) -> Instruction | None:
    if not x.shape.dims or 0 in x.shape.dims:
        return None
    starts, limits, strides = [], [], []
    for d in x.shape.dims:
        start = w.integer(0, d - 1)
        starts.append(start)
        limits.append(w.integer(start + 1, d))
        strides.append(w.integer(1, 2))
    return w.cb.slice(x, starts, limits, strides)


def concatenate(w, x: Instruction) -> Instruction | None:
    s = x.shape
    if not s.dims:
        return None
    axis = w.integer(0, s.rank - 1)
    parts = [x]
    for _ in range(w.integer(1, 2)):
        dims = list(s.dims)
        dims[axis] = w.integer(1, MAX_DIM)
        parts.append(w.like(s.dtype, tuple(dims)))
    order = w.draw(st.permutations(parts))
    return w.cb.concatenate(order, axis)


def pad(w, x: Instruction) -> Instruction | None:
    s = x.shape
    config = []
    if 0 in s.dims:
        return None
    for d in s.dims:
        interior = w.integer(0, 1)
        span = d + (d - 1) * interior
        low = w.integer(max(-span + 1, -2), 2)  # negative padding trims; keep >= 1 element
        high = w.integer(max(-(span + low) + 1, -2), 2)
        config.append((low, high, interior))
    out = [d + (d - 1) * i + lo + hi for d, (lo, hi, i) in zip(s.dims, config)]
    if math.prod(out) > MAX_ELEMENTS:
        return None
    return w.cb.pad(x, w.like(s.dtype, ()), config)


def reverse(w, x: Instruction) -> Instruction | None:
    if not x.shape.dims:
        return None
    dims = w.draw(st.lists(st.integers(0, x.shape.rank - 1), min_size=1, unique=True))
    return w.cb.reverse(x, sorted(dims))


def reduce(w, x: Instruction) -> Instruction | None:
    s = x.shape
    if not s.dims or s.dtype == "pred":
        return None
    dims = w.draw(st.lists(st.integers(0, s.rank - 1), min_size=1, unique=True))
    opcode = w.pick(REDUCERS)
    init = w.like(s.dtype, ()) if w.draw(st.booleans()) else _identity(w, s.dtype, opcode)
    return w.cb.reduce(x, init, sorted(dims), w.mb.scalar_reducer(opcode, s.dtype))


def normalize(w, x: Instruction) -> Instruction | None:
    """y - broadcast(reduce(y)) over the last dimension, y = unary(x): the softmax /
    layer-norm pattern, whose reduce and elementwise users of y make multi-output fusions."""
    s = x.shape
    if not s.dims or s.dtype == "pred":
        return None
    last = s.rank - 1
    x = w.add(w.cb.op(w.pick(["tanh", "exponential"] if s.dtype in FLOATS else ["negate", "abs"]), (x,)))
    total = w.cb.reduce(x, _identity(w, s.dtype, "add"), (last,), w.mb.scalar_reducer(w.pick(REDUCERS), s.dtype))
    back = w.cb.broadcast(w.add(total), s.dims, tuple(range(last)))
    return w.cb.subtract(x, back)


def _identity(w, dtype: str, opcode: str) -> Instruction:
    """The reduction's identity (0, -inf / MIN, +inf / MAX), as JAX writes its inits."""
    np_dtype = ArrayShape(dtype, ()).numpy_dtype
    if opcode == "add":
        return w.scalar_constant(dtype, 0)
    big = np.inf if dtype in FLOATS else np.iinfo(np_dtype).max
    low = -np.inf if dtype in FLOATS else np.iinfo(np_dtype).min
    return w.scalar_constant(dtype, low if opcode == "maximum" else big)


def dot(w, x: Instruction) -> Instruction | None:
    """A matrix-vector, matrix-matrix or batched product with a partner made to fit."""
    s = x.shape
    if s.dtype == "pred" or not 1 <= s.rank <= 3:
        return None
    batch = 1 if s.rank == 3 else 0
    contract = w.integer(batch, s.rank - 1)
    n = w.integer(1, MAX_DIM)
    rhs_dims = s.dims[:batch] + (s.dims[contract],) + ((n,) if w.draw(st.booleans()) else ())
    y = w.like(s.dtype, rhs_dims)
    batch_dims = tuple(range(batch))
    return w.cb.dot(x, y, (contract,), (batch,), batch_dims, batch_dims)


def tuple_gte(w, x: Instruction) -> Instruction:
    """get-tuple-element(tuple(...)): what tuple-simplifier folds away."""
    parts = [x, *(w.pick(w.pool) for _ in range(w.integer(0, 2)))]
    index = w.integer(0, len(parts) - 1)
    return w.cb.get_tuple_element(w.cb.tuple(*parts), index)


def call(w, x: Instruction) -> Instruction:
    """call(x, y) of a small computation: what call-inliner inlines."""
    s = x.shape
    sub = w.mb.computation("callee")
    a, b = sub.parameter(s), sub.parameter(s)
    opcode = w.pick({"pred": PRED_BINARY, "int": ("add", "maximum"), "float": ("add", "multiply")}[kind_of(s.dtype)])
    body = sub.build(sub.op(opcode, (sub.op(opcode, (a, b)), a)))
    return w.cb.call(body, x, w.like(s.dtype, s.dims))


def twice(w, x: Instruction) -> Instruction | None:
    """The same kind of step twice in a row: reshape(reshape(x)), negate(negate(x)), ...,
    the patterns that algebraic simplification and the reshape mover rewrite."""
    step = w.pick(REPEATABLE)
    once = step(w, x)
    return once if once is None else step(w, w.add(once))


REPEATABLE = (unary, convert, broadcast, reshape, transpose, slice_, reverse, pad)
STEPS = (
    unary, binary, binary, compare, select, clamp, convert, broadcast, reshape, transpose,
    slice_, concatenate, pad, reverse, reduce, dot, tuple_gte, call, twice, twice, normalize, normalize,
)  # fmt: skip
