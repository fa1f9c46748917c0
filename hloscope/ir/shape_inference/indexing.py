"""Shape rules for dot (general dimension numbers), gather and scatter.

These follow XLA's InferDotOpShape, InferGatherShape and InferScatterShape: the same
dimension-number checks, in terms of the operands, and the same output dimension order.
"""

from __future__ import annotations

from ..shape import ArrayShape, Shape
from .common import OpCall, check, check_dims, fail, fmt, tuple_or_single
from .reduce import check_reducer


def _ints(op: OpCall, key: str) -> tuple[int, ...]:
    return tuple(op.attr(key, ()))


def _check_sorted(dims: tuple[int, ...], what: str) -> None:
    check(list(dims) == sorted(dims), f"{what} {list(dims)} must be sorted")


def dot(op: OpCall) -> Shape:
    """Batch dims, then lhs free dims, then rhs free dims; contracted sizes must agree."""
    lhs, rhs = op.array(0, "dot lhs"), op.array(1, "dot rhs")
    lb, lc = _ints(op, "lhs_batch_dims"), _ints(op, "lhs_contracting_dims")
    rb, rc = _ints(op, "rhs_batch_dims"), _ints(op, "rhs_contracting_dims")
    check_dims(lb + lc, lhs.rank, "dot lhs batch/contracting dimension")
    check_dims(rb + rc, rhs.rank, "dot rhs batch/contracting dimension")
    check(len(lb) == len(rb), f"dot has {len(lb)} lhs batch dims but {len(rb)} rhs batch dims")
    check(
        len(lc) == len(rc),
        f"dot has {len(lc)} lhs contracting dims but {len(rc)} rhs contracting dims",
    )
    for kind, ls, rs in (("batch", lb, rb), ("contracting", lc, rc)):
        for ld, rd in zip(ls, rs):
            check(
                lhs.dims[ld] == rhs.dims[rd],
                f"dot {kind} dimension sizes differ: lhs {fmt(lhs)} dimension {ld} is {lhs.dims[ld]}, "
                f"rhs {fmt(rhs)} dimension {rd} is {rhs.dims[rd]}",
            )
    dims = [lhs.dims[d] for d in lb]
    dims += [s for i, s in enumerate(lhs.dims) if i not in lb + lc]
    dims += [s for i, s in enumerate(rhs.dims) if i not in rb + rc]
    return ArrayShape(_dot_type(op, lhs, rhs), tuple(dims))


def _dot_type(op: OpCall, lhs: ArrayShape, rhs: ArrayShape) -> str:
    """The declared result type (XLA's preferred_element_type), else the common operand type."""
    if isinstance(op.declared, ArrayShape):
        return op.declared.dtype
    if lhs.dtype != rhs.dtype:
        fail(f"dot operand types differ ({fmt(lhs)}, {fmt(rhs)}); give the result shape")
    return lhs.dtype


def _expanded_indices(idx: ArrayShape, ivd: int, opcode: str) -> tuple[int, ...]:
    """Index dims with an implicit trailing 1 when index_vector_dim == rank."""
    check(idx.element_type.is_integer, f"{opcode} indices must be integers, got {fmt(idx)}")
    check(0 <= ivd <= idx.rank, f"{opcode} index_vector_dim {ivd} is out of range for {fmt(idx)}")
    return idx.dims + (1,) if ivd == idx.rank else idx.dims


def gather(op: OpCall) -> Shape:
    """Output: offset dims (the slice sizes left after collapsing) interleaved with batch dims."""
    x, idx = op.array(0, "gather operand"), op.array(1, "gather indices")
    ivd = op.attr("index_vector_dim")
    expanded = _expanded_indices(idx, ivd, "gather")
    offset, collapsed = _ints(op, "offset_dims"), _ints(op, "collapsed_slice_dims")
    start_map, sizes = _ints(op, "start_index_map"), tuple(op.attr("slice_sizes"))
    obatch, ibatch = _ints(op, "operand_batching_dims"), _ints(op, "start_indices_batching_dims")
    check(
        len(start_map) == expanded[ivd],
        f"gather start_index_map {list(start_map)} needs {expanded[ivd]} entries (index vector size)",
    )
    check_dims(start_map, x.rank, "gather start_index_map entry")
    check(
        len(sizes) == x.rank,
        f"gather slice_sizes {list(sizes)} need one entry per dimension of {fmt(x)}",
    )
    for i, (s, d) in enumerate(zip(sizes, x.dims)):
        check(0 <= s <= d, f"gather slice size {s} does not fit dimension {i} of {fmt(x)}")
    check_dims(collapsed + obatch, x.rank, "gather collapsed/batching dimension")
    _check_sorted(collapsed, "gather collapsed_slice_dims")
    for d in collapsed + obatch:
        check(
            sizes[d] <= 1, f"gather collapses dimension {d} whose slice size is {sizes[d]}, not 1"
        )
    check(
        len(offset) + len(collapsed) + len(obatch) == x.rank,
        f"gather offset_dims {list(offset)} plus collapsed and batching dims must cover all {x.rank} operand dimensions",
    )
    check(
        len(ibatch) == len(obatch),
        "gather needs as many start_indices_batching_dims as operand_batching_dims",
    )
    batch = [d for i, d in enumerate(expanded) if i != ivd]
    out_rank = len(offset) + len(batch)
    check_dims(offset, out_rank, "gather offset dimension")
    _check_sorted(offset, "gather offset_dims")
    offsets = iter(s for i, s in enumerate(sizes) if i not in collapsed + obatch)
    batches = iter(batch)
    dims = tuple(next(offsets) if i in offset else next(batches) for i in range(out_rank))
    return ArrayShape(x.dtype, dims)


def scatter(op: OpCall) -> Shape:
    """N operands, indices, N updates; the result has the operands' shapes."""
    count = len(op.operands)
    check(
        count >= 3 and count % 2 == 1,
        f"scatter needs N operands, indices and N updates, got {count} operands",
    )
    n = (count - 1) // 2
    xs, idx, upds = op.arrays(0, n), op.array(n, "scatter indices"), op.arrays(n + 1)
    for x, u in zip(xs, upds):
        check(
            x.dims == xs[0].dims and u.dims == upds[0].dims,
            f"scatter operands/updates differ in dimensions: {fmt(x)}, {fmt(u)}",
        )
        check(
            x.dtype == u.dtype,
            f"scatter update {fmt(u)} has a different type from operand {fmt(x)}",
        )
    _check_scatter_dims(op, xs[0], idx, upds[0])
    check_reducer(op, upds, xs)
    return tuple_or_single(list(xs))


def _check_scatter_dims(op: OpCall, x: ArrayShape, idx: ArrayShape, upd: ArrayShape) -> None:
    ivd = op.attr("index_vector_dim")
    expanded = _expanded_indices(idx, ivd, "scatter")
    window, inserted = _ints(op, "update_window_dims"), _ints(op, "inserted_window_dims")
    to_operand, ibatch = _ints(op, "scatter_dims_to_operand_dims"), _ints(op, "input_batching_dims")
    batch = [d for i, d in enumerate(expanded) if i != ivd]
    check(
        upd.rank == len(window) + len(batch),
        f"scatter updates {fmt(upd)} must have rank {len(window) + len(batch)}",
    )
    check_dims(window, upd.rank, "scatter update_window_dims entry")
    _check_sorted(window, "scatter update_window_dims")
    check_dims(inserted + ibatch, x.rank, "scatter inserted/batching dimension")
    _check_sorted(inserted, "scatter inserted_window_dims")
    check(
        len(window) + len(inserted) + len(ibatch) == x.rank,
        f"scatter window, inserted and batching dims must cover all {x.rank} operand dimensions",
    )
    check(
        len(to_operand) == expanded[ivd],
        f"scatter_dims_to_operand_dims {list(to_operand)} needs {expanded[ivd]} entries",
    )
    check_dims(to_operand, x.rank, "scatter_dims_to_operand_dims entry")
    bounds = [d for i, d in enumerate(x.dims) if i not in inserted + ibatch]
    for w, bound in zip(window, bounds):
        check(
            upd.dims[w] <= bound,
            f"scatter update window dimension {w} ({upd.dims[w]}) exceeds the operand's {bound}",
        )
    scatter_dims = [d for i, d in enumerate(upd.dims) if i not in window]
    check(
        scatter_dims == batch,
        f"scatter update dims {scatter_dims} must match the index batch dims {batch}",
    )


RULES = {"dot": dot, "gather": gather, "scatter": scatter}
