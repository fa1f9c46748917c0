"""scatter: the operands copied into the results, then every update combined into its target.

    out = operand                                   (a loop kernel's copy, any layout)
    for s in the scatter positions of `updates`:     (its dims not in update_window_dims)
        start = indices[s] placed into the operand's dims by scatter_dims_to_operand_dims,
                and s's own position along each input batching dim's paired indices dim
        if 0 <= start[d] <= dim[d] - window[d] for every d:    (else the window is skipped)
            for w in the window positions:
                out[start + w] = to_apply(out[start + w], updates[s, w])

One thread, in order: two updates may hit the same element, and to_apply need not be
associative, so the order is the evaluator's (scatter position, then window position) and
the result is the same bit for bit. Unlike gather, a start that does not fit is not clamped
(XLA's semantics): its whole window is dropped. A variadic scatter combines all its operands
at once, with one to_apply call.
"""

from __future__ import annotations

from typing import Sequence

from ..elemental import ElementalEmitter
from ..elemental_reduce import apply_reducer
from ..index import Index
from ..llvm_types import I1, I64, load, storage_type, store
from ..loops import loop_nest
from ..scatter_target import ScatterDims
from .. import scalar_convert
from ..kernel_io import input_leaves
from ..kernel_spec import KernelSpec, ModuleContext
from ..loop_function import LoopFunction, LoopKernel
from ..loop_kernel import emit_loops


def emit_scatter_kernel(mc: ModuleContext, spec: KernelSpec) -> LoopKernel:
    scatter = spec.comp.root_instruction
    kf = LoopFunction(mc.llmod, spec.name, spec.inputs + spec.outputs, set(spec.outputs))
    ctx = mc.emit_context(kf.builder)
    em = ElementalEmitter(ctx, spec.comp, input_leaves(ctx, kf, spec, {}))
    n = (len(scatter.operands) - 1) // 2
    operands, indices, updates = scatter.operands[:n], scatter.operands[n], scatter.operands[n + 1:]
    for operand, out in zip(operands, spec.outputs):
        emit_loops(em, kf, None, operand, out.shape, [out])
    _combine_updates(em, kf, scatter, indices, updates, spec.outputs)
    kf.finish()
    update_shape = spec.comp[updates[0]].array_shape
    kernel = LoopKernel(spec.name, spec.instruction, "scatter", kf.buffers, work=update_shape.size, function=kf.fn)
    kernel.notes = [f"operand copied, then {update_shape.size} updates combined one after another "
                    f"(to_apply={scatter.attr('to_apply')}); windows that do not fit are skipped"]
    return kernel


def _combine_updates(em, kf, scatter, indices: str, updates: Sequence[str], outputs) -> None:
    b = em.b
    comp = em.comp
    update_shape, index_shape = comp[updates[0]].shape, comp[indices].shape
    operand_shape = outputs[0].shape
    dims = ScatterDims(scatter, update_shape.rank, operand_shape.rank)
    window_dims, batching, to_operand, vector_dim = dims.window_dims, dims.batching, dims.to_operand, dims.vector_dim
    scatter_dims, operand_window = dims.scatter_dims, dims.operand_window
    window_size = {op: update_shape.dims[u] for op, u in zip(operand_window, window_dims)}
    dtypes = [comp[u].shape.dtype for u in updates]
    bounds = [(I64(0), I64(update_shape.dims[d])) for d in scatter_dims]
    with loop_nest(b, bounds, [f"s{d}" for d in scatter_dims]) as positions, em.scope():
        starts = [I64(0)] * operand_shape.rank
        fits = I1(1)
        for k, op_dim in enumerate(to_operand):
            at = list(positions)
            if vector_dim < index_shape.rank:
                at.insert(vector_dim, I64(k))
            start = em.value(indices, Index(index_shape, multi=at))
            start = scalar_convert.emit_convert(em.ctx.scalar, start, index_shape.dtype, "s64")
            last = operand_shape.dims[op_dim] - window_size.get(op_dim, 1)
            inside = b.and_(b.icmp_signed(">=", start, I64(0)), b.icmp_signed("<=", start, I64(last)))
            fits = b.and_(fits, inside)
            starts[op_dim] = start
        for op_dim, position in batching.items():  # in step with the indices: always in range
            starts[op_dim] = positions[position]
        with b.if_then(fits):
            window = [(I64(0), I64(update_shape.dims[d])) for d in window_dims]
            with loop_nest(b, window, [f"w{d}" for d in window_dims]) as offsets, em.scope():
                at_update = [None] * update_shape.rank
                for d, v in zip(scatter_dims, positions):
                    at_update[d] = v
                for d, v in zip(window_dims, offsets):
                    at_update[d] = v
                target = list(starts)
                for op_dim, v in zip(operand_window, offsets):
                    target[op_dim] = b.add(starts[op_dim], v)
                _combine_one(em, kf, scatter, outputs, target, updates, Index(update_shape, multi=at_update), dtypes)


def _combine_one(em, kf, scatter, outputs, target: list, updates: Sequence[str], at_update: Index, dtypes) -> None:
    """out[target] = to_apply(out[target], updates[at_update]) for every operand at once."""
    b = em.b
    pointers = []
    for out in outputs:
        offset = Index(out.shape, multi=target).linear_for(b, out.shape)
        pointers.append(b.gep(kf.pointer(out), [offset], inbounds=True, source_etype=storage_type(out.shape.dtype)))
    current = [load(b, p, out.shape.dtype) for p, out in zip(pointers, outputs)]
    values = [em.value(u, at_update) for u in updates]
    for p, out, v in zip(pointers, outputs, apply_reducer(em, scatter.attr("to_apply"), current, values, dtypes)):
        store(b, v, p, out.shape.dtype)
