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
        return [mul(back, _product_of_the_others(x, axes)), None]
    raise not_differentiable(inst, "only sum, max, min and product reductions have derivative rules")


def _product_of_the_others(x: Tracer, axes) -> Tracer:
    """d prod(x) / d x_i = the product of the other elements, exact at zeros (where out / x is
    0/0): with no zero in the group it is prod / x_i; with one zero, the zero's is the product
    of the rest and the others' 0; with two or more, all 0. Every step is a differentiable op,
    so grad of grad works too."""
    keep = kept_dims(x.ndim, axes)
    is_zero = ops.compare(x, lit(x, 0), "EQ")
    zeros_in_group = ops.broadcast_in_dim(sum_over(where(is_zero, lit(x, 1), lit(x, 0)), axes), x.shape, keep)
    safe = where(is_zero, lit(x, 1), x)
    multiply = ops.region([x.dtype], lambda a, b: [ops.binary("multiply", a, b)])
    product = ops.reduce([safe], [ops.constant(1, x.dtype)], axes, multiply)[0]
    safe_product = ops.broadcast_in_dim(product, x.shape, keep)
    no_zero = ops.compare(zeros_in_group, lit(x, 0), "EQ")
    only_this_zero = ops.binary("and", is_zero, ops.compare(zeros_in_group, lit(x, 1), "EQ"))
    return where(no_zero, div(safe_product, safe), where(only_this_zero, safe_product, lit(x, 0)))


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
    if kind == "multiply":
        return [_window_product_transpose(node, ct, x, init, window), None]
    raise not_differentiable(inst, "only sum, product, max and min windows have derivative rules")


def _window_product_transpose(node, ct: Tracer, x: Tracer, init: Tracer, window) -> Tracer:
    """d out_w / d x_i is the product of the window's other elements, for each window w that
    covers i. Exact at zeros, as for the product reduce: a window with no zero sends
    ct_w * P_w / x_i (P_w: the product with zeros taken as 1), one with a single zero sends
    ct_w * P_w to that zero only, one with more sends nothing."""
    multiply = ops.region([x.dtype], lambda a, b: [ops.binary("multiply", a, b)])
    add = ops.region([x.dtype], lambda a, b: [ops.binary("add", a, b)])
    is_zero = ops.compare(x, lit(x, 0), "EQ")
    safe = where(is_zero, lit(x, 1), x)
    product = ops.reduce_window(safe, init, window, multiply)  # the padding is init (the identity)
    zeros_in_window = ops.reduce_window(where(is_zero, lit(x, 1), lit(x, 0)), ops.constant(0, x.dtype), window, add)
    weighted = mul(ct, product)
    none = where(ops.compare(zeros_in_window, lit(zeros_in_window, 0), "EQ"), weighted, lit(weighted, 0))
    one = where(ops.compare(zeros_in_window, lit(zeros_in_window, 1), "EQ"), weighted, lit(weighted, 0))
    to_nonzero = div(_window_sum_transpose(none, x, window), safe)
    to_the_zero = where(is_zero, _window_sum_transpose(one, x, window), lit(x, 0))
    return ops.binary("add", where(is_zero, lit(x, 0), to_nonzero), to_the_zero)


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


@vjp_rule("select-and-scatter")
def _select_and_scatter_transpose(node, ct):
    """select-and-scatter is linear in its source: each window's source value lands on the
    element the window selected. Its transpose gives each window the cotangent of that element
    (JAX's select_and_gather_add). Written as one strided slice per window offset, picking as
    the evaluator does: the first real element, replaced by a later one the select rejects.
    Needed for grad of grad and jvp through max pooling and cummax. The operand only decides
    which element is picked (no derivative); a scatter that does not add is refused."""
    inst = node.inst
    x, source, init = node.operands
    window = inst.attrs["window"]
    mb = node.frame.lowering.mb
    if any(w.lhs_dilate != 1 or w.rhs_dilate != 1 for w in window):
        raise not_differentiable(inst, "dilated windows have no derivative rule")
    if reducer_kind(mb, inst.attrs["scatter"]) != "add":
        raise not_differentiable(inst, "only a select-and-scatter that adds has a derivative rule")
    direction = _select_direction(mb, inst.attrs["select"])
    if direction is None:
        raise not_differentiable(inst, "only a select that compares two values (GE, LE, ...) has a derivative rule")
    config = [(w.pad_low, w.pad_high, 0) for w in window]
    padded_x = ops.pad(x, ops.constant(0, x.dtype), config)
    padded_ct = ops.pad(ct, ops.constant(0, ct.dtype), config)
    real = ops.compare(ops.pad(lit(x, 1), ops.constant(0, x.dtype), config), lit(padded_x, 0), "GT")
    best = chosen = seen = None
    for offset in np.ndindex(*[w.size for w in window]):
        starts = list(offset)
        limits = [k + (n - 1) * w.stride + 1 for k, n, w in zip(offset, source.shape, window)]
        strides = [w.stride for w in window]
        x_k, ct_k, real_k = (ops.slice_(v, starts, limits, strides) for v in (padded_x, padded_ct, real))
        if best is None or chosen is None or seen is None:
            best, chosen, seen = x_k, ct_k, real_k
            continue
        kept = ops.compare(best, x_k, direction)  # select(picked, later): true keeps the picked one
        take = ops.binary("and", real_k, ops.binary("or", ops.unary("not", seen), ops.unary("not", kept)))
        best, chosen, seen = where(take, x_k, best), where(take, ct_k, chosen), ops.binary("or", seen, real_k)
    return [None, chosen, None]


def _select_direction(module_builder, computation_name) -> str | None:
    """The direction of a select computation that is one compare of its two parameters."""
    comp = module_builder.computations.get(str(computation_name))
    if comp is None:
        return None
    root = comp.root_instruction
    params = [i.name for i in comp.instructions if i.opcode == "parameter"]
    if root.opcode == "compare" and list(root.operands) == sorted(params, key=lambda n: _param_number(comp, n)):
        return str(root.attrs["direction"])
    return None


def _param_number(comp, name: str) -> int:
    return next(i.parameter_number or 0 for i in comp.instructions if i.name == name)
