"""scatter on the GPU: a copy kernel, then an update kernel (XLA's GPU scatter: the operand
copied into the result, then one thread per update element).

    copy:     out[i] = operand[i]                      (grid-stride, one element per thread)
    updates:  for each update element u (one per thread, grid-strided):
                  target, fits = scatter_target.update_target(u)
                  if fits: out[target] = to_apply(out[target], updates[u])

How the read-modify-write is done depends on what may collide:

    unique_indices=true          plain load/combine/store: no two threads share a target
                                 (XLA trusts the flag; so do we)      (scatter-unique)
    to_apply with an atomic      atomicrmw or a CAS loop (atomics.py: add, min/max,
                                 int and/or/xor)
                                                                       (scatter-atomic)
    anything else                one thread walks every update in the evaluator's order
                                 (scatter position, then window), so a computation that is
                                 not associative gives the CPU's result   (scatter-serial)

indices_are_sorted changes nothing here: it lets XLA merge runs of equal indices, which
these kernels do not try. Windows that do not fit are skipped, as on the CPU.
"""

from __future__ import annotations

from ..elemental import ElementalEmitter
from ..elemental_reduce import apply_reducer
from ..index import Index, delinearize
from ..kernel_io import input_leaves
from ..kernel_spec import KernelSpec
from ..llvm_types import load, storage_type, store
from ..scatter_target import ScatterDims, update_target
from .atomics import atomic_op, atomic_update
from .kernel import GpuKernel, GpuKernelFunction, GpuModuleContext, Launch, grid_for
from .loop_kernel import block_for, emit_grid_loop


def emit_scatter(mc: GpuModuleContext, spec: KernelSpec) -> list[GpuKernel]:
    scatter = spec.comp.root_instruction
    n = (len(scatter.operands) - 1) // 2
    operands = scatter.operands[:n]
    return [copy_kernel(mc, spec, operands), _update_kernel(mc, spec)]


def copy_kernel(mc: GpuModuleContext, spec: KernelSpec, sources, name: str = "copy") -> GpuKernel:
    """out_k[i] = sources_k[i] for every output (a scalar source is broadcast)."""
    kf = GpuKernelFunction(mc, f"{spec.name}_{name}", spec.inputs + spec.outputs, set(spec.outputs))
    ctx = mc.emit_context(kf.builder)
    em = ElementalEmitter(ctx, spec.comp, input_leaves(ctx, kf, spec, {}))
    for source, out in zip(sources, spec.outputs):
        if spec.comp[source].array_shape.rank == 0 and out.shape.rank:
            value = em.value(source, Index.scalar(spec.comp[source].array_shape))
            with kf.grid_stride(out.shape.size, "i") as i:  # every element the same: layout does not matter
                store(em.b, value, em.b.gep(kf.pointer(out), [i], inbounds=True,
                                            source_etype=storage_type(out.shape.dtype)), out.shape.dtype)
        else:
            emit_grid_loop(em, kf, source, out.shape, [out])
    size = max(out.shape.size for out in spec.outputs)
    block = block_for(size, mc.block_size)
    kf.finish((block, 1, 1))
    kernel = GpuKernel(kf.fn.name, spec.instruction, f"{spec.comp.root_instruction.opcode}-{name}", kf.buffers,
                       Launch((grid_for(size, block), 1, 1), (block, 1, 1)), function=kf.fn, elements=size)
    kernel.notes.append(f"the result set to its starting values ({size} elements), before the updates")
    return kernel


def _update_kernel(mc: GpuModuleContext, spec: KernelSpec) -> GpuKernel:
    scatter = spec.comp.root_instruction
    n = (len(scatter.operands) - 1) // 2
    indices, updates = scatter.operands[n], scatter.operands[n + 1:]
    update_shape = spec.comp[updates[0]].array_shape
    operand_dims = spec.outputs[0].shape.dims
    dtypes = [spec.comp[u].array_shape.dtype for u in updates]
    atomic = atomic_op(mc.hlo, scatter.attr("to_apply"), dtypes[0]) if n == 1 else None
    mode = "unique" if scatter.attr("unique_indices") else "atomic" if atomic else "serial"
    kf = GpuKernelFunction(mc, f"{spec.name}_updates", spec.inputs + spec.outputs, set(spec.outputs))
    ctx = mc.emit_context(kf.builder)
    em = ElementalEmitter(ctx, spec.comp, input_leaves(ctx, kf, spec, {}))
    b = em.b
    dims = ScatterDims(scatter, update_shape.rank, len(operand_dims))
    order = dims.evaluation_order()
    extents = [update_shape.dims[d] for d in order]
    total = update_shape.size
    with em.scope(), kf.grid_stride(total, "u") as u:
        walked = delinearize(b, u, extents, list(reversed(range(len(extents)))))
        update_multi = [walked[0]] * update_shape.rank
        for d, v in zip(order, walked):
            update_multi[d] = v
        fits, target = update_target(em, dims, indices, update_shape.dims, operand_dims, update_multi)
        with b.if_then(fits):
            at = Index(update_shape, multi=update_multi)
            pointers = [b.gep(kf.pointer(out), [Index(out.shape, multi=target).linear_for(b, out.shape)],
                              inbounds=True, source_etype=storage_type(out.shape.dtype)) for out in spec.outputs]
            values = [em.value(x, at) for x in updates]
            if mode == "atomic" and atomic:
                atomic_update(em, atomic, scatter.attr("to_apply"), pointers[0], values[0], dtypes[0])
            else:
                current = [load(b, p, out.shape.dtype) for p, out in zip(pointers, spec.outputs)]
                for p, out, v in zip(pointers, spec.outputs,
                                     apply_reducer(em, scatter.attr("to_apply"), current, values, dtypes)):
                    store(b, v, p, out.shape.dtype)
    block = 1 if mode == "serial" else block_for(total, mc.block_size)
    grid = min(1, total) if mode == "serial" else grid_for(total, block)
    kf.finish((block, 1, 1))
    kernel = GpuKernel(kf.fn.name, spec.instruction, f"scatter-{mode}", kf.buffers, Launch((grid, 1, 1), (block, 1, 1)),
                       function=kf.fn, elements=total)
    kernel.notes.append({
        "unique": f"{total} updates, one per thread, plain read-modify-write (unique_indices=true)",
        "atomic": f"{total} updates, one per thread, combined atomically ({atomic})",
        "serial": f"{total} updates on one thread, in order: {scatter.attr('to_apply')} has no atomic form",
    }[mode])
    return kernel
