"""`reduce` and `reduce-window`, single-input and variadic.

Semantics (XLA's HloEvaluator): every output element starts from the init value, applied
once, and folds in its input elements one after another in row-major order:
`acc = to_apply(acc, x)` (for N inputs: `(acc_1..acc_N) = to_apply(acc_1..acc_N, x_1..x_N)`).

Fast paths: a reducer that is just add/multiply/maximum/minimum/and/or of its two
parameters becomes a numpy reduction (`ufunc.reduce`); other reducers run vectorized over all
output elements at once, one step per reduced element (scalar_calls.apply).
"""

from __future__ import annotations

from math import prod
from typing import TYPE_CHECKING

import numpy as np

from ..ir.dtypes import from_numpy
from ..ir.instruction import Instruction
from ..ir.shape import TupleShape
from .elementwise import BINARY, apply_elementwise, function_for
from .scalar_calls import REDUCER_UFUNCS, flatten, apply, reducer_opcode
from .windows import default_window, window_taps

if TYPE_CHECKING:  # annotations only: core imports the handler table, which imports this file
    from .core import Evaluator


def _split(ops: list) -> tuple[list, list]:
    n = len(ops) // 2
    return ops[:n], ops[n:]


def _result(inst: Instruction, values: list):
    return tuple(values) if inst.shape.is_tuple else values[0]


def _is_half(dtype: np.dtype) -> bool:
    element = from_numpy(dtype)
    return element.is_float and element.bits == 16


def handle_reduce(ev: Evaluator, inst: Instruction, ops: list):
    """reduce(inputs..., inits...), dimensions={...}, to_apply=comp."""
    inputs, inits = _split(ops)
    dims = tuple(sorted(inst.attr("dimensions", ())))
    x = inputs[0]
    out_dims = tuple(n for d, n in enumerate(x.shape) if d not in dims)
    if any(x.shape[d] == 0 for d in dims):
        return _result(inst, [np.broadcast_to(i, out_dims) for i in inits])
    fast = _numpy_reduce(ev, inst.attr("to_apply"), inputs, inits, dims)
    if fast is not None:
        return _result(inst, [fast])
    return _result(inst, _fold(ev, inst.attr("to_apply"), inputs, inits, dims, out_dims))


def _numpy_reduce(ev, comp_name: str, inputs: list, inits: list, dims: tuple):
    """ufunc.reduce for the usual reducers, or None.

    16-bit float sums and products are left to the general fold: XLA rounds the accumulator
    to f16/bf16 after every step, which a numpy reduction would not. max/min are exact in
    any order, so for 16-bit floats they run in f32.
    """
    op = reducer_opcode(ev.computation(comp_name))
    if op is None or len(inputs) != 1:
        return None
    x, init = inputs[0], inits[0]
    if _is_half(x.dtype):
        if op not in ("maximum", "minimum"):
            return None
        reduced = REDUCER_UFUNCS[op].reduce(x.astype(np.float32), axis=dims).astype(x.dtype)
    else:
        reduced = REDUCER_UFUNCS[op].reduce(x, axis=dims, dtype=x.dtype)
    return _binary(op, init, reduced)


def _binary(op: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The HLO binary op `op` with XLA's rules (NaN-propagating max, pred add = or, ...)."""
    fn = function_for(op, BINARY[op], b.dtype)
    return np.asarray(apply_elementwise(fn, [a, b])).astype(b.dtype, copy=False)


def _fold(ev, comp_name: str, inputs: list, inits: list, dims: tuple, out_dims: tuple) -> list:
    """The general case: one vectorized to_apply call per reduced element, in row-major order."""
    k = prod(inputs[0].shape[d] for d in dims)
    moved = [np.moveaxis(x, dims, tuple(range(len(dims)))).reshape((k,) + out_dims) for x in inputs]
    acc = [np.broadcast_to(i, out_dims) for i in inits]
    for j in range(k):
        acc = flatten(apply(ev, comp_name, acc + [m[j] for m in moved]))
    return acc


def handle_reduce_window(ev: Evaluator, inst: Instruction, ops: list):
    """reduce-window(inputs..., inits...), window={size stride pad lhs_dilate rhs_dilate}, to_apply.

    Each output element folds the real elements under its window (padding and base-dilation
    holes are skipped) into the init value. One vectorized step per window offset.
    """
    inputs, inits = _split(ops)
    x = inputs[0]
    shape = inst.shape  # variadic: a tuple of equal-dims results
    out_dims = (shape.elements[0] if isinstance(shape, TupleShape) else shape).as_array(inst.name).dims
    acc = [np.broadcast_to(i, out_dims) for i in inits]
    if x.size == 0 or 0 in out_dims:
        return _result(inst, acc)
    window = inst.attr("window") or default_window(x.ndim)
    combine = _combiner(ev, inst.attr("to_apply"), len(inputs))
    for index, valid in window_taps(out_dims, x.shape, window):
        new = combine(acc, [np.broadcast_to(v[index], out_dims) for v in inputs])
        acc = new if valid is None else [np.where(valid, n, a) for n, a in zip(new, acc)]
    return _result(inst, acc)


def _combiner(ev, comp_name: str, n: int):
    """acc, values -> new acc: the HLO binary op itself for the usual reducers."""
    op = reducer_opcode(ev.computation(comp_name))
    if op is not None and n == 1:
        return lambda acc, vals: [_binary(op, acc[0], vals[0])]
    return lambda acc, vals: flatten(apply(ev, comp_name, acc + vals))


HANDLERS = {"reduce": handle_reduce, "reduce-window": handle_reduce_window}
