"""while and conditional on the GPU: host-side loops and branches, like XLA:GPU's WhileThunk
and ConditionalThunk.

The condition, the body and every branch are lowered like the entry computation, into
kernels and steps of their own (program.py), with their own buffer layout:

    a called computation's   parameter k   -> the caller's buffer it is given (the loop state,
                                              or the branch operand)
                             output k      -> the caller's buffer for its result
                             temporaries   -> a region of the caller's arena, its own offsets

and those steps are then relocated into the caller's terms. What a kernel cannot read is
made into a buffer first: a constant that a branch takes as its operand or that a loop
starts from is copied into the arena from the host.

    while        state = init;  loop { condition(state) -> pred;  if !pred: break;
                                       body(state) -> next;  state = next }
                 (the body reads the state while it writes next, so next has its own buffers,
                 except for leaves the body returns unchanged: those are their own next)
    conditional  index = selector (pred: true -> 0, false -> 1; out of range -> last branch)
                 branch_index(operand_index) -> result
"""

from __future__ import annotations

import numpy as np

from ...ir.instruction import Instruction
from ...ir.shape import ArrayShape
from .program import Conditional, DeviceCopy, WhileLoop, relocate
from ..buffers import ArrayStorage, BufferLayout, assign_buffers
from ..loop_state import passed_through


class Placement:
    """A called computation's buffers -> its caller's."""

    def __init__(self, params: list[ArrayStorage], outputs: list[ArrayStorage], region: ArrayStorage):
        self.params, self.outputs, self.region = params, outputs, region

    def __call__(self, buf: ArrayStorage) -> ArrayStorage:
        if buf.kind == "param":
            return self.params[buf.slot]
        if buf.kind == "output":
            return self.outputs[buf.slot]
        if buf.kind == "arena":
            return ArrayStorage("arena", self.region.slot + buf.slot, buf.size, buf.value, buf.shape)
        raise ValueError(f"a {buf.kind} buffer cannot cross into a called computation")


def called_steps(programs, comp, layout: BufferLayout, params: list[ArrayStorage], outputs: list[ArrayStorage],
                 name: str) -> tuple:
    """The steps of `comp` run with `params` as its parameters and `outputs` as its result,
    in the caller's terms (`layout`)."""
    sub = assign_buffers(comp, None)
    steps = programs.lower(comp, sub) + tuple(_copy(src, dst, comp) for src, dst in sub.output_copies)
    region = layout.grow_arena(sub.arena_bytes, name, ArrayShape("u8", (sub.arena_bytes,)))
    placed = relocate(steps, Placement(params, outputs, region))
    return tuple(s for s in placed if not (isinstance(s, DeviceCopy) and s.src == s.dst))  # a leaf passed through


def _copy(src: ArrayStorage, dst: ArrayStorage, comp) -> DeviceCopy:
    if src.kind == "constant":
        return DeviceCopy(None, dst, _constant_bytes(comp, src), src.value)
    return DeviceCopy(src, dst)


def _constant_bytes(comp, buf: ArrayStorage) -> bytes:
    return constant_bytes(comp[buf.value])


def constant_bytes(inst: Instruction) -> bytes:
    """The bytes of a constant's value, which every constant lowered has (see lowering.lower)."""
    literal = inst.literal
    assert literal is not None and not literal.elided, f"constant {inst.name} has no value to copy"
    return np.ascontiguousarray(literal.value).tobytes()


def _readable(bufs: list[ArrayStorage], comp, layout: BufferLayout, setup: list) -> list[ArrayStorage]:
    """The buffers with every constant copied into the arena first (steps added to `setup`)."""
    out = []
    for buf in bufs:
        if buf.kind == "constant":
            copy = layout.grow_arena(buf.size, buf.value, buf.shape)
            setup.append(DeviceCopy(None, copy, _constant_bytes(comp, buf), buf.value))
            buf = copy
        out.append(buf)
    return out


def lower_while(programs, inst, comp, layout: BufferLayout) -> tuple:
    hlo = programs.mc.hlo
    state = layout.of(inst.name)
    same = passed_through(hlo.computation(inst.attr("body")))  # their next state is the state
    following = [s if k in same else layout.grow_arena(s.size, f"{inst.name}.next", s.shape)
                 for k, s in enumerate(state)]
    pred = layout.grow_arena(1, f"{inst.name}.pred", ArrayShape("pred", ()))
    condition = called_steps(programs, hlo.computation(inst.attr("condition")), layout, state, [pred],
                             f"{inst.name}.condition")
    body = called_steps(programs, hlo.computation(inst.attr("body")), layout, state, following, f"{inst.name}.body")
    init = tuple(_copy(i, s, comp) for i, s in zip(layout.of(inst.operands[0]), state) if i != s)
    update = tuple(DeviceCopy(n, s) for n, s in zip(following, state) if n != s)
    return (WhileLoop(inst.name, init, condition, pred, body, update),)


def lower_conditional(programs, inst, comp, layout: BufferLayout) -> tuple:
    hlo = programs.mc.hlo
    setup: list = []
    selector = _readable(layout.of(inst.operands[0]), comp, layout, setup)[0]
    names = inst.attr("branch_computations") or (inst.attr("true_computation"), inst.attr("false_computation"))
    result = layout.of(inst.name)
    operands = [_readable(layout.of(op), comp, layout, setup) for op in inst.operands[1:]]
    # A branch writes its result while it reads its operand: if the memory plan let the two
    # share bytes, the branch writes into fresh space and the result is copied afterwards.
    shared = any(r.overlaps(o) for r in result for bufs in operands for o in bufs)
    targets = [layout.grow_arena(r.size, inst.name, r.shape) for r in result] if shared else result
    branches = tuple(
        called_steps(programs, hlo.computation(name), layout, operands[k], targets, f"{inst.name}.branch{k}")
        for k, name in enumerate(names)
    )
    after = tuple(DeviceCopy(t, r) for t, r in zip(targets, result) if t != r)
    return (*setup, Conditional(inst.name, selector, branches), *after)


CONTROL_FLOW = {"while": lower_while, "conditional": lower_conditional}
