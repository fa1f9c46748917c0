"""Window geometry shared by reduce-window and select-and-scatter, and select-and-scatter.

A window op visits, for every output position and every offset inside the window, one
element of the (padded, base-dilated) input. `window_taps` turns that around: for each
window offset it yields, for all output positions at once, the input index and whether the
element is real (not padding and not a hole left by base dilation). Like XLA's
HloEvaluator (IterateThroughWindow), padding and holes are skipped, not read as values.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Iterator

import numpy as np

from ..ir.attributes import WindowDim
from ..ir.instruction import Instruction
from .scalar_calls import apply, combine_at

if TYPE_CHECKING:  # annotations only: core imports the handler table, which imports this file
    from .core import Evaluator


def _dim_taps(out_size: int, in_size: int, w: WindowDim) -> list[tuple[np.ndarray, np.ndarray]]:
    """(input index, valid) per window offset along one dimension."""
    taps = []
    last = (in_size - 1) * w.lhs_dilate  # position of the last real element, base-dilated
    for k in range(w.size):
        pos = np.arange(out_size) * w.stride - w.pad_low + k * w.rhs_dilate
        valid = (pos >= 0) & (pos <= last) & (pos % w.lhs_dilate == 0)
        taps.append((np.where(valid, pos // w.lhs_dilate, 0), valid))
    return taps


def window_taps(out_dims, in_dims, window) -> Iterator[tuple[tuple, np.ndarray | None]]:
    """For each window offset (row-major): an index tuple for x[...] of shape out_dims, and the
    mask of output positions whose element is real (None when all are)."""
    per_dim = [_dim_taps(o, n, w) for o, n, w in zip(out_dims, in_dims, window)]
    rank = len(out_dims)
    for combo in itertools.product(*per_dim):
        index = tuple(_along(idx, d, rank) for d, (idx, _) in enumerate(combo))
        masks = [_along(valid, d, rank) for d, (_, valid) in enumerate(combo) if not valid.all()]
        valid = None
        if masks:
            valid = np.broadcast_to(np.logical_and.reduce(np.broadcast_arrays(*masks)), out_dims)
        yield index, valid


def _along(v: np.ndarray, d: int, rank: int) -> np.ndarray:
    """A 1-D array shaped to broadcast along dimension d of a rank-`rank` array."""
    shape = [1] * rank
    shape[d] = v.size
    return v.reshape(shape)


def default_window(rank: int) -> tuple[WindowDim, ...]:
    return tuple(WindowDim(1) for _ in range(rank))


def handle_select_and_scatter(ev: Evaluator, inst: Instruction, ops: list):
    """select-and-scatter(operand, source, init), window, select, scatter.

    For each window (one per source element) pick an operand element: the first real one,
    replaced by each later one for which select(picked, later) is false. Then each source
    value is scattered onto its picked position with `scatter`, in source order, starting
    from `init` everywhere (positions never picked stay `init`).
    """
    operand, source, init = ops
    window = inst.attr("window") or default_window(operand.ndim)
    picked_val = np.zeros(source.shape, operand.dtype)
    picked_at = np.zeros(source.shape, np.int64)
    has = np.zeros(source.shape, bool)
    strides = np.cumprod((operand.shape + (1,))[:0:-1])[::-1] if operand.ndim else ()
    for index, valid in window_taps(source.shape, operand.shape, window):
        values = np.broadcast_to(operand[index], source.shape)
        flat = sum((i * s for i, s in zip(index, strides)), np.zeros((), np.int64))
        real = np.ones(source.shape, bool) if valid is None else valid
        take = real & ~has
        if has.any():
            keep = np.asarray(apply(ev, inst.attr("select"), [picked_val, values]), bool)
            take |= real & has & ~keep
        picked_val = np.where(take, values, picked_val)
        picked_at = np.where(take, flat, picked_at)
        has |= real
    out = np.full(operand.size, init, operand.dtype)
    combine_at(ev, inst.attr("scatter"), [out], picked_at[has], [source[has]])
    return out.reshape(operand.shape)


HANDLERS = {"select-and-scatter": handle_select_and_scatter}
