"""Control flow on traced values: `cond`, `switch`, `while_loop` and `fori_loop`, with JAX's
signatures, lowered to HLO `conditional` and `while`.

Each branch or body is traced as a computation of its own (a nested frame). Values it uses
from the enclosing function are captured: they become extra operands, so a branch may read
`w` without it being passed in. `while` and `conditional` call computations of one
parameter, so the carried values and captures travel in one tuple
(`(s32[], f32[64,64]) parameter(0)` and `get-tuple-element`s, as in JAX's output).

Outside a trace the same functions simply run in Python, so a function written with them
also runs on plain numpy arrays.
"""

from __future__ import annotations

import json
from typing import Callable, Sequence

import numpy as np

from ..ir.attributes import Raw
from . import ops
from .abstract import ShapedArray, python_scalar
from .errors import shape_error
from .pytree import TreeDef, flatten, unflatten
from .rules.common import as_tracer, with_weak
from .rules.elementwise import to_bool
from .staging import capture_union, close_with_tuple, stage
from .trace import Equation, Frame, Lowering, current_frame, operation
from .tracer import Tracer


def _sub_frame(parent: Frame, label: str, lowering: Lowering | None = None) -> Frame:
    lowering = lowering or parent.lowering
    frame = Frame(lowering, lowering.region_name(), parent=parent, scope=f"{parent.scope}/{label}")
    frame.cb.metadata = parent.cb.metadata  # the cond/while op's own metadata
    return frame


def _operands(tree_value) -> tuple[list[Tracer], TreeDef]:
    """Flattened operands as tracers of the current frame (Python scalars stay weak)."""
    leaves, tree = flatten(tree_value)
    return [with_weak(as_tracer(x), python_scalar(x)) for x in leaves], tree


def _unify(per_branch: list[list[Tracer]], frames: list[Frame], what: str) -> list[ShapedArray]:
    """One aval per output position: shapes must agree; weak dtypes give way to strong ones."""
    avals = []
    for pos, outs in enumerate(zip(*per_branch)):
        shapes = {o.shape for o in outs}
        strong = {o.dtype for o in outs if not o.aval.weak}
        if len(shapes) > 1 or len(strong) > 1:
            got = ", ".join(o.aval.short() for o in outs)
            raise shape_error(f"{what} output {pos} differs between branches: {got}")
        dtype = strong.pop() if strong else outs[0].dtype
        avals.append(ShapedArray(outs[0].shape, dtype, weak=not any(not o.aval.weak for o in outs)))
    for frame, outs in zip(frames, per_branch):
        with frame.active():
            outs[:] = [with_weak(ops.convert(o, a.dtype), a.weak) for o, a in zip(outs, avals)]
    return avals


def switch(index, branches: Sequence[Callable], *operands):
    """Run `branches[index](*operands)`; a traced index becomes an HLO `conditional`
    (an index out of range picks the nearest branch, as in JAX)."""
    parent = current_frame()
    if parent is None or not isinstance(index, Tracer):
        i = int(np.clip(int(index), 0, len(branches) - 1))
        return branches[i](*operands)
    if index.ndim != 0:
        raise shape_error(f"the index/predicate of cond must be a scalar, got {index.aval.short()}; "
                          "use np.where for elementwise choices")
    with operation("cond", [index, *flatten(operands)[0]], {"branches": len(branches)}) as eq:
        leaves, in_tree = _operands(operands)
        frames = [_sub_frame(parent, f"cond/branch_{i}") for i in range(len(branches))]
        staged = [stage(f, b, [x.aval for x in leaves], [f"Arg_{i}" for i in range(len(leaves))],
                        lambda ps: unflatten(in_tree, ps)) for f, b in zip(frames, branches)]
        trees = {tree for _, tree in staged}
        if len(trees) > 1:
            raise shape_error(f"cond branches return different structures: {', '.join(map(str, trees))}")
        outs = [o for o, _ in staged]
        avals = _unify(outs, frames, "cond")
        captures = capture_union(frames)
        results = _conditional(parent, index, frames, outs, leaves, captures)
        outputs = [with_weak(r, a.weak) for r, a in zip(results, avals)]
        _record(eq, outputs, [(f"branch {i}", f) for i, f in enumerate(frames)])
    return unflatten(trees.pop(), outputs)


def _record(eq: Equation | None, outputs: list[Tracer], subprograms: list[tuple[str, Frame]]) -> None:
    """Fill in the listing's equation; there is none when this runs inside another
    operation (a rule that stages control flow), which is recorded as a whole."""
    if eq is not None:
        eq.outputs = outputs
        eq.subprograms = subprograms


def _conditional(parent: Frame, index: Tracer, frames, outs, leaves, captures) -> list[Tracer]:
    if len(leaves) == 1 and not captures:
        comps = [f.finish(o) for f, o in zip(frames, outs)]
        operand = leaves[0].inst
    else:
        comps = [close_with_tuple(f, o, leaves, captures) for f, o in zip(frames, outs)]
        operand = parent.emit_inst("tuple", [*leaves, *captures])
    idx = ops.convert(to_bool(index) if index.dtype.kind == "f" else index, np.int32)
    if index.dtype != np.bool_:  # HLO runs the last branch for any index out of range; JAX clamps
        bounds = [ops.constant(0, np.int32), ops.constant(len(comps) - 1, np.int32)]
        idx = ops.emit("clamp", (bounds[0], idx, bounds[1]))
    inst = parent.cb.conditional(parent.lift(idx).inst, comps, [operand] * len(comps))
    return _unpack(parent, inst, len(outs[0]))


def _unpack(frame: Frame, inst, count: int) -> list[Tracer]:
    if count == 1 and not inst.shape.is_tuple:
        return [frame.wrap(inst)]
    return [frame.wrap(frame.cb.get_tuple_element(inst, i)) for i in range(count)]


def cond(pred, true_fn: Callable, false_fn: Callable, *operands):
    """`true_fn(*operands) if pred else false_fn(*operands)`, staged as an HLO conditional
    when `pred` is traced (branch 0 is false_fn, as JAX orders them)."""
    if isinstance(pred, Tracer):
        return switch(to_bool(pred) if pred.dtype != np.bool_ else pred, [false_fn, true_fn], *operands)
    return true_fn(*operands) if pred else false_fn(*operands)


def while_loop(cond_fun: Callable, body_fun: Callable, init_val, _name: str = "while_loop",
               _trip_count: int | None = None):
    """`val = init_val; while cond_fun(val): val = body_fun(val)`, staged as an HLO while
    (`_trip_count`, known to fori_loop, is written as XLA's known_trip_count backend_config:
    reverse-mode differentiation needs it)."""
    parent = current_frame()
    if parent is None:
        val = init_val
        while cond_fun(val):
            val = body_fun(val)
        return val
    with operation(_name, flatten(init_val)[0], {}) as eq:
        leaves, tree = _operands(init_val)
        avals = _settle_weak(parent, body_fun, tree, [x.aval for x in leaves])
        leaves = [with_weak(ops.convert(x, a.dtype), a.weak) for x, a in zip(leaves, avals)]
        body, body_outs = _stage_body(parent, body_fun, tree, avals)
        cond_frame = _sub_frame(parent, "while/cond")
        (pred,), _ = stage(cond_frame, lambda *xs: _predicate(cond_fun(unflatten(tree, xs))), avals,
                           [f"Arg_{i}" for i in range(len(avals))], lambda ps: ps)
        captures = capture_union([body, cond_frame])
        with body.active():
            passthrough = [body.lift(c) for c in captures]
        body_comp = close_with_tuple(body, body_outs + passthrough, leaves, captures)
        cond_comp = close_with_tuple(cond_frame, [pred], leaves, captures)
        init = parent.emit_inst("tuple", [*leaves, *captures])
        known = {} if _trip_count is None else {
            "backend_config": Raw(json.dumps({"known_trip_count": {"n": str(_trip_count)}}, separators=(",", ":")))}
        inst = parent.cb.while_loop(cond_comp, body_comp, init, **known)
        outs = _unpack(parent, inst, len(leaves) + len(captures))[: len(leaves)]
        outputs = [with_weak(o, a.weak) for o, a in zip(outs, avals)]
        _record(eq, outputs, [("cond", cond_frame), ("body", body)])
    return unflatten(tree, outputs)


def _predicate(value):
    p = value if isinstance(value, Tracer) else as_tracer(value)
    if p.ndim != 0:
        raise shape_error(f"while_loop's cond_fun must return a scalar, got {p.aval.short()}")
    return to_bool(p)


def _stage_body(parent: Frame, body_fun, tree: TreeDef, avals, lowering=None):
    """Trace the loop body on carry parameters; check it returns the carry's structure."""
    frame = _sub_frame(parent, "while/body", lowering)
    outs, out_tree = stage(frame, lambda *xs: body_fun(unflatten(tree, xs)), avals,
                           [f"Arg_{i}" for i in range(len(avals))], lambda ps: ps)
    if out_tree != tree:
        raise shape_error(f"the loop body must return the carry's structure {tree}, got {out_tree}")
    with frame.active():
        for i, (o, a) in enumerate(zip(outs, avals)):
            if o.shape != a.shape or (o.dtype != a.dtype and not o.aval.weak):
                raise shape_error(f"the loop body changes carry {i} from {a.short()} to {o.aval.short()}")
            outs[i] = ops.convert(o, a.dtype)
    return frame, outs


def _settle_weak(parent: Frame, body_fun, tree, avals: list[ShapedArray]) -> list[ShapedArray]:
    """Weak carries (Python numbers) take the dtype the body gives them, as `acc = 0.0;
    acc = acc + x[i]` stays float32 in numpy: probe-trace the body into a scratch module."""
    for _ in range(3):
        if not any(a.weak for a in avals):
            return avals
        scratch = Lowering(parent.lowering.fn_name)
        frame = _sub_frame(parent, "while/body", scratch)
        outs, _ = stage(frame, lambda *xs: body_fun(unflatten(tree, xs)), avals,
                        [f"Arg_{i}" for i in range(len(avals))], lambda ps: ps)
        new = [o.aval if a.weak and not o.aval.weak and o.shape == a.shape else a for a, o in zip(avals, outs)]
        if new == avals:
            return avals
        avals = new
    return avals


def fori_loop(lower, upper, body_fun: Callable, init_val):
    """`for i in range(lower, upper): val = body_fun(i, val)`, staged as an HLO while whose
    carry is (i, val). Python-int bounds give a weak int64 counter, like Python's `i`."""
    if current_frame() is None:
        val = init_val
        for i in range(int(lower), int(upper)):
            val = body_fun(i, val)
        return val

    def body(carry):
        i, val = carry
        return i + 1, body_fun(i, val)

    static = all(isinstance(b, (int, np.integer)) and not isinstance(b, bool) for b in (lower, upper))
    trips = max(int(upper) - int(lower), 0) if static else None
    (_, val) = while_loop(lambda c: c[0] < upper, body, (lower, init_val), _name="fori_loop", _trip_count=trips)
    return val
