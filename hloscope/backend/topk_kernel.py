"""top-k as a loop over rows (the CPU's kernel, and the plain-loops form): each row is the
partial insertion sort of topk_row.py, and the rows split across threads.

Both spellings come here: `topk(x), k, largest` and XLA's `custom-call(x),
custom_call_target="TopK"` (k from its result, the order from its comparator).
"""

from __future__ import annotations

from math import prod

from ..errors import NotSupportedError
from ..ir.instruction import Instruction
from ..ir.module import HloModule
from ..ir.topk import TopK, topk_of
from .elemental import ElementalEmitter
from .index import spread
from .kernel_io import input_leaves
from .kernel_spec import KernelSpec, ModuleContext
from .llvm_types import I64
from .loop_function import LoopFunction, LoopKernel
from .loops import for_range
from .topk_row import OutputSlots, TopkRow
from .unsupported import unsupported


def topk_spec(target: str, module: HloModule, inst: Instruction) -> TopK:
    """k and the order, or the error naming the target and the instruction."""
    called = inst.attr("called_computations") or ()
    comparator = module.computation(called[0]) if inst.opcode == "custom-call" and called else None
    try:
        return topk_of(inst, comparator)
    except ValueError as e:
        raise unsupported(target, str(e), inst.name) from None


def emit_topk_kernel(mc: ModuleContext, spec: KernelSpec) -> LoopKernel:
    inst = spec.comp.root_instruction
    topk = topk_spec(mc.target, mc.hlo, inst)
    shape = spec.comp[inst.operands[0]].array_shape
    if len(spec.outputs) != 2:
        raise NotSupportedError(f"not supported on {mc.target}: topk writing {len(spec.outputs)} buffers "
                                f"(instruction {spec.instruction})")
    n, rows = shape.dims[-1], prod(shape.dims[:-1])
    kf = LoopFunction(mc.llmod, spec.name, spec.inputs + spec.outputs, set(spec.outputs))
    ctx = mc.emit_context(kf.builder)
    em = ElementalEmitter(ctx, spec.comp, input_leaves(ctx, kf, spec, {}))
    row_emitter = TopkRow(em, inst, topk.k, topk.largest)
    b = kf.builder
    with for_range(b, kf.begin, kf.end, "row") as row:
        base = spread(b, row, shape.dims, range(shape.rank - 1), [I64(0)] * shape.rank)
        if topk.k:
            slots = OutputSlots(b, kf.pointer, spec.outputs[1], base)
            row_emitter.select(base, slots, 0, 1)
            row_emitter.copy_values(base, slots, kf.pointer, spec.outputs[0])
    kf.finish()
    kernel = LoopKernel(spec.name, spec.instruction, "topk", kf.buffers, extent=rows, granule=1,
                        work=rows * n, function=kf.fn)
    order = "largest" if topk.largest else "smallest"
    kernel.notes = [f"top-{topk.k} ({order}) of {rows} rows of {n}: one pass per row, a sorted "
                    f"insertion into the k output slots; rows split across threads"]
    return kernel
