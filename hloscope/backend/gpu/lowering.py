"""Lowering: an optimized HLO module to one LLVM module of GPU kernels, in schedule order.

For each instruction of the ENTRY, as on the CPU:

    parameter, constant, tuple, get-tuple-element, bitcast   no kernel (buffers alias)
    while, conditional                                       host-side steps (control_flow.py)
    fusion / call                                            kernels for the called computation
    any other op                                             kernels for a one-instruction computation

and the kernel follows the root:

    dot of two parameters in matrix form      dot_kernel: shared-memory tiles    (dot-tiled)
    reduce over the most minor dimensions     reduce_kernel: a block per row     (row-reduce)
    reduce keeping the most minor dimensions  column_reduce: a thread per column (column-reduce)
    sort                                      sort_kernel: a bitonic network     (sort-bitonic)
    anything else                             loop_kernel: a grid-stride loop    (loop, reduce-loop)

A dot inside a fusion is computed first by its own tiled kernel, into the fusion's output
when only elementwise ops follow it, else into arena scratch; the rest of the fusion then
reads it like a parameter. There is no entry function: the host runs the steps in order
(program.py): each kernel with its launch configuration, and loops and
branches by reading their predicate back.

Buffers are every target's (backend/buffers.py): parameters, outputs and temporaries
at their memory-plan offsets, which the executable places in one device arena.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from llvmlite import ir

from ...errors import NotSupportedError
from ...ir.computation import Computation
from ...ir.module import HloModule
from ...memory import MemoryPlan
from .program import KernelLaunch
from ..elemental import RULES
from ..emit_context import ConstantPool, EmitOptions
from ..buffers import BufferLayout, assign_buffers, is_alias, operand_buffers
from ..kernel_spec import KernelSpec, llvm_name
from ..cpu.lowering import NO_CODE, NOT_ON_CPU, _epilogue_in_place, _safe_outputs, computation_of
from ..reduction import reduce_parts
from .column_reduce import column_plan, emit_column_reduce
from .control_flow import CONTROL_FLOW
from .dot_kernel import dot_ok, emit_dot
from .kernel import GpuKernel, GpuModuleContext, ThreadModel
from .loop_kernel import emit_loop_kernel
from .nvptx import Nvptx
from .reduce_kernel import emit_row_reduce, row_plan
from .sort_kernel import emit_sort_kernel

NOT_ON_GPU = NOT_ON_CPU


@dataclass
class GpuLoweringOptions:
    emit: EmitOptions = field(default_factory=EmitOptions)
    block_size: int = 256  # threads per block of loop kernels


@dataclass
class GpuLowered:
    """The LLVM module and what the runtime and the report need to know about it."""

    llmod: ir.Module
    layout: BufferLayout
    kernels: list[GpuKernel]
    steps: tuple  # what the host runs, in the entry's terms (program.py)


def lower(module: HloModule, options: GpuLoweringOptions | None = None, plan: MemoryPlan | None = None,
          threads: ThreadModel | None = None) -> GpuLowered:
    """The GPU kernels of `module` (optimized and scheduled) for a thread model (NVPTX by default)."""
    options = options or GpuLoweringOptions()
    threads = threads or Nvptx()
    entry = module.entry_computation
    if any(p.shape.is_tuple for p in entry.parameters):
        raise NotSupportedError("not supported on gpu: tuple-shaped entry parameters")
    layout = assign_buffers(entry, plan)
    llmod = ir.Module(name=module.name)
    if threads.triple:
        llmod.triple = threads.triple
    mc = GpuModuleContext(llmod, module, options.emit, ConstantPool(llmod), threads, options.block_size)
    programs = GpuPrograms(mc)
    steps = programs.lower(entry, layout)
    return GpuLowered(llmod, layout, programs.kernels, steps)


class GpuPrograms:
    """Lowers a computation to its steps: the entry, and the condition, body and branches of
    its control flow (control_flow.py), collecting every kernel for the report."""

    def __init__(self, mc: GpuModuleContext):
        self.mc = mc
        self.kernels: list[GpuKernel] = []

    def lower(self, comp: Computation, layout: BufferLayout) -> tuple:
        """comp's steps in schedule order, in the terms of `layout` (comp's own buffers)."""
        outer, self.mc.computation = self.mc.computation, comp
        try:
            steps = []
            for inst in comp.instructions:
                if inst.opcode in NO_CODE or is_alias(inst, comp):
                    continue
                if inst.opcode in CONTROL_FLOW:
                    steps += CONTROL_FLOW[inst.opcode](self, inst, comp, layout)
                    continue
                if inst.opcode in NOT_ON_GPU:
                    raise NotSupportedError(f"not supported on gpu: {inst.opcode} (instruction {inst.name})")
                for k in lower_instruction(self.mc, inst, comp, layout):
                    self.kernels.append(k)
                    steps.append(KernelLaunch(k.name, k.launch.grid, k.launch.block, k.launch.shared_bytes,
                                              tuple(k.buffers)))
            return tuple(steps)
        finally:
            self.mc.computation = outer


def lower_instruction(mc: GpuModuleContext, inst, entry: Computation, layout: BufferLayout) -> list[GpuKernel]:
    comp = computation_of(inst, entry, mc.hlo)
    inputs = operand_buffers(inst, layout, "gpu")
    check_supported(comp, mc.hlo)
    outputs = _safe_outputs(comp, inputs, layout.of(inst.name), layout)
    spec = KernelSpec(llvm_name(inst.name), inst.name, comp, inputs, outputs)
    root = comp.root_instruction
    if root.opcode == "sort":
        return [emit_sort_kernel(mc, spec)]
    dots = [d for d in comp.instructions if d.opcode == "dot" and dot_ok(comp, d)]
    if root.opcode == "dot" and root in dots:
        return [emit_dot(mc, spec, root, outputs[0])]
    pre, extra = [], {}
    for d in dots:
        if _epilogue_in_place(comp, d, outputs):
            target = outputs[0]
        else:
            target = layout.grow_arena(d.shape.byte_size, d.name, d.shape)
        sub = KernelSpec(llvm_name(f"{inst.name}.{d.name}"), inst.name, comp, inputs, [target])
        pre.append(emit_dot(mc, sub, d, target))
        extra[d.name] = target
    parts = reduce_parts(spec)
    plan = row_plan(spec, parts) if parts else None
    if plan is not None:
        return pre + emit_row_reduce(mc, spec, parts, plan, layout, extra)
    plan = column_plan(spec, parts) if parts else None
    if plan is not None:
        return pre + emit_column_reduce(mc, spec, parts, plan, layout, extra)
    return pre + [emit_loop_kernel(mc, spec, extra)]


def check_supported(comp: Computation, hlo: HloModule) -> None:
    """Every instruction of the kernel (and of what it calls) has an elemental rule, or is
    a root with a kernel of its own (sort)."""
    for i in comp.instructions:
        own_kernel = i.opcode == "sort" and i.name == comp.root
        if i.opcode in NOT_ON_GPU or (i.opcode not in RULES and i.opcode != "parameter" and not own_kernel):
            raise NotSupportedError(f"not supported on gpu: {i.opcode} (instruction {i.name})")
        for callee in i.called_computations():
            check_supported(hlo.computation(callee), hlo)
