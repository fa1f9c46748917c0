"""VJP rules of reductions: reduce (sum, max, min, product), reduce-window (sum, max) and sort.

Which reduction a `reduce` is comes from its computation's root (add, maximum, ...), as XLA's
own passes recognise it. A sum sends the cotangent back to every element it added (a
broadcast); max and min to the elements equal to the result, split evenly among ties (JAX's
choice); a product to each element as out / x.
"""

from __future__ import annotations

import numpy as np

from ... import ops
from ...tracer import Tracer
from ..backward import not_differentiable
from ..registry import vjp_rule
from ._math import div, lit, mul, where


def sum_over(x: Tracer, axes) -> Tracer:
    """x summed over `axes` (an HLO reduce with an add region)."""
    axes = tuple(axes)
    if not axes:
        return x
    add = ops.region([x.dtype], lambda a, b: [ops.binary("add", a, b)])
    return ops.reduce([x], [ops.constant(0, x.dtype)], axes, add)[0]


def kept_dims(ndim: int, axes) -> tuple[int, ...]:
    return tuple(d for d in range(ndim) if d not in set(axes))


def reducer_kind(module_builder, computation_name: str) -> str | None:
    """add / maximum / minimum / multiply when the computation is that one binary op."""
    comp = module_builder.computations.get(str(computation_name))
    if comp is None:
        return None
    root = comp.root_instruction
    params = {i.name for i in comp.instructions if i.opcode == "parameter"}
    if root.opcode in ("add", "maximum", "minimum", "multiply") and set(root.operands) <= params:
        return root.opcode
    return None


@vjp_rule("reduce")
def _reduce(node, ct):
    inst = node.inst
    if len(inst.operands) != 2:
        raise not_differentiable(inst, "a reduce of several arrays at once (argmax-like) has no derivative rule")
    x, init = node.operands
    axes = tuple(inst.attrs["dimensions"])
    kind = reducer_kind(node.frame.lowering.mb, inst.attrs["to_apply"])
    back = ops.broadcast_in_dim(ct, x.shape, kept_dims(x.ndim, axes))
    if kind == "add":
        return [back, _sum_all(ct)]
    out = ops.broadcast_in_dim(node.out, x.shape, kept_dims(x.ndim, axes))
    if kind in ("maximum", "minimum"):
        hit = ops.compare(x, out, "EQ")
        ones = where(hit, lit(x, 1), lit(x, 0))
        count = ops.broadcast_in_dim(sum_over(ones, axes), x.shape, kept_dims(x.ndim, axes))
        return [div(mul(back, ones), count), None]
    if kind == "multiply":
        # out / x away from zeros; JAX's rule handles zeros exactly, this one is the textbook one
        return [mul(back, div(out, x)), None]
    raise not_differentiable(inst, "only sum, max, min and product reductions have derivative rules")


def _sum_all(x: Tracer) -> Tracer:
    return sum_over(x, tuple(range(x.ndim)))


@vjp_rule("reduce-window")
def _reduce_window(node, ct):
    inst = node.inst
    if len(inst.operands) != 2:
        raise not_differentiable(inst, "a reduce-window of several arrays has no derivative rule")
    x, init = node.operands
    window = inst.attrs["window"]
    kind = reducer_kind(node.frame.lowering.mb, inst.attrs["to_apply"])
    if any(w.lhs_dilate != 1 or w.rhs_dilate != 1 for w in window):
        raise not_differentiable(inst, "dilated windows have no derivative rule")
    if kind == "add":
        return [_window_sum_transpose(ct, x, window), None]
    if kind in ("maximum", "minimum"):
        return [_select_and_scatter(node, ct, x, init, window, "GE" if kind == "maximum" else "LE"), None]
    raise not_differentiable(inst, "only sum, max and min windows have derivative rules")


def _window_sum_transpose(ct: Tracer, x: Tracer, window) -> Tracer:
    """Each input element gets the sum of the cotangents of the windows that covered it: pad
    the cotangent (strides spread out as interior padding) and sum it with the same window."""
    config = []
    for w, n_in, n_out in zip(window, x.shape, ct.shape):
        size, stride, lo = w.size, w.stride, w.pad_low
        # output o covers padded input positions o*stride .. o*stride+size-1, i.e. input
        # positions o*stride - lo ...; input i gets windows whose start lies in [i+lo-size+1, i+lo]
        low = size - 1 - lo
        span = (n_out - 1) * stride + 1  # positions the strided cotangent occupies
        high = n_in + size - 1 - low - span
        config.append((low, high, stride - 1))
    padded = _pad_any(ct, config)
    add = ops.region([ct.dtype], lambda a, b: [ops.binary("add", a, b)])
    unit = ops.make_window([w.size for w in window])
    return ops.reduce_window(padded, ops.constant(0, ct.dtype), unit, add)


def _pad_any(x: Tracer, config) -> Tracer:
    """pad with (low, high, interior) where low/high may be negative (then it crops)."""
    return ops.pad(x, ops.constant(0, x.dtype), config)


def _select_and_scatter(node, ct, x, init, window, direction: str) -> Tracer:
    """Max/min pooling's derivative: each window's cotangent goes to the element it selected
    (XLA's select-and-scatter, as JAX lowers it)."""
    frame = node.frame
    select = ops.comparator([x.dtype], lambda a, b: ops.compare(a, b, direction))
    scatter = ops.region([x.dtype], lambda a, b: [ops.binary("add", a, b)])
    return ops.emit("select-and-scatter", (x, ct, ops.constant(0, x.dtype)), window=tuple(window),
                    select=select, scatter=scatter)


@vjp_rule("sort")
def _sort(node, ct):
    """A sort permutes: send each sorted position's cotangent back to where it came from. The
    permutation is found by sorting an iota along with the operands (same comparator, stable)."""
    inst = node.inst
    operands = node.operands
    dim = inst.attrs["dimensions"][0]
    shape = operands[0].shape
    iota = ops.iota(np.int32, shape, dim)
    comparator = _extended_comparator(node, [o.dtype for o in operands])
    sorted_all = ops.sort([*operands, iota], dim, comparator)
    perm = sorted_all[-1]
    cts = ct if isinstance(ct, list) else [ct]
    out = []
    for c, o in zip(cts, operands):
        if c is None or np.dtype(o.dtype).kind not in "fc":
            out.append(None)
            continue
        # sorting (perm, ct) by perm puts every cotangent back at its source position
        by_index = ops.comparator([np.int32, c.dtype], lambda a, b, _c, _d: ops.compare(a, b, "LT"))
        out.append(ops.sort([perm, c], dim, by_index)[1])
    return out


def _extended_comparator(node, dtypes):
    """The sort's own comparator with one more (ignored) operand pair: the iota's."""
    from ..inline import inline_scalar_computation

    comp_name = node.inst.attrs["to_apply"]
    return ops.comparator([*dtypes, np.int32],
                          lambda *params: inline_scalar_computation(node.frame.lowering.mb, comp_name, params[:-2]))
