"""The matrix form of a dot, which every target's dot kernel starts from.

`gemm_form` brings a dot_general into matrix form: batch dimensions leading, and each
operand's free and contracting dimensions two contiguous groups, so that per batch the
operands are an M x K (or K x M) and a K x N (or N x K) row-major matrix. A dot not in
that form (its layout would need a copy first) is left to the elemental rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from ..ir.instruction import Instruction
from ..ir.shape import ArrayShape
from .index import is_default_physical


@dataclass(frozen=True)
class GemmForm:
    """A dot as `batch` independent (m x k) @ (k x n) products of row-major matrices."""

    batch: int
    m: int
    n: int
    k: int
    lhs_transposed: bool  # lhs stored k x m
    rhs_transposed: bool  # rhs stored n x k


def gemm_form(dot: Instruction, lhs: ArrayShape, rhs: ArrayShape) -> GemmForm | None:
    """The matrix form of a dot_general, or None if its layout needs a copy first."""
    if not all(is_default_physical(s) for s in (lhs, rhs, dot.array_shape)):
        return None
    lb, rb = tuple(dot.attr("lhs_batch_dims") or ()), tuple(dot.attr("rhs_batch_dims") or ())
    lc, rc = list(dot.attr("lhs_contracting_dims") or ()), list(dot.attr("rhs_contracting_dims") or ())
    nb = len(lb)
    if lb != tuple(range(nb)) or rb != tuple(range(nb)):
        return None
    lf = [d for d in range(nb, lhs.rank) if d not in lc]
    rf = [d for d in range(nb, rhs.rank) if d not in rc]
    lhs_rest, rhs_rest = list(range(nb, lhs.rank)), list(range(nb, rhs.rank))
    if lhs_rest not in (lf + lc, lc + lf) or rhs_rest not in (rc + rf, rf + rc):
        return None
    return GemmForm(
        batch=prod(lhs.dims[:nb]),
        m=prod(lhs.dims[d] for d in lf),
        n=prod(rhs.dims[d] for d in rf),
        k=prod(lhs.dims[d] for d in lc),
        lhs_transposed=bool(lc) and bool(lf) and lhs_rest == lc + lf,
        rhs_transposed=bool(rc) and bool(rf) and rhs_rest == rf + rc,
    )
