"""while and conditional: called programs, like XLA:CPU's WhileThunk and ConditionalThunk.

The condition, the body and every branch are lowered like the entry computation, to their
own program function `void f(ptr buffers, ptr arena)` (internal to the module), with their
own buffer layout and a region of the caller's arena. A tuple parameter (a loop's state) is
passed as one pointer per leaf.

    while      state = init (copied into the while's own buffers)
               loop:  condition(state..., &pred); if !pred: break
                      body(state..., next...);  state = next     (copied: the body reads the
                                                                   state while it writes next;
                                                                   a leaf the body returns as
                                                                   is is its own next, no copy)
    conditional
               switch (index, or pred ? 0 : 1; out of range -> the last branch):
                      branch_k(operand_k..., result...)
"""

from __future__ import annotations

from dataclasses import dataclass

from llvmlite import ir

from ...ir.shape import ArrayShape
from ..llvm_types import I1, I8, I32, I64, PTR, VOID, int_width, load, type_of
from ..buffers import ArrayStorage, BufferLayout, assign_buffers
from ..loop_state import passed_through


def _memmove(em, dst: ArrayStorage, src: ArrayStorage) -> None:
    if dst == src or not src.size:
        return
    fn = em.llmod.globals.get("llvm.memmove.p0.p0.i64") or ir.Function(
        em.llmod, ir.FunctionType(VOID, [PTR, PTR, I64, I1]), "llvm.memmove.p0.p0.i64")
    em.b.call(fn, [em.pointer(dst), em.pointer(src), I64(src.size), I1(0)])


def _table(em, buffers: list[ArrayStorage], name: str):
    """A stack array of buffer pointers, the `buffers` argument of a called program."""
    table = em.alloca(ir.ArrayType(PTR, max(1, len(buffers))), name)
    for i, buf in enumerate(buffers):
        em.b.store(em.pointer(buf), em.b.gep(table, [I32(0), I32(i)], inbounds=True))
    return table


def _arena(em, region: ArrayStorage):
    return em.b.gep(em.fn.args[1], [I64(region.slot)], inbounds=True, source_etype=I8)


@dataclass
class Called:
    """A program function and the arena region its temporaries live in."""

    fn: ir.Function
    region: ArrayStorage


def _program(programs, comp, layout: BufferLayout, name: str) -> Called:
    sub = assign_buffers(comp, None)
    fn = programs.lower(comp, sub, programs.mc.unique_name(name))
    region = layout.grow_arena(sub.arena_bytes, name, ArrayShape("u8", (sub.arena_bytes,)))
    return Called(fn, region)


@dataclass
class WhileStep:
    state: list[ArrayStorage]
    init: list[ArrayStorage]
    following: list[ArrayStorage]
    pred: ArrayStorage
    condition: Called
    body: Called

    def emit(self, em) -> None:
        b = em.b
        for s, i in zip(self.state, self.init):
            _memmove(em, s, i)
        cond_table = _table(em, self.state + [self.pred], "condition.buffers")
        body_table = _table(em, self.state + self.following, "body.buffers")
        cond_arena, body_arena = _arena(em, self.condition.region), _arena(em, self.body.region)
        header, body, done = (b.append_basic_block(n) for n in ("while.condition", "while.body", "while.exit"))
        b.branch(header)
        b.position_at_end(header)
        b.call(self.condition.fn, [cond_table, cond_arena])
        b.cbranch(load(b, em.pointer(self.pred), "pred"), body, done)
        b.position_at_end(body)
        b.call(self.body.fn, [body_table, body_arena])
        for s, n in zip(self.state, self.following):
            _memmove(em, s, n)
        b.branch(header)
        b.position_at_end(done)


def lower_while(programs, inst, comp, layout: BufferLayout) -> WhileStep:
    hlo = programs.mc.hlo
    state = layout.of(inst.name)
    same = passed_through(hlo.computation(inst.attr("body")))
    following = [s if k in same else layout.grow_arena(s.size, f"{inst.name}.next", s.shape)
                 for k, s in enumerate(state)]
    pred = layout.grow_arena(1, f"{inst.name}.pred", ArrayShape("pred", ()))
    condition = _program(programs, hlo.computation(inst.attr("condition")), layout, f"{inst.name}.condition")
    body = _program(programs, hlo.computation(inst.attr("body")), layout, f"{inst.name}.body")
    return WhileStep(state, layout.of(inst.operands[0]), following, pred, condition, body)


@dataclass
class ConditionalStep:
    selector: ArrayStorage
    branches: list[tuple[Called, list[ArrayStorage]]]
    outputs: list[ArrayStorage]

    def emit(self, em) -> None:
        b = em.b
        value = load(b, em.pointer(self.selector), self.selector.shape.dtype)
        if type_of(value) == I1:  # pred: true runs branch 0 (true_computation), false branch 1
            index = b.select(value, I32(0), I32(1))
        else:
            width = int_width(type_of(value))
            index = b.trunc(value, I32) if width > 32 else b.sext(value, I32) if width < 32 else value
        done = b.append_basic_block("conditional.exit")
        blocks = [b.append_basic_block(f"branch.{k}") for k in range(len(self.branches))]
        switch = b.switch(index, blocks[-1])  # out of range: the last branch, as in XLA
        for k, block in enumerate(blocks[:-1]):
            switch.add_case(I32(k), block)
        for block, (called, operands) in zip(blocks, self.branches):
            b.position_at_end(block)
            table = _table(em, operands + self.outputs, f"{block.name}.buffers")
            b.call(called.fn, [table, _arena(em, called.region)])
            b.branch(done)
        b.position_at_end(done)


def lower_conditional(programs, inst, comp, layout: BufferLayout) -> ConditionalStep:
    hlo = programs.mc.hlo
    names = inst.attr("branch_computations") or (inst.attr("true_computation"), inst.attr("false_computation"))
    branches = []
    for k, name in enumerate(names):
        called = _program(programs, hlo.computation(name), layout, f"{inst.name}.branch{k}")
        branches.append((called, layout.of(inst.operands[k + 1])))
    return ConditionalStep(layout.of(inst.operands[0])[0], branches, layout.of(inst.name))


CONTROL_FLOW = {"while": lower_while, "conditional": lower_conditional}
