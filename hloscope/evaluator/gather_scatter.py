"""`gather` and `scatter` with full dimension numbers (batching dims included).

Both read an index vector per "batch" position of the indices (the vector lies along
index_vector_dim, or is a single element when index_vector_dim equals the indices' rank),
turn it into a start position in the operand, and move a whole window from there.

gather clamps each start so the slice fits in the operand. scatter does not clamp: a window
that does not fit entirely is skipped, as XLA's HloEvaluator does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..errors import NotSupportedError
from ..ir.instruction import Instruction
from .scalar_calls import combine_at

if TYPE_CHECKING:  # annotations only: core imports the handler table, which imports this file
    from .core import Evaluator


def _index_vectors(indices: np.ndarray, index_vector_dim: int) -> np.ndarray:
    """The indices with the index vector as the last axis: batch dims + (vector length,)."""
    if indices.dtype == np.uint64:  # keep huge unsigned indices huge (they clamp or skip)
        indices = np.minimum(indices, np.uint64(np.iinfo(np.int64).max))
    idx = indices.astype(np.int64)
    if index_vector_dim == indices.ndim:
        return idx[..., None]
    return np.moveaxis(idx, index_vector_dim, -1)


def _starts(vectors: np.ndarray, operand_rank: int, index_map, operand_batching, indices_batching,
            index_vector_dim: int) -> np.ndarray:
    """Start positions in the operand, shape batch dims + (operand rank,).

    Operand dim index_map[k] starts at vector element k; an operand batching dim starts at
    the position along the matching batching dim of the indices (which runs in step).
    """
    batch_shape = vectors.shape[:-1]
    starts = np.zeros(batch_shape + (operand_rank,), np.int64)
    for k, d in enumerate(index_map):
        starts[..., d] = vectors[..., k]
    for od, idim in zip(operand_batching, indices_batching):
        axis = idim if idim < index_vector_dim else idim - 1
        shape = [1] * len(batch_shape)
        shape[axis] = batch_shape[axis]
        starts[..., od] = np.arange(batch_shape[axis]).reshape(shape)
    return starts


def _window_indices(starts: np.ndarray, window: list[int]) -> tuple:
    """Operand indices of every window element, one array per operand dim, each shaped
    batch dims + window."""
    batch = starts.shape[:-1]
    nw = len(window)
    shape = batch + tuple(window)
    out = []
    for d, size in enumerate(window):
        start = starts[..., d].reshape(batch + (1,) * nw)
        offset = np.arange(size).reshape((1,) * len(batch) + tuple(size if i == d else 1 for i in range(nw)))
        out.append(np.broadcast_to(start + offset, shape))
    return tuple(out)


def handle_gather(ev: Evaluator, inst: Instruction, ops: list):
    """gather(operand, indices), offset_dims, collapsed_slice_dims, start_index_map,
    index_vector_dim, slice_sizes[, operand_batching_dims, start_indices_batching_dims].

    Output dims: the offset_dims positions hold the slice's dims that are neither collapsed
    nor batching (in order); the other positions hold the indices' batch dims (in order).
    """
    operand, indices = ops
    ivd = inst.attr("index_vector_dim", indices.ndim)
    sizes = list(inst.attr("slice_sizes"))
    obd = tuple(inst.attr("operand_batching_dims", ()))
    if inst.array_shape.size and any(sizes[d] == 0 for d in (*inst.attr("collapsed_slice_dims", ()), *obd)):
        # The verifier allows it, as XLA's does, but each result element would be read from
        # an empty window: XLA leaves the values undefined, so there is nothing to compute.
        raise NotSupportedError(f"not supported: {inst.name} collapses a dimension whose slice size is 0")
    vectors = _index_vectors(indices, ivd)
    starts = _starts(vectors, operand.ndim, inst.attr("start_index_map", ()), obd,
                     inst.attr("start_indices_batching_dims", ()), ivd)
    starts = np.clip(starts, 0, np.maximum(np.array(operand.shape) - sizes, 0))
    values = operand[_window_indices(starts, sizes)]
    dropped = set(inst.attr("collapsed_slice_dims", ())) | set(obd)
    batch_shape = starts.shape[:-1]
    values = values.reshape(batch_shape + tuple(n for d, n in enumerate(sizes) if d not in dropped))
    return np.transpose(values, _output_order(inst.attr("offset_dims", ()), len(batch_shape), values.ndim))


def _output_order(offset_dims, n_batch: int, rank: int) -> list[int]:
    """Where each output dim comes from in (batch dims..., offset dims...)."""
    order, b, o = [], 0, 0
    for j in range(rank):
        if j in offset_dims:
            order.append(n_batch + o)
            o += 1
        else:
            order.append(b)
            b += 1
    return order


def handle_scatter(ev: Evaluator, inst: Instruction, ops: list):
    """scatter(operands..., indices, updates...), update_window_dims, inserted_window_dims,
    scatter_dims_to_operand_dims, index_vector_dim, to_apply[, input_batching_dims,
    scatter_indices_batching_dims].

    Updates are combined into copies of the operands with to_apply(current, update), in
    order of scatter index, then window index; repeated targets combine one after another.
    """
    n = (len(ops) - 1) // 2
    operands, indices, updates = ops[:n], ops[n], ops[n + 1:]
    uwd = tuple(inst.attr("update_window_dims", ()))
    ivd = inst.attr("index_vector_dim", indices.ndim)
    ibd = tuple(inst.attr("input_batching_dims", ()))
    scatter_axes = [d for d in range(updates[0].ndim) if d not in uwd]
    ups = [np.transpose(u, scatter_axes + list(uwd)) for u in updates]
    rank = operands[0].ndim
    vectors = _index_vectors(indices, ivd)
    starts = _starts(vectors, rank, inst.attr("scatter_dims_to_operand_dims", ()), ibd,
                     inst.attr("scatter_indices_batching_dims", ()), ivd)
    window = _full_window(rank, set(inst.attr("inserted_window_dims", ())) | set(ibd),
                          ups[0].shape[len(scatter_axes):])
    fits = np.all((starts >= 0) & (starts <= np.array(operands[0].shape) - window), axis=-1)
    targets = _flat_targets(starts, window, operands[0].shape, ups[0].shape)
    mask = np.broadcast_to(fits.reshape(fits.shape + (1,) * len(uwd)), ups[0].shape)
    outs = [o.reshape(-1).copy() for o in operands]
    combine_at(ev, inst.attr("to_apply"), outs, targets[mask], [u[mask] for u in ups])
    results = [o.reshape(operands[0].shape) for o in outs]
    return tuple(results) if inst.shape.is_tuple else results[0]


def _full_window(rank: int, inserted: set, window_sizes) -> list[int]:
    """The update window's extent in every operand dim (1 for inserted and batching dims)."""
    sizes = iter(window_sizes)
    return [1 if d in inserted else next(sizes) for d in range(rank)]


def _flat_targets(starts, window, operand_shape, update_shape) -> np.ndarray:
    """Flat operand index of each update element (updates laid out scatter dims, window dims).

    Windows that do not fit are masked out by the caller; their indices are clipped here only
    so that they can be computed.
    """
    if not operand_shape or 0 in operand_shape:
        return np.zeros(update_shape, np.int64)
    full = _window_indices(starts, window)
    clipped = tuple(np.clip(i, 0, n - 1) for i, n in zip(full, operand_shape))
    return np.ravel_multi_index(clipped, operand_shape).reshape(update_shape)


HANDLERS = {"gather": handle_gather, "scatter": handle_scatter}
