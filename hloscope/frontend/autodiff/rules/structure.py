"""VJP rules of the ops that move data without arithmetic: each sends the cotangent back to
where the value came from (the transpose of the data movement).

    broadcast -> sum over the new dims      slice -> pad with zeros      pad -> slice
    reshape -> reshape back                 concatenate -> slices       gather -> scatter-add
    transpose -> inverse permutation        dynamic-slice -> dynamic-update-slice into zeros
"""

from __future__ import annotations

import numpy as np

from ... import ops
from ..backward import not_differentiable
from ..registry import vjp_rule
from ._math import lit
from .reductions import sum_over


@vjp_rule("broadcast")
def _broadcast(node, ct):
    (x,) = node.operands
    dims = tuple(node.inst.attrs.get("dimensions", ()))
    summed = sum_over(ct, [d for d in range(ct.ndim) if d not in dims])
    # the kept dims come out in increasing order; put them in the operand's order
    order = sorted(range(len(dims)), key=lambda i: dims[i])
    back = [order.index(i) for i in range(len(dims))]
    return [ops.reshape(ops.transpose(summed, back), x.shape)]


@vjp_rule("reshape", "bitcast")
def _reshape(node, ct):
    return [ops.reshape(ct, node.operand(0).shape)]


@vjp_rule("transpose")
def _transpose(node, ct):
    perm = tuple(node.inst.attrs["dimensions"])
    return [ops.transpose(ct, tuple(int(i) for i in np.argsort(perm)))]


@vjp_rule("reverse")
def _reverse(node, ct):
    return [ops.reverse(ct, tuple(node.inst.attrs["dimensions"]))]


@vjp_rule("slice")
def _slice(node, ct):
    (x,) = node.operands
    config = []
    for s, n_in, n_out in zip(node.inst.attrs["slice"], x.shape, ct.shape):
        last = s.start + (n_out - 1) * s.stride if n_out else s.start - 1
        config.append((s.start, n_in - 1 - last, s.stride - 1) if n_out else (0, n_in, 0))
    if any(n == 0 for n in ct.shape):
        return [lit(x, 0)]
    return [ops.pad(ct, ops.constant(0, ct.dtype), config)]


@vjp_rule("pad")
def _pad(node, ct):
    """The kept elements' cotangents: zeros put back where negative padding cropped, then a
    strided slice past the low/high padding and over the interior padding."""
    x, value = node.operands
    padding = node.inst.attrs["padding"]
    if any(p.low < 0 or p.high < 0 for p in padding):
        ct = ops.pad(ct, ops.constant(0, ct.dtype), [(max(-p.low, 0), max(-p.high, 0), 0) for p in padding])
    starts = [max(p.low, 0) for p in padding]
    limits = [n - max(p.high, 0) for n, p in zip(ct.shape, padding)]
    ct_x = ops.slice_(ct, starts, limits, [p.interior + 1 for p in padding])
    total = sum_over(ct, range(ct.ndim))
    taken = sum_over(ct_x, range(ct_x.ndim))
    return [ct_x, ops.binary("subtract", total, taken)]


@vjp_rule("concatenate")
def _concatenate(node, ct):
    (axis,) = node.inst.attrs["dimensions"]
    out, start = [], 0
    for x in node.operands:
        limits = list(ct.shape)
        starts = [0] * ct.ndim
        starts[axis], limits[axis] = start, start + x.shape[axis]
        out.append(ops.slice_(ct, starts, limits))
        start += x.shape[axis]
    return out


@vjp_rule("dynamic-slice")
def _dynamic_slice(node, ct):
    x, *starts = node.operands
    zeros = lit(x, 0)
    return [ops.emit("dynamic-update-slice", (zeros, ct, *starts)), *[None] * len(starts)]


@vjp_rule("dynamic-update-slice")
def _dynamic_update_slice(node, ct):
    x, update, *starts = node.operands
    ct_x = ops.emit("dynamic-update-slice", (ct, lit(update, 0), *starts))
    ct_update = ops.dynamic_slice(ct, starts, update.shape)
    return [ct_x, ct_update, *[None] * len(starts)]


@vjp_rule("gather")
def _gather(node, ct):
    """gather's transpose is a scatter-add of the cotangent to the gathered positions."""
    x, indices = node.operands
    a = node.inst.attrs
    add = ops.region([ct.dtype], lambda p, q: [ops.binary("add", p, q)])
    batching = {}
    if a.get("operand_batching_dims"):
        batching = {"input_batching_dims": tuple(a["operand_batching_dims"]),
                    "scatter_indices_batching_dims": tuple(a.get("start_indices_batching_dims", ()))}
    ct_x = ops.emit("scatter", (lit(x, 0), indices, ct), update_window_dims=tuple(a.get("offset_dims", ())),
                    inserted_window_dims=tuple(a.get("collapsed_slice_dims", ())),
                    scatter_dims_to_operand_dims=tuple(a.get("start_index_map", ())),
                    index_vector_dim=a["index_vector_dim"], to_apply=add, **batching)
    return [ct_x, None]


@vjp_rule("tuple")
def _tuple(node, ct):
    return list(ct)


@vjp_rule("get-tuple-element")
def _get_tuple_element(node, ct):
    shape = node.frame.cb._by_name[node.inst.operands[0]].shape
    whole: list = [None] * len(shape.elements)
    whole[node.inst.attrs["index"]] = ct
    return [whole]


@vjp_rule("scatter", "select-and-scatter", "convolution", "custom-call", "rng-get-and-update-state")
def _refused(node, ct):
    raise not_differentiable(node.inst)


