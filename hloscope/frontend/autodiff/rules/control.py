"""Derivatives of control flow: conditional (both modes), while (forward mode; reverse mode
when the trip count is known, as fori_loop's is).

A conditional's cotangents come from a new conditional on the same index whose branch i
replays branch i (inline.py) and runs the backward sweep over it. A loop with a known trip
count N is reversed in two loops: one takes the place of the loop that ran and keeps each
iteration's carry (N stacked copies: the activations a backward pass saves), so the forward
iterations run once; the other walks them from the last
to the first, running the body's backward sweep on each. A while loop whose trip count is not
known is refused in reverse mode (JAX refuses it too); its forward mode is a loop carrying the
tangents next to the values.
"""

from __future__ import annotations

import numpy as np

from ... import ops
from ...control import fori_loop, switch, while_loop
from ...trace import tracing_frame
from ...tracer import Tracer
from ..backward import backward, not_differentiable
from ..cotangents import accumulate, zeros
from ..forward import forward
from ..inline import inline, rebuild, tuple_leaves
from ..registry import jvp_rule, vjp_rule


# The reversed loops count with a typed integer: a Python-int counter is a weak carry, which
# while_loop settles by probe-tracing the body into a scratch module where the computations
# the replayed body refers to (a reduce's region) do not exist.
_COUNT_FROM = np.int32(0)


def _float(x) -> bool:
    return np.dtype(x.dtype).kind in "fc"


def _ct_leaves(ct, shape) -> list:
    """The cotangent of a (tuple) value as one entry per array leaf (None: zero)."""
    if shape.is_tuple:
        parts = ct if isinstance(ct, list) else [None] * len(shape.elements)
        return [leaf for c, s in zip(parts, shape.elements) for leaf in _ct_leaves(c, s)]
    return [ct]


def _branches(inst) -> list[str]:
    """Branch computations in the order a (converted) index picks them: false before true."""
    if "branch_computations" in inst.attrs:
        return [str(c) for c in inst.attrs["branch_computations"]]
    return [str(inst.attrs["false_computation"]), str(inst.attrs["true_computation"])]


@vjp_rule("conditional")
def _conditional(node, ct):
    frame, inst = node.frame, node.inst
    mb = frame.lowering.mb
    index, operands = node.operand(0), [_value(frame, o) for o in inst.operands[1:]]
    shapes = [frame.cb._by_name[o].shape for o in inst.operands[1:]]
    leaves = [tuple_leaves(v, frame) for v in operands]
    out_cts = [c if c is not None else zeros(s) for c, s in zip(_ct_leaves(ct, inst.shape), _leaf_shapes(inst.shape))]
    float_out = [i for i, s in enumerate(_leaf_shapes(inst.shape)) if _is_float_shape(s)]
    sizes = [len(ls) for ls in leaves]
    names = _branches(inst)

    def branch(i: int):
        def run(*flat):
            sub = tracing_frame("a conditional's derivative")
            start = 0
            mine = []
            for k, n in enumerate(sizes):
                mine.append(list(flat[start:start + n]))
                start += n
            cts = flat[start:]
            arg = rebuild(shapes[i], mine[i])
            begin = len(sub.cb.instructions)
            out = inline(mb, names[i], [arg])
            emitted = sub.cb.instructions[begin:]
            out_leaves = tuple_leaves(out, sub)
            seeds: dict = {}
            for pos, c in zip(float_out, cts):
                accumulate(seeds, out_leaves[pos].inst.name, c)
            found = backward(sub, emitted, seeds, node.transform)
            result = []
            for k, group in enumerate(mine):
                for leaf in group:
                    if _float(leaf):
                        got = found.get(leaf.inst.name) if k == i else None
                        result.append(got if got is not None else zeros(leaf.inst.shape))
            return result

        return run

    flat_in = [leaf for group in leaves for leaf in group] + [out_cts[p] for p in float_out]
    results = iter(switch(index, [branch(i) for i in range(len(names))], *flat_in))
    out: list = [None]
    for group, shape in zip(leaves, shapes):
        out.append(rebuild(shape, [next(results) if _float(leaf) else None for leaf in group]))
    return out


@jvp_rule("while")
def _while_forward(node, ins):
    frame, inst = node.frame, node.inst
    mb = frame.lowering.mb
    shape = frame.cb._by_name[inst.operands[0]].shape
    init = _strong(tuple_leaves(_value(frame, inst.operands[0]), frame))
    t_init = _ct_leaves(ins[0], shape)
    floats = [k for k, leaf in enumerate(init) if _float(leaf)]
    tangents = [t_init[k] if t_init[k] is not None else zeros(init[k].inst.shape) for k in floats]
    cond_name, body_name = str(inst.attrs["condition"]), str(inst.attrs["body"])

    def cond_fun(carry):
        values, _ = carry
        return inline(mb, cond_name, [rebuild(shape, list(values))])

    def body_fun(carry):
        values, ts = carry
        sub = tracing_frame("a while loop's derivative")
        begin = len(sub.cb.instructions)
        out = inline(mb, body_name, [rebuild(shape, list(values))])
        emitted = sub.cb.instructions[begin:]
        seeds = {values[k].inst.name: t for k, t in zip(floats, ts)}
        found = forward(sub, emitted, seeds, node.transform)
        out_leaves = tuple_leaves(out, sub)
        new_ts = [found.get(out_leaves[k].inst.name) for k in floats]
        new_ts = [t if t is not None else zeros(out_leaves[k].inst.shape) for t, k in zip(new_ts, floats)]
        return list(out_leaves), new_ts

    _, t_out = while_loop(cond_fun, body_fun, (init, tangents))
    by_leaf = dict(zip(floats, t_out))
    return rebuild(inst.shape, [by_leaf.get(k) for k in range(len(init))])


@vjp_rule("while")
def _while_reverse(node, ct):
    frame, inst = node.frame, node.inst
    trips = known_trip_count(inst)
    if trips is None:
        raise not_differentiable(inst, "reverse-mode differentiation of a while loop needs its trip count; use "
                                       "fori_loop with Python-int bounds (JAX refuses while_loop in reverse mode too)")
    mb = frame.lowering.mb
    shape = frame.cb._by_name[inst.operands[0]].shape
    body_name = str(inst.attrs["body"])
    init_shapes = _leaf_shapes(shape)
    floats = [k for k, leaf in enumerate(init_shapes) if _is_float_shape(leaf)]
    if trips == 0:
        return [rebuild(shape, [c if k in floats else None for k, c in enumerate(_ct_leaves(ct, inst.shape))])]
    saved = frame.lowering.loop_stacks.get(inst.name)
    if saved is None:  # the first backward pass through this loop
        saved = frame.lowering.loop_stacks[inst.name] = _rerun_saving_carries(frame, inst, trips)
    cts = [c if c is not None else zeros(init_shapes[k])
           for k, c in enumerate(_ct_leaves(ct, inst.shape)) if k in floats]

    def backward_body(i, cts):
        sub = tracing_frame("a while loop's derivative")
        j = ops.binary("subtract", ops.constant(trips - 1, i.dtype), i)
        values = [_load(s, j, leaf.dims) for s, leaf in zip(saved, init_shapes)]
        begin = len(sub.cb.instructions)
        out_leaves = tuple_leaves(inline(mb, body_name, [rebuild(shape, values)]), sub)
        emitted = sub.cb.instructions[begin:]
        seeds: dict = {}
        for k, c in zip(floats, cts):
            accumulate(seeds, out_leaves[k].inst.name, c)
        found = backward(sub, emitted, seeds, node.transform)
        return [found.get(values[k].inst.name) if found.get(values[k].inst.name) is not None
                else zeros(values[k].inst.shape) for k in floats]

    final = fori_loop(_COUNT_FROM, np.int32(trips), backward_body, cts)
    by_leaf = dict(zip(floats, final))
    return [rebuild(shape, [by_leaf.get(k) for k in range(len(init_shapes))])]


def _rerun_saving_carries(frame, loop, trips: int) -> list:
    """The loop once more, now keeping each iteration's carry (N stacked copies: the activations
    the backward pass reads), put in the place of the loop that ran first so the forward
    computation runs once. Its instructions carry the loop's own metadata: they are the
    forward pass (jvp scope), and the stacks are its saved activations."""
    cb, mb = frame.cb, frame.lowering.mb
    shape = cb._by_name[loop.operands[0]].shape
    body_name = str(loop.attrs["body"])
    since = len(cb.instructions)
    saved_metadata, saved_depth = cb.metadata, frame.depth
    cb.metadata, frame.depth = loop.metadata, max(1, frame.depth)
    try:
        init = _strong(tuple_leaves(_value(frame, loop.operands[0]), frame))

        def saving_body(i, carry):
            values, stacks = carry
            stacks = [_store(s, v, i) for s, v in zip(stacks, values)]
            return tuple_leaves(inline(mb, body_name, [rebuild(shape, list(values))]), tracing_frame("loop")), stacks

        stacks = [ops.full((trips, *leaf.shape), 0, leaf.dtype) for leaf in init]
        final, saved = fori_loop(_COUNT_FROM, np.int32(trips), saving_body, (list(init), stacks))
        _as_tuple(cb, loop.shape, [x.inst for x in final])
    finally:
        cb.metadata, frame.depth = saved_metadata, saved_depth
    cb.supersede(loop, since)
    return saved


def _as_tuple(cb, shape, leaves: list):
    """`leaves` nested as `shape`'s tuples (a tuple instruction per level)."""
    it = iter(leaves)

    def build(s):
        return cb.op("tuple", [build(e) for e in s.elements]) if s.is_tuple else next(it)

    return build(shape)


def _strong(leaves: list) -> list:
    """The carries with their dtypes fixed: a weak carry (fori_loop's Python-int counter)
    would make while_loop probe-trace the body into a scratch module, where the computations
    the replayed body refers to (a reduce's region) do not exist."""
    return [Tracer(x.frame, x.inst, x.aval.strong()) if x.aval is not None and x.aval.weak else x for x in leaves]


def known_trip_count(inst) -> int | None:
    config = inst.attrs.get("backend_config")
    data = config.json() if hasattr(config, "json") else None
    try:
        return int(data["known_trip_count"]["n"]) if isinstance(data, dict) else None
    except (KeyError, TypeError, ValueError):
        return None


def _store(stack, value, i):
    index = [i] + [ops.constant(0, i.dtype)] * value.ndim
    return ops.emit("dynamic-update-slice", (stack, ops.reshape(value, (1, *value.shape)), *index))


def _load(stack, j, shape):
    index = [j] + [ops.constant(0, j.dtype)] * len(shape)
    return ops.emit("reshape", (ops.dynamic_slice(stack, index, (1, *shape)),), _array_shape(stack, shape))


def _array_shape(stack, shape):
    from ....ir.shape import ArrayShape

    return ArrayShape(stack.aval.hlo_dtype, tuple(shape))


def _value(frame, name: str):
    from ..inline import value_of

    return value_of(frame, frame.cb._by_name[name])


def _leaf_shapes(shape) -> list:
    if shape.is_tuple:
        return [leaf for s in shape.elements for leaf in _leaf_shapes(s)]
    return [shape]


def _is_float_shape(shape) -> bool:
    return np.dtype(shape.numpy_dtype).kind in "fc"
