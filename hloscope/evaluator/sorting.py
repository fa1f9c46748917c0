"""`sort` (with a comparator computation) and `map`.

sort reorders every operand along `dimensions={d}` by the permutation that sorts the
comparator's order; the comparator gets (lhs_0, rhs_0, lhs_1, rhs_1, ...) and returns true
when lhs comes first. Three ways, fastest first:

1. a comparator that is one `compare(p[2k], p[2k+1])` LT/GT becomes numpy's stable argsort
   of operand k (with TOTALORDER keys when asked);
2. a liftable comparator is evaluated on all pairs of a lane at once; an element's place is
   the number of elements that come before it (ties keep their positions: stable);
3. otherwise Python's stable sort calls the comparator per pair.
"""

from __future__ import annotations

from functools import cmp_to_key
from typing import TYPE_CHECKING

import numpy as np

from ..ir.computation import Computation
from ..ir.dtypes import from_numpy
from ..ir.instruction import Instruction
from ..ir.opcodes import comparison_type
from ..ir.memo import per_value
from .compare import comparable
from .scalar_calls import apply, liftable

if TYPE_CHECKING:  # annotations only: core imports the handler table, which imports this file
    from .core import Evaluator

_PAIRWISE_LIMIT = 1 << 22  # elements in the all-pairs comparison of one batch of lanes


@per_value
def simple_key(comp: Computation) -> tuple[int, bool, str] | None:
    """(operand k, descending, comparison type) for a comparator `ROOT compare(p[2k], p[2k+1])`."""
    root = comp.root_instruction
    if root.opcode != "compare" or root.attr("direction") not in ("LT", "GT"):
        return None
    params = {p.name: p.parameter_number for p in comp.parameters}
    a, b = (params.get(o) for o in root.operands)
    if a is None or b is None or a // 2 != b // 2 or a == b:
        return None
    descending = (root.attr("direction") == "GT") == (a < b)
    return a // 2, descending, comparison_type(root) or "FLOAT"


def _sort_keys(x: np.ndarray, descending: bool, kind: str) -> np.ndarray:
    """Values whose ascending numpy order is the comparator's order."""
    keys = comparable(x, kind)
    if keys.dtype == np.bool_:
        keys = keys.astype(np.uint8)
    if not descending:
        return keys
    return -keys if from_numpy(keys.dtype).is_float else ~keys  # ~ reverses any int order exactly


def handle_sort(ev: Evaluator, inst: Instruction, ops: list):
    """sort(operands...), dimensions={d}, is_stable, to_apply=comparator (sorting is always stable)."""
    dim = inst.attr("dimensions")[0]
    comp = ev.computation(inst.attr("to_apply"))
    key = simple_key(comp)
    if key is not None:
        k, descending, kind = key
        order = np.argsort(_sort_keys(ops[k], descending, kind), axis=dim, kind="stable")
    else:
        lanes = [np.moveaxis(x, dim, -1) for x in ops]
        order = np.moveaxis(_lane_order(ev, comp, lanes), -1, dim)
    results = [np.take_along_axis(x, order, axis=dim) for x in ops]
    return tuple(results) if inst.shape.is_tuple else results[0]


def _lane_order(ev, comp: Computation, lanes: list[np.ndarray]) -> np.ndarray:
    """The sorting permutation of every lane (last axis) under the comparator."""
    n = lanes[0].shape[-1]
    flat = [x.reshape(-1, n) for x in lanes]
    if liftable(ev.module, comp) and n * n <= _PAIRWISE_LIMIT:
        step = max(1, _PAIRWISE_LIMIT // max(n * n, 1))
        starts = range(0, flat[0].shape[0], step)
        parts = [_pairwise_order(ev, comp, [f[i : i + step] for f in flat]) for i in starts]
        order = np.concatenate(parts) if parts else np.zeros((0, n), np.int64)
    else:
        rows = [_python_order(ev, comp, [f[i] for f in flat]) for i in range(flat[0].shape[0])]
        order = np.array(rows, dtype=np.int64).reshape(-1, n)
    return order.reshape(lanes[0].shape)


def _pairwise_order(ev, comp: Computation, lanes: list[np.ndarray]) -> np.ndarray:
    """Rank of i = #{j: less(j, i)}; a stable argsort of the ranks is the sorted order (for a
    strict weak order, equivalent elements share a rank and keep their positions)."""
    args = []
    for x in lanes:
        args += [x[:, :, None], x[:, None, :]]  # lhs = element i, rhs = element j
    less = np.asarray(apply(ev, comp.name, args), bool)  # less[b, i, j] = less(x_i, x_j)
    rank = less.sum(axis=1)  # rank[b, i] = #{j: less(x_j, x_i)}
    return np.argsort(rank, axis=1, kind="stable")


def _python_order(ev, comp: Computation, lane: list[np.ndarray]) -> list[int]:
    """Python's stable sort with the comparator called on scalars (the slow general case)."""
    def less(i: int, j: int) -> bool:
        args = []
        for x in lane:
            args += [np.asarray(x[i]), np.asarray(x[j])]
        return bool(ev.run(comp, args))

    def cmp(i: int, j: int) -> int:
        return -1 if less(i, j) else (1 if less(j, i) else 0)

    return sorted(range(len(lane[0])), key=cmp_to_key(cmp))


def handle_map(ev: Evaluator, inst: Instruction, ops: list):
    """map(operands...), to_apply: the scalar computation applied to each element position."""
    return apply(ev, inst.attr("to_apply"), ops)


HANDLERS = {"sort": handle_sort, "map": handle_map}
