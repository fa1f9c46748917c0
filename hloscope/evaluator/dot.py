"""`dot` with general dimension numbers.

The result's dims are the batch dims (in lhs_batch_dims order), then the lhs's free dims,
then the rhs's free dims, each in increasing order. Both operands are converted to the
result's element type first (s8 x s8 -> s32, bf16 x bf16 -> f32), 16-bit floats accumulate
in f32 as XLA's evaluator does, and the contraction is one batched matmul.
"""

from __future__ import annotations

from math import prod
from typing import TYPE_CHECKING

import numpy as np

from ..ir.dtypes import from_numpy
from ..ir.instruction import Instruction

if TYPE_CHECKING:  # annotations only: core imports the handler table, which imports this file
    from .core import Evaluator


def _accumulator(dtype: np.dtype) -> np.dtype:
    element = from_numpy(dtype)
    return np.dtype(np.float32) if element.is_float and element.bits == 16 else dtype


def handle_dot(ev: Evaluator, inst: Instruction, ops: list):
    """dot(lhs, rhs), lhs_batch_dims, lhs_contracting_dims, rhs_batch_dims, rhs_contracting_dims."""
    lhs, rhs = ops
    lb = tuple(inst.attr("lhs_batch_dims", ()))
    lc = tuple(inst.attr("lhs_contracting_dims", ()))
    rb = tuple(inst.attr("rhs_batch_dims", ()))
    rc = tuple(inst.attr("rhs_contracting_dims", ()))
    lf = [d for d in range(lhs.ndim) if d not in lb and d not in lc]
    rf = [d for d in range(rhs.ndim) if d not in rb and d not in rc]
    out = inst.array_shape.numpy_dtype
    acc = _accumulator(out)
    batch = [lhs.shape[d] for d in lb]
    m = prod(lhs.shape[d] for d in lf)
    n = prod(rhs.shape[d] for d in rf)
    k = prod(lhs.shape[d] for d in lc)
    a = np.transpose(lhs.astype(acc), lb + tuple(lf) + lc).reshape(prod(batch), m, k)
    b = np.transpose(rhs.astype(acc), rb + rc + tuple(rf)).reshape(prod(batch), k, n)
    result = np.matmul(a, b)
    dims = batch + [lhs.shape[d] for d in lf] + [rhs.shape[d] for d in rf]
    return result.reshape(dims).astype(out)


HANDLERS = {"dot": handle_dot}
