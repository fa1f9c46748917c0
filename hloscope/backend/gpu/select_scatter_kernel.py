"""select-and-scatter (max-pool's gradient) on the GPU: an init kernel, then one thread per
source element.

    init:     out[i] = init
    scatter:  for each source element s (one per thread, grid-strided):
                  p = the element its window selects (window_select.py; ties to the first)
                  out[p] = scatter(out[p], source[s])

Whether two threads can pick the same element decides the read-modify-write:

    windows that do not overlap (stride >= window extent in every dim, max-pool's usual
    2x2 stride 2): each output element lies in one window at most, so a plain store
                                                     (select-and-scatter-disjoint)
    overlapping windows, a scatter with an atomic (atomics.py: f32/f64 add...)
                                                     (select-and-scatter-atomic)
    otherwise: one thread, every source element in order, as the evaluator
                                                     (select-and-scatter-serial)
"""

from __future__ import annotations

from ..elemental import ElementalEmitter
from ..elemental_reduce import apply_reducer
from ..index import Index, delinearize
from ..kernel_io import input_leaves
from ..kernel_spec import KernelSpec
from ..llvm_types import load, storage_type, store
from ..window_select import select_in_window, window_of
from .atomics import atomic_op, atomic_update
from .kernel import GpuKernel, GpuKernelFunction, GpuModuleContext, Launch, grid_for
from .loop_kernel import block_for
from .scatter_kernel import copy_kernel


def emit_select_scatter(mc: GpuModuleContext, spec: KernelSpec) -> list[GpuKernel]:
    inst = spec.comp.root_instruction
    return [copy_kernel(mc, spec, [inst.operands[2]], "init"), _scatter_kernel(mc, spec)]


def windows_overlap(inst, rank: int) -> bool:
    return any((w.size - 1) * w.rhs_dilate + 1 > w.stride for w in window_of(inst, rank))


def _scatter_kernel(mc: GpuModuleContext, spec: KernelSpec) -> GpuKernel:
    inst = spec.comp.root_instruction
    out = spec.outputs[0]
    dtype = out.shape.dtype
    source = spec.comp[inst.operands[1]].array_shape
    atomic = atomic_op(mc.hlo, inst.attr("scatter"), dtype)
    mode = "disjoint" if not windows_overlap(inst, out.shape.rank) else "atomic" if atomic else "serial"
    kf = GpuKernelFunction(mc, f"{spec.name}_scatter", spec.inputs + spec.outputs, set(spec.outputs))
    ctx = mc.emit_context(kf.builder)
    em = ElementalEmitter(ctx, spec.comp, input_leaves(ctx, kf, spec, {}))
    b = em.b
    with em.scope(), kf.grid_stride(source.size, "s") as s:
        position = delinearize(b, s, source.dims, list(reversed(range(source.rank))))  # row-major: the evaluator's order
        has, at = select_in_window(em, inst, position)
        with b.if_then(has):
            offset = Index(out.shape, multi=at).linear_for(b, out.shape)
            pointer = b.gep(kf.pointer(out), [offset], inbounds=True, source_etype=storage_type(dtype))
            value = em.value(inst.operands[1], Index(source, multi=position))
            if mode == "atomic" and atomic:
                atomic_update(em, atomic, inst.attr("scatter"), pointer, value, dtype)
            else:
                combined = apply_reducer(em, inst.attr("scatter"), [load(b, pointer, dtype)], [value], [dtype])[0]
                store(b, combined, pointer, dtype)
    block = 1 if mode == "serial" else block_for(source.size, mc.block_size)
    grid = min(1, source.size) if mode == "serial" else grid_for(source.size, block)
    kf.finish((block, 1, 1))
    kernel = GpuKernel(kf.fn.name, spec.instruction, f"select-and-scatter-{mode}", kf.buffers,
                       Launch((grid, 1, 1), (block, 1, 1)), function=kf.fn, elements=source.size)
    kernel.notes.append({
        "disjoint": f"{source.size} windows, one per thread; they do not overlap, so plain stores",
        "atomic": f"{source.size} windows, one per thread; overlapping, combined atomically ({atomic})",
        "serial": f"{source.size} windows on one thread, in order: {inst.attr('scatter')} has no atomic form",
    }[mode])
    return kernel
