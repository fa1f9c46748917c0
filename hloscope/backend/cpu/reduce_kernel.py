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
                    (its iterations are independent: it does not interleave, see loops.py)

A multi-output fusion may hold several reduces of the same input shape (siblings: sum, max
and min of the same rows) and elementwise results of the input's shape (the exp of softmax
written out while it is summed); all of them are computed in the same loops.
"""

from __future__ import annotations

from ...cost.analysis import has_transcendental
from ...ir.instruction import Instruction
from ...ir.shape import ArrayShape
from ..elemental import ElementalEmitter
from ..elemental_reduce import apply_reducer
from ..index import Index
from ..kernel_io import input_leaves
from ..kernel_spec import KernelSpec, ModuleContext
from ..llvm_types import I64, load, storage_type, store
from ..loop_function import LoopFunction, LoopKernel
from ..loop_kernel import emit_loops
from ..loops import loop_nest
from ..reduction import loop_plan, store_sides


def emit_reduce_kernel(mc: ModuleContext, spec: KernelSpec, parts, extra: dict | None = None) -> LoopKernel:
    """The reduction kernel for reduce_parts(spec); `extra` as in emit_loop_kernel."""
    heroes, sides, others = parts
    extra = extra or {}
    kf = LoopFunction(mc.llmod, spec.name, spec.inputs + list(extra.values()) + spec.outputs, set(spec.outputs))
    ctx = mc.emit_context(kf.builder)
    em = ElementalEmitter(ctx, spec.comp, input_leaves(ctx, kf, spec, extra))
    first = heroes[0][0]
    in_shape = spec.comp[first.operands[0]].array_shape
    plan = loop_plan(in_shape, set(first.attr("dimensions")))
    kernel = LoopKernel(spec.name, spec.instruction, "reduce", kf.buffers, work=in_shape.size)
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
        reduced = _bounds(in_shape, plan["reduced"], kf, False)
        with em.scope(), loop_nest(b, reduced, [f"r{d}" for d in plan["reduced"]], _accumulator_bound(em.comp)) as red:
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


def _accumulator_bound(comp) -> bool:
    """Whether a row reduction's speed is bound by its accumulator's latency, so that
    interleaving (several accumulators) pays: not when each element costs a transcendental
    function, which is then the bound (backend/loops.py)."""
    return not has_transcendental(comp)


def _column(em, kf, heroes, sides, in_shape, plan, partitioned):
    b = em.b
    outer_part = partitioned and bool(plan["outer"])
    inner_part = partitioned and not plan["outer"]
    with em.scope(), loop_nest(b, _bounds(in_shape, plan["outer"], kf, outer_part), [f"o{d}" for d in plan["outer"]]) as outer:
        base = _multi(in_shape, plan["outer"], outer)
        inits = [_inits(em, hero) for hero, _ in heroes]
        inner_bounds = _bounds(in_shape, plan["inner"], kf, inner_part)
        with em.scope(), loop_nest(b, inner_bounds, [f"k{d}" for d in plan["inner"]], interleave=False) as inner:
            multi = _multi(in_shape, plan["inner"], inner, base)
            for (hero, outs), values in zip(heroes, inits):
                for out, v in zip(outs, values):
                    store(b, v, _address(em, kf, out, _out_index(hero, out.shape, multi)), out.shape.dtype)
        with em.scope(), loop_nest(b, _bounds(in_shape, plan["reduced"], kf, False), [f"r{d}" for d in plan["reduced"]]) as red:
            with em.scope(), loop_nest(b, inner_bounds, [f"k{d}" for d in plan["inner"]], interleave=False) as inner:
                multi = _multi(in_shape, plan["inner"], inner, _multi(in_shape, plan["reduced"], red, base))
                index = Index(in_shape, multi=multi)
                for hero, outs in heroes:
                    ptrs = [_address(em, kf, out, _out_index(hero, out.shape, multi)) for out in outs]
                    accs = [load(b, p, o.shape.dtype) for p, o in zip(ptrs, outs)]
                    new = apply_reducer(em, hero.attr("to_apply"), accs, _inputs_at(em, hero, index), [o.shape.dtype for o in outs])
                    for p, o, v in zip(ptrs, outs, new):
                        store(b, v, p, o.shape.dtype)
                store_sides(em, kf, sides, index)
