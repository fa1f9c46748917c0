"""Applying a scalar computation (a reducer, comparator or combiner) to whole arrays.

reduce, reduce-window, scatter, sort, map and select-and-scatter each call a computation
on scalars, once per element or per pair. Calling it per element from Python is slow, so:

1. `reducer_opcode` recognizes the usual reducers (`ROOT r = add(p0, p1)` and the like),
   which the callers replace by numpy's own reductions and `ufunc.at`;
2. otherwise, when every instruction of the computation is a scalar elementwise op
   (`liftable`), the computation runs once on whole arrays (the core's lifted mode);
3. otherwise it really runs once per element (`_per_element`), the slow general case.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ..ir.computation import Computation
from ..ir.opcodes import OPCODES
from ..ir.shape import ArrayShape, TupleShape
from ..ir.memo import per_value

# Reducers numpy can run itself; each name is both the HLO opcode and the behaviour.
REDUCER_UFUNCS = {
    "add": np.add,
    "multiply": np.multiply,
    "maximum": np.maximum,
    "minimum": np.minimum,
    "and": np.bitwise_and,
    "or": np.bitwise_or,
}
_LIFTABLE_DATA = frozenset(
    {"parameter", "constant", "tuple", "get-tuple-element", "broadcast", "reshape", "bitcast", "copy"}
)


@per_value
def reducer_opcode(comp: Computation) -> str | None:
    """`add` etc. when comp is exactly `ROOT r = OP(param0, param1)` on scalars, else None."""
    params = comp.parameters
    root = comp.root_instruction
    if len(params) != 2 or len(comp.instructions) != 3 or root.opcode not in REDUCER_UFUNCS:
        return None
    if tuple(root.operands) != (params[0].name, params[1].name):
        if tuple(root.operands) != (params[1].name, params[0].name):
            return None
    if not isinstance(root.shape, ArrayShape) or root.shape.rank != 0:
        return None
    return root.opcode


def _scalar_shaped(shape) -> bool:
    if isinstance(shape, TupleShape):
        return all(_scalar_shaped(s) for s in shape.elements)
    return isinstance(shape, ArrayShape) and shape.rank == 0


def liftable(module, comp: Computation) -> bool:
    """True when comp is made only of scalar elementwise ops, so it can run on arrays."""
    if module is None:  # nothing to key the cache on (and no calls to follow): computed each time
        return _liftable(module, comp)
    return _liftable_cached(module, comp)


def _liftable(module, comp: Computation) -> bool:
    for inst in comp.instructions:
        if not _scalar_shaped(inst.shape):
            return False
        if inst.opcode == "call":
            if not liftable(module, module.computation(inst.attr("to_apply"))):
                return False
        elif inst.opcode not in _LIFTABLE_DATA:
            row = OPCODES.get(inst.opcode)
            if row is None or not row.elementwise:
                return False
    return True


_liftable_cached = per_value(_liftable)


def apply(ev, comp_name: str, args: Sequence[np.ndarray]):
    """comp applied elementwise to same-shaped (or broadcastable) arrays: one value per element.

    Returns an array, or a tuple of arrays when the computation returns a tuple.
    """
    comp = ev.computation(comp_name)
    if liftable(ev.module, comp):
        shape = np.broadcast_shapes(*(np.shape(a) for a in args))
        return _broadcast(ev.run(comp, list(args), lifted=True), shape)
    return _per_element(ev, comp, args)


def _broadcast(value, shape):
    """A lifted result can be smaller than the inputs (e.g. a constant ROOT); widen it."""
    if isinstance(value, tuple):
        return tuple(_broadcast(v, shape) for v in value)
    return value if value.shape == shape else np.broadcast_to(value, shape)


def _per_element(ev, comp: Computation, args: Sequence[np.ndarray]):
    shape = np.broadcast_shapes(*(np.shape(a) for a in args))
    args = [np.broadcast_to(a, shape) for a in args]
    leaves = _leaf_dtypes(comp.root_instruction.shape)
    outs = [np.empty(shape, dt) for dt in leaves]
    for index in np.ndindex(*shape):
        value = ev.run(comp, [np.asarray(a[index]) for a in args])
        flat = flatten(value)
        for out, v in zip(outs, flat):
            out[index] = v
    return _unflatten(comp.root_instruction.shape, iter(outs))


def _leaf_dtypes(shape) -> list[np.dtype]:
    if isinstance(shape, TupleShape):
        return [dt for s in shape.elements for dt in _leaf_dtypes(s)]
    return [shape.numpy_dtype]


def flatten(value) -> list:
    if isinstance(value, tuple):
        return [leaf for v in value for leaf in flatten(v)]
    return [value]


def _unflatten(shape, leaves):
    if isinstance(shape, TupleShape):
        return tuple(_unflatten(s, leaves) for s in shape.elements)
    return next(leaves)


def combine_at(ev, comp_name: str, outs: list[np.ndarray], targets: np.ndarray, updates: list[np.ndarray]):
    """outs[t] = comp(outs[t], update) for each (t, update) in order, in place on flat arrays.

    Repeated targets are combined one after the other in the given order (scatter's rule):
    the updates are split into rounds, round r holding each target's r-th update, so every
    round is one vectorized call with distinct targets.
    """
    comp = ev.computation(comp_name)
    op = reducer_opcode(comp)
    if op is not None and len(outs) == 1 and outs[0].dtype.itemsize != 2:
        REDUCER_UFUNCS[op].at(outs[0], targets, updates[0])
        return
    rank = _occurrence_rank(targets)
    for r in range(int(rank.max(initial=-1)) + 1):
        pick = rank == r
        t = targets[pick]
        value = apply(ev, comp_name, [o[t] for o in outs] + [u[pick] for u in updates])
        for o, v in zip(outs, flatten(value)):
            o[t] = v


def _occurrence_rank(targets: np.ndarray) -> np.ndarray:
    """For each position, how many earlier positions have the same target."""
    n = targets.size
    order = np.argsort(targets, kind="stable")
    sorted_t = targets[order]
    starts = np.r_[True, sorted_t[1:] != sorted_t[:-1]] if n else np.zeros(0, bool)
    group_start = np.maximum.accumulate(np.where(starts, np.arange(n), 0)) if n else starts
    rank = np.empty(n, np.int64)
    rank[order] = np.arange(n) - group_start
    return rank
