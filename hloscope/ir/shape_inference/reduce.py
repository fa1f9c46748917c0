"""Shape rules for reductions and windows: reduce, reduce-window, select-and-scatter, sort.

Variadic forms take N inputs then N scalar init values, return a tuple when N > 1, and
call a reducer `(acc_0..acc_N-1, x_0..x_N-1) -> acc` (a tuple when N > 1), as in XLA.
"""

from __future__ import annotations

from ..shape import ArrayShape, Shape, scalar
from .common import (
    OpCall,
    check,
    check_dims,
    check_params,
    compatible,
    fmt,
    tuple_or_single,
)


def _inputs_and_inits(op: OpCall) -> tuple[list[ArrayShape], list[ArrayShape]]:
    """Split N inputs (equal dims) from N scalar init values."""
    n2 = len(op.operands)
    check(
        n2 >= 2 and n2 % 2 == 0, f"{op.opcode} needs N inputs and N init values, got {n2} operands"
    )
    inputs, inits = op.arrays(0, n2 // 2), op.arrays(n2 // 2)
    for x in inputs[1:]:
        check(
            x.dims == inputs[0].dims,
            f"{op.opcode} inputs {fmt(inputs[0])} and {fmt(x)} differ in dimensions",
        )
    for i, init in enumerate(inits):
        check(init.rank == 0, f"{op.opcode} init value {i} must be a scalar, got {fmt(init)}")
    return inputs, inits


def check_reducer(op: OpCall, inputs: list[ArrayShape], inits: list[ArrayShape]) -> None:
    """to_apply is (acc..., x...) -> acc: accumulators typed like the inits, xs like the inputs."""
    comp = op.computation("to_apply")
    expected = [scalar(i.dtype) for i in inits] + [scalar(x.dtype) for x in inputs]
    root = check_params(comp, expected, "reducer")
    want = tuple_or_single([scalar(i.dtype) for i in inits])
    check(compatible(root, want), f"reducer {comp.name} returns {fmt(root)}, expected {fmt(want)}")


def reduce(op: OpCall) -> Shape:
    """Drop the reduced dimensions; element types come from the init values."""
    inputs, inits = _inputs_and_inits(op)
    dims = tuple(op.attr("dimensions"))
    check_dims(dims, inputs[0].rank, "reduce dimension")
    check_reducer(op, inputs, inits)
    kept = tuple(d for i, d in enumerate(inputs[0].dims) if i not in dims)
    return tuple_or_single([ArrayShape(init.dtype, kept) for init in inits])


def _dilated(bound: int, dilation: int) -> int:
    return 0 if bound == 0 else (bound - 1) * dilation + 1


def window_output_dims(base: ArrayShape, window, opcode: str) -> tuple[int, ...]:
    """XLA's InferWindowOutputShape: per dim, how many strided window positions fit."""
    check(len(window) == base.rank, f"{opcode} window has {len(window)} dimensions for {fmt(base)}")
    dims = []
    for i, (w, size) in enumerate(zip(window, base.dims)):
        check(
            w.size > 0 and w.stride > 0,
            f"{opcode} window size and stride must be positive in dimension {i}",
        )
        check(
            w.lhs_dilate >= 1 and w.rhs_dilate >= 1,
            f"{opcode} window dilation must be >= 1 in dimension {i}",
        )
        padded = _dilated(size, w.lhs_dilate) + w.pad_low + w.pad_high
        span = _dilated(w.size, w.rhs_dilate)
        dims.append(0 if span > padded else (padded - span) // w.stride + 1)
    return tuple(dims)


def reduce_window(op: OpCall) -> Shape:
    inputs, inits = _inputs_and_inits(op)
    dims = window_output_dims(inputs[0], op.attr("window", ()), op.opcode)  # no window: rank 0, as XLA
    check_reducer(op, inputs, inits)
    return tuple_or_single([ArrayShape(init.dtype, dims) for init in inits])


def select_and_scatter(op: OpCall) -> Shape:
    """Source has the window output shape of the operand; the result has the operand's."""
    x, source, init = op.arrays()
    t = scalar(x.dtype)
    check(init.same_dims_and_type(t), f"select-and-scatter init value {fmt(init)} must be {fmt(t)}")
    dims = window_output_dims(x, op.attr("window", ()), op.opcode)  # no window: rank 0, as XLA
    check(
        source.dims == dims and source.dtype == x.dtype,
        f"select-and-scatter source {fmt(source)} must be {fmt(ArrayShape(x.dtype, dims))}",
    )
    select = op.computation("select")
    root = check_params(select, [t, t], "select computation")
    check(
        compatible(root, scalar("pred")),
        f"select computation {select.name} returns {fmt(root)}, expected pred[]",
    )
    scatter = op.computation("scatter")
    root = check_params(scatter, [t, t], "scatter computation")
    check(
        compatible(root, t),
        f"scatter computation {scatter.name} returns {fmt(root)}, expected {fmt(t)}",
    )
    return x


def sort(op: OpCall) -> Shape:
    """Operands of equal dims sorted together along one dimension by a (a, b) -> pred comparator."""
    shapes = op.arrays()
    check(len(shapes) >= 1, "sort needs at least one operand")
    for s in shapes[1:]:
        check(
            s.dims == shapes[0].dims,
            f"sort operands {fmt(shapes[0])} and {fmt(s)} differ in dimensions",
        )
    dims = tuple(op.attr("dimensions"))
    check(len(dims) == 1, f"sort needs exactly one dimension, got {list(dims)}")
    check_dims(dims, shapes[0].rank, "sort dimension")
    comp = op.computation("to_apply")
    expected = [scalar(s.dtype) for s in shapes for _ in (0, 1)]
    root = check_params(comp, expected, "comparator")
    check(
        compatible(root, scalar("pred")),
        f"comparator {comp.name} returns {fmt(root)}, expected pred[]",
    )
    return tuple_or_single(list(shapes))


RULES = {
    "reduce": reduce,
    "reduce-window": reduce_window,
    "select-and-scatter": select_and_scatter,
    "sort": sort,
}
