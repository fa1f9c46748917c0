"""Reduction kernels: reduce-rooted fusions (XLA's kInput, the reduce is the "hero").

The loop order follows the input's layout so the innermost loop reads contiguous memory:

  row reduction     the reduced dimensions include the most minor one:
                        for each output position:   acc = init
                            for r in reduced:       acc = op(acc, x[..., r])   <- vectorized
                            out[...] = acc
                    with `reassoc` on op, LLVM keeps 8 partial sums in one <8 x float> register
                    and adds them up at the end (what XLA's EmitVectorizedReduce does by hand).
  column reduction  kept dimensions are more minor than every reduced one:
                        out[...] = init
                        for r in reduced:  for k in kept-minor:  out[k] = op(out[k], x[r, k])
                    the inner loop over k is contiguous in both arrays and vectorizes.

A multi-output fusion may hold several reduces of the same input shape (siblings: sum, max
and min of the same rows) and elementwise results of the input's shape (the exp of softmax
written out while it is summed); all of them are computed in the same loops.
"""

from __future__ import annotations

from ...ir.instruction import Instruction
from ...ir.shape import ArrayShape
from ..elemental import ElementalEmitter
from ..elemental_reduce import apply_reducer
from ..index import Index
from ..llvm_types import I64, load, storage_type, store
from ..loops import loop_nest
from .buffers import leaves
from .kernel import Kernel, KernelFunction, KernelSpec, ModuleContext
from .loop_kernel import emit_loops, input_leaves


def reduce_parts(spec: KernelSpec):
    """(heroes, side outputs, other outputs) of the root, or None if it is not reduce-rooted.

    Heroes are reduces over the same input dims and dimensions, each with its outputs; side
    outputs are root elements with the reduce input's dimensions (computed in the same
    loops); others get a loop nest of their own.
    """
    comp = spec.comp
    root = comp.root_instruction
    elements = list(root.operands) if root.opcode == "tuple" else [root.name]
    heroes = [comp[e] for e in elements if comp[e].opcode == "reduce"]
    if not heroes:
        return None
    first = heroes[0]
    in_dims = comp[first.operands[0]].shape.dims
    hero_names = {h.name for h in heroes if comp[h.operands[0]].shape.dims == in_dims
                  and h.attr("dimensions") == first.attr("dimensions")}
    parts = ([], [], [])
    for name, outs in _output_slices(comp, elements, spec.outputs):
        shape = comp[name].shape
        if name in hero_names:
            parts[0].append((comp[name], outs))
        elif isinstance(shape, ArrayShape) and shape.dims == in_dims:
            parts[1].append((name, outs))
        else:
            parts[2].append((name, outs))
    return parts


def _output_slices(comp, elements: list[str], outputs: list) -> list[tuple[str, list]]:
    """Each root element with its output buffers (a tuple-shaped element has several)."""
    slices, start = [], 0
    for name in elements:
        n = len(leaves(comp[name].shape))
        slices.append((name, outputs[start : start + n]))
        start += n
    return slices


def emit_reduce_kernel(mc: ModuleContext, spec: KernelSpec, parts, extra: dict | None = None) -> Kernel:
    """The reduction kernel for reduce_parts(spec); `extra` as in emit_loop_kernel."""
    heroes, sides, others = parts
    extra = extra or {}
    kf = KernelFunction(mc.llmod, spec.name, spec.inputs + list(extra.values()) + spec.outputs, set(spec.outputs))
    ctx = mc.emit_context(kf.builder)
    em = ElementalEmitter(ctx, spec.comp, input_leaves(ctx, kf, spec, extra))
    first = heroes[0][0]
    in_shape = spec.comp[first.operands[0]].shape
    plan = loop_plan(in_shape, set(first.attr("dimensions")))
    kernel = Kernel(spec.name, spec.instruction, "reduce", kf.buffers, work=in_shape.size)
    partitioned = not others and (plan["outer"] or plan["inner"])
    if plan["inner"]:
        _column(em, kf, heroes, sides, in_shape, plan, partitioned)
        kernel.notes.append(f"column reduction: kept minor dimensions {plan['inner']} in the inner loop")
    else:
        _row(em, kf, heroes, sides, in_shape, plan, partitioned)
        kernel.notes.append(f"row reduction over dimensions {plan['reduced']} (innermost loop)")
    if partitioned:
        kernel.extent = in_shape.dims[(plan["outer"] or plan["inner"])[0]]
    for name, outs in others:
        emit_loops(em, kf, None, name, outs[0].shape, outs)
    kf.finish()
    kernel.function = kf.fn
    return kernel


def loop_plan(in_shape: ArrayShape, reduced: set) -> dict:
    """Kept dimensions split at the most minor reduced one: outer, reduced, inner (all major
    to minor, size-1 dimensions left out: their index is always 0)."""
    order = [d for d in reversed(in_shape.layout) if in_shape.dims[d] != 1]
    red = [d for d in order if d in reduced]
    last = order.index(red[-1]) if red else len(order) - 1
    return {
        "outer": [d for d in order[: last + 1] if d not in reduced],
        "reduced": red,
        "inner": order[last + 1 :],
    }


def _bounds(in_shape, dims, kf, partitioned: bool):
    bounds = [(0, in_shape.dims[d]) for d in dims]
    if partitioned and dims:
        bounds[0] = (kf.begin, kf.end)
    return bounds


def _out_index(hero: Instruction, out_shape: ArrayShape, multi) -> Index:
    """The output position of an input position: the kept dimensions, in order."""
    dims = set(hero.attr("dimensions"))
    return Index(out_shape, multi=[v for d, v in enumerate(multi) if d not in dims])


def _inputs_at(em, hero: Instruction, index: Index) -> list:
    n = len(hero.operands) // 2
    return [em.value(x, index.retyped(em.b, em.comp[x].shape)) for x in hero.operands[:n]]


def _inits(em, hero: Instruction) -> list:
    n = len(hero.operands) // 2
    return [em.value(i, Index.scalar(em.comp[i].shape)) for i in hero.operands[n:]]


def store_sides(em, kf, sides, index: Index) -> None:
    """Write the elementwise side outputs of a reduce fusion at `index` (softmax's exp)."""
    b = em.b
    for name, outs in sides:
        out = outs[0]
        ptr = b.gep(kf.pointer(out), [index.linear_for(b, out.shape)], inbounds=True,
                    source_etype=storage_type(out.shape.dtype))
        store(b, em.value(name, index.retyped(b, out.shape)), ptr, out.shape.dtype)


def _address(em, kf, out, index: Index):
    return em.b.gep(kf.pointer(out), [index.linear_for(em.b, out.shape)], inbounds=True,
                    source_etype=storage_type(out.shape.dtype))


def _multi(in_shape, dims, ivs, fixed=None):
    multi = list(fixed) if fixed else [I64(0)] * in_shape.rank
    for d, v in zip(dims, ivs):
        multi[d] = v
    return multi


def _row(em, kf, heroes, sides, in_shape, plan, partitioned):
    b = em.b
    with em.scope(), loop_nest(b, _bounds(in_shape, plan["outer"], kf, partitioned), [f"o{d}" for d in plan["outer"]]) as outer:
        base = _multi(in_shape, plan["outer"], outer)
        slots = []
        for hero, outs in heroes:
            slot_list = []
            for init in _inits(em, hero):
                slot = em.ctx.alloca(init.type)
                b.store(init, slot)
                slot_list.append(slot)
            slots.append(slot_list)
        with em.scope(), loop_nest(b, _bounds(in_shape, plan["reduced"], kf, False), [f"r{d}" for d in plan["reduced"]]) as red:
            index = Index(in_shape, multi=_multi(in_shape, plan["reduced"], red, base))
            for (hero, outs), slot_list in zip(heroes, slots):
                accs = [b.load(s) for s in slot_list]
                new = apply_reducer(em, hero.attr("to_apply"), accs, _inputs_at(em, hero, index), [o.shape.dtype for o in outs])
                for s, v in zip(slot_list, new):
                    b.store(v, s)
            store_sides(em, kf, sides, index)
        for (hero, outs), slot_list in zip(heroes, slots):
            for out, slot in zip(outs, slot_list):
                store(b, b.load(slot), _address(em, kf, out, _out_index(hero, out.shape, base)), out.shape.dtype)


def _column(em, kf, heroes, sides, in_shape, plan, partitioned):
    b = em.b
    outer_part = partitioned and bool(plan["outer"])
    inner_part = partitioned and not plan["outer"]
    with em.scope(), loop_nest(b, _bounds(in_shape, plan["outer"], kf, outer_part), [f"o{d}" for d in plan["outer"]]) as outer:
        base = _multi(in_shape, plan["outer"], outer)
        inits = [_inits(em, hero) for hero, _ in heroes]
        inner_bounds = _bounds(in_shape, plan["inner"], kf, inner_part)
        with em.scope(), loop_nest(b, inner_bounds, [f"k{d}" for d in plan["inner"]]) as inner:
            multi = _multi(in_shape, plan["inner"], inner, base)
            for (hero, outs), values in zip(heroes, inits):
                for out, v in zip(outs, values):
                    store(b, v, _address(em, kf, out, _out_index(hero, out.shape, multi)), out.shape.dtype)
        with em.scope(), loop_nest(b, _bounds(in_shape, plan["reduced"], kf, False), [f"r{d}" for d in plan["reduced"]]) as red:
            with em.scope(), loop_nest(b, inner_bounds, [f"k{d}" for d in plan["inner"]]) as inner:
                multi = _multi(in_shape, plan["inner"], inner, _multi(in_shape, plan["reduced"], red, base))
                index = Index(in_shape, multi=multi)
                for hero, outs in heroes:
                    ptrs = [_address(em, kf, out, _out_index(hero, out.shape, multi)) for out in outs]
                    accs = [load(b, p, o.shape.dtype) for p, o in zip(ptrs, outs)]
                    new = apply_reducer(em, hero.attr("to_apply"), accs, _inputs_at(em, hero, index), [o.shape.dtype for o in outs])
                    for p, o, v in zip(ptrs, outs, new):
                        store(b, v, p, o.shape.dtype)
                store_sides(em, kf, sides, index)
