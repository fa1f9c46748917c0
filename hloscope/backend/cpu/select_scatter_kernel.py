"""select-and-scatter (max-pool's gradient) on the CPU: one thread, in source order.

    out = init                                      (every element)
    for s in the source positions (row-major):
        if the window of s holds a real element:
            p = the element it selects (window_select.py: ties to the first, as XLA)
            out[p] = scatter(out[p], source[s])

In source order, as the evaluator combines, so any scatter computation gives its result
bit for bit (overlapping windows add in the same order).
"""

from __future__ import annotations

from ..elemental import ElementalEmitter
from ..elemental_reduce import apply_reducer
from ..index import Index
from ..kernel_io import input_leaves
from ..kernel_spec import KernelSpec, ModuleContext
from ..llvm_types import I64, load, storage_type, store
from ..loop_function import LoopFunction, LoopKernel
from ..loops import for_range, loop_nest
from ..window_select import select_in_window


def emit_select_scatter_kernel(mc: ModuleContext, spec: KernelSpec) -> LoopKernel:
    inst = spec.comp.root_instruction
    out = spec.outputs[0]
    kf = LoopFunction(mc.llmod, spec.name, spec.inputs + spec.outputs, set(spec.outputs))
    ctx = mc.emit_context(kf.builder)
    em = ElementalEmitter(ctx, spec.comp, input_leaves(ctx, kf, spec, {}))
    b = em.b
    dtype = out.shape.dtype
    base = kf.pointer(out)
    init = em.value(inst.operands[2], Index.scalar(spec.comp[inst.operands[2]].array_shape))
    with for_range(b, I64(0), I64(out.shape.size), "i") as i:  # every element is init: layout does not matter
        store(b, init, b.gep(base, [i], inbounds=True, source_etype=storage_type(dtype)), dtype)
    source = spec.comp[inst.operands[1]].array_shape
    bounds = [(I64(0), I64(n)) for n in source.dims]
    with loop_nest(b, bounds, [f"s{d}" for d in range(source.rank)]) as positions, em.scope():
        has, at = select_in_window(em, inst, positions)
        with b.if_then(has):
            offset = Index(out.shape, multi=at).linear_for(b, out.shape)
            pointer = b.gep(base, [offset], inbounds=True, source_etype=storage_type(dtype))
            value = em.value(inst.operands[1], Index(source, multi=positions))
            combined = apply_reducer(em, inst.attr("scatter"), [load(b, pointer, dtype)], [value], [dtype])[0]
            store(b, combined, pointer, dtype)
    kf.finish()
    kernel = LoopKernel(spec.name, spec.instruction, "select-and-scatter", kf.buffers, work=source.size, function=kf.fn)
    kernel.notes = [f"output set to init, then {source.size} windows each select one element "
                    f"(select={inst.attr('select')}) and combine their source value into it in order"]
    return kernel
