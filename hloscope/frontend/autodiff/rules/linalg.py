"""The VJP rule of `dot` (dot_general): each operand's cotangent is the cotangent contracted
with the other operand over the dims the output kept from it, then transposed back to the
operand's dim order (the transpose rule JAX writes for dot_general)."""

from __future__ import annotations

import numpy as np

from ... import ops
from ..registry import vjp_rule


@vjp_rule("dot")
def _dot(node, ct):
    x, y = node.operands
    a = node.inst.attrs
    xc, yc = tuple(a.get("lhs_contracting_dims", ())), tuple(a.get("rhs_contracting_dims", ()))
    xb, yb = tuple(a.get("lhs_batch_dims", ())), tuple(a.get("rhs_batch_dims", ()))
    x_free = [d for d in range(x.ndim) if d not in xc and d not in xb]
    y_free = [d for d in range(y.ndim) if d not in yc and d not in yb]
    nb = len(xb)
    ct_x_free = list(range(nb, nb + len(x_free)))  # where x's free dims sit in the output
    ct_y_free = list(range(nb + len(x_free), ct.ndim))
    ct_x = _contract_back(ct, y, ct_y_free, y_free, yb, nb,
                          order=list(xb) + x_free + [xc[i] for i in np.argsort(yc)], dtype=x.dtype)
    ct_y = _contract_back(ct, x, ct_x_free, x_free, xb, nb,
                          order=list(yb) + y_free + [yc[i] for i in np.argsort(xc)], dtype=y.dtype)
    return [ct_x, ct_y]


def _contract_back(ct, other, ct_dims, other_free, other_batch, nb, order, dtype):
    """dot(ct, other) over the other operand's free dims, as the operand whose dims are `order`."""
    other_c = ops.convert(other, ct.dtype)
    result = ops.dot_general(ct, other_c, (ct_dims, other_free), (list(range(nb)), list(other_batch)))
    perm = [order.index(d) for d in range(len(order))]
    return ops.convert(ops.transpose(result, perm), dtype)
