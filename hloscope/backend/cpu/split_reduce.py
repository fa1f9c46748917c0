"""Full reductions split into chunks, so a sum over millions of elements uses every core.

A reduction to a scalar has no output dimension to partition, so it is cut along its input
instead (what XLA:GPU calls a tree reduction, and XLA:CPU leaves single-threaded):

    partials   for chunk c in [begin, end):  partial[c] = reduce(x[chunk c]) from op's identity
    combine    out = init; for c: out = op(out, partial[c])

The initial value counts once, as in the unsplit reduce (sum(x) from 5 is 5 more, not 65
more). The number of chunks depends only on the input size, never on the thread count, so
the result is the same on 1 core or 16. Only simple reducers (one associative op of one
input with an identity: add, multiply, maximum, minimum) of 32- and 64-bit types are split.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir

from ...ir.computation import Computation
from ...ir.dtypes import element_type
from ...ir.module import HloModule
from ...ir.shape import ArrayShape
from ..elemental import ElementalEmitter
from ..elemental_reduce import apply_reducer, simple_reducer
from ..index import Index
from ..llvm_types import I64, load, storage_type, store, type_of, value_type
from ..loops import for_range, loop_nest
from ..kernel_io import input_leaves
from ..kernel_spec import KernelSpec, ModuleContext
from ..loop_function import LoopFunction, LoopKernel
from ..reduction import loop_plan

MAX_CHUNKS = 64
MIN_CHUNK = 16 * 1024


def chunk_count(hlo: HloModule, comp: Computation, parts, min_elements: int) -> int:
    """How many chunks to split the reduction `comp` computes into (0: do not split)."""
    heroes, sides, others = parts
    hero = heroes[0][0]
    in_shape = comp[hero.operands[0]].array_shape
    plan = loop_plan(in_shape, set(hero.attr("dimensions")))
    if sides or others or plan["outer"] or plan["inner"] or not plan["reduced"]:
        return 0
    if in_shape.size < min_elements or in_shape.dtype in ("f16", "bf16", "pred"):
        return 0
    for h, _ in heroes:
        if len(h.operands) != 2 or identity(simple_reducer(hlo, h.attr("to_apply")), in_shape.dtype) is None:
            return 0
    outer = in_shape.dims[plan["reduced"][0]]
    return max(1, min(MAX_CHUNKS, outer, in_shape.size // MIN_CHUNK))


def identity(op: str | None, dtype: str) -> float | int | None:
    """x op identity == x for every x of `dtype` (None: no such value, or not a simple op)."""
    t = element_type(dtype)
    if t.kind == "float":
        return {"add": 0.0, "multiply": 1.0, "maximum": float("-inf"), "minimum": float("inf")}.get(op or "")
    if t.kind in ("signed", "unsigned"):
        info = np.iinfo(t.numpy)
        return {"add": 0, "multiply": 1, "maximum": int(info.min), "minimum": int(info.max)}.get(op or "")
    return None


def emit_split_reduce(mc: ModuleContext, spec: KernelSpec, parts, chunks: int, layout) -> list[LoopKernel]:
    heroes = parts[0]
    scratch = [layout.grow_arena(chunks * outs[0].size, f"{spec.instruction}.partials",
                                 ArrayShape(outs[0].shape.dtype, (chunks,))) for _, outs in heroes]
    return [_partials(mc, spec, heroes, chunks, scratch), _combine(mc, spec, heroes, chunks, scratch)]


def _partials(mc, spec, heroes, chunks, scratch) -> LoopKernel:
    kf = LoopFunction(mc.llmod, spec.name + ".partials", spec.inputs + scratch, set(scratch))
    ctx = mc.emit_context(kf.builder)
    em = ElementalEmitter(ctx, spec.comp, input_leaves(ctx, kf, spec, {}))
    b = kf.builder
    hero0 = heroes[0][0]
    in_shape = spec.comp[hero0.operands[0]].shape
    red = loop_plan(in_shape, set(hero0.attr("dimensions")))["reduced"]
    outer = in_shape.dims[red[0]]
    inits = [ir.Constant(value_type(outs[0].shape.dtype), identity(simple_reducer(mc.hlo, h.attr("to_apply")),
                                                                     outs[0].shape.dtype)) for h, outs in heroes]
    with em.scope(), for_range(b, kf.begin, kf.end, "chunk") as c:
        lo = b.udiv(b.mul(c, I64(outer)), I64(chunks))
        hi = b.udiv(b.mul(b.add(c, I64(1)), I64(outer)), I64(chunks))
        slots = []
        for init in inits:
            slot = ctx.alloca(type_of(init))
            b.store(init, slot)
            slots.append(slot)
        bounds = [(lo, hi)] + [(0, in_shape.dims[d]) for d in red[1:]]
        with em.scope(), loop_nest(b, bounds, [f"r{d}" for d in red]) as ivs:
            multi = [I64(0)] * in_shape.rank
            for d, v in zip(red, ivs):
                multi[d] = v
            index = Index(in_shape, multi=multi)
            for (h, outs), slot in zip(heroes, slots):
                x = em.value(h.operands[0], index.retyped(b, spec.comp[h.operands[0]].shape))
                new = apply_reducer(em, h.attr("to_apply"), [b.load(slot)], [x], [outs[0].shape.dtype])
                b.store(new[0], slot)
        for (h, outs), slot, buf in zip(heroes, slots, scratch):
            ptr = b.gep(kf.pointer(buf), [c], inbounds=True, source_etype=storage_type(buf.shape.dtype))
            store(b, b.load(slot), ptr, buf.shape.dtype)
    kf.finish()
    kernel = LoopKernel(spec.name + ".partials", spec.instruction, "reduce-partials", kf.buffers,
                    extent=chunks, work=in_shape.size, function=kf.fn)
    kernel.notes.append(f"full reduction cut into {chunks} chunks of dimension {red[0]}")
    return kernel


def _combine(mc, spec, heroes, chunks, scratch) -> LoopKernel:
    outputs = [outs[0] for _, outs in heroes]
    kf = LoopFunction(mc.llmod, spec.name, spec.inputs + scratch + outputs, set(outputs))
    ctx = mc.emit_context(kf.builder)
    em = ElementalEmitter(ctx, spec.comp, input_leaves(ctx, kf, spec, {}))
    b = kf.builder
    for (h, outs), buf in zip(heroes, scratch):
        out = outs[0]
        slot = ctx.alloca(storage_type(out.shape.dtype))
        b.store(em.value(h.operands[1], Index.scalar(spec.comp[h.operands[1]].shape)), slot)
        with em.scope(), for_range(b, 0, chunks, "chunk") as c:
            ptr = b.gep(kf.pointer(buf), [c], inbounds=True, source_etype=storage_type(buf.shape.dtype))
            part = load(b, ptr, buf.shape.dtype)
            b.store(apply_reducer(em, h.attr("to_apply"), [b.load(slot)], [part], [out.shape.dtype])[0], slot)
        store(b, b.load(slot), kf.pointer(out), out.shape.dtype)
    kf.finish()
    kernel = LoopKernel(spec.name, spec.instruction, "reduce-combine", kf.buffers, function=kf.fn)
    kernel.notes.append(f"combines {chunks} partial results in order")
    return kernel
