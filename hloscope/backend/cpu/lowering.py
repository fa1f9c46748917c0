"""Lowering: an optimized HLO module to one LLVM module (kernels + entry function).

For each instruction of the ENTRY, in schedule order:

    parameter, constant, tuple, get-tuple-element, bitcast   no code (buffers alias)
    while, conditional                                       called programs (control_flow.py)
    fusion / call                                            kernels for the called computation
    any other op                                             kernels for a one-instruction computation

and the kernel kind follows the root: a dot (BLAS or loops), a reduce (reduction kernel), a
scatter or a sort (kernels of their own), anything else (loop kernel). A dot inside a fusion is computed
first by a dot kernel, into the fusion's output when only elementwise ops follow it (the
epilogue then runs in place), else into scratch space; the rest of the fusion reads it like
a parameter.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from llvmlite import ir

from ...errors import NotSupportedError
from ...ir.computation import Computation
from ...ir.instruction import Instruction
from ...ir.module import HloModule
from ...ir.opcodes import OPCODES
from ...ir.shape import ArrayShape
from ..elemental import RULES
from ..emit_context import ConstantPool, EmitOptions
from . import dot_kernel
from ..buffers import Buffer, BufferLayout, assign_buffers, is_alias, operand_buffers
from ..gemm import gemm_form
from ..kernel_spec import KernelSpec, ModuleContext
from ..loop_function import LoopFunction, LoopKernel
from ..loop_kernel import emit_loop_kernel
from ..reduction import loop_plan, reduce_parts
from .entry import EntryEmitter
from .parallel import decide_partitions, host_threads
from .reduce_kernel import emit_reduce_kernel
from .scatter_kernel import emit_scatter_kernel
from .sort_kernel import emit_sort_kernel
from .split_reduce import chunk_count, emit_split_reduce
from .control_flow import CONTROL_FLOW

NO_CODE = {"parameter", "constant", "tuple", "get-tuple-element", "bitcast", "after-all"}
NOT_ON_CPU = {"custom-call", "select-and-scatter", "convolution",
              "rng", "rng-bit-generator", "fft", "infeed", "outfeed", "send", "recv", "all-reduce",
              "all-gather", "all-to-all", "collective-permute", "reduce-scatter", "partition-id", "replica-id",
              "triangular-solve", "cholesky", "real", "imag", "complex"}


@dataclass
class LoweringOptions:
    emit: EmitOptions = field(default_factory=EmitOptions)
    threads: int = 0  # 0: every CPU this process may run on
    parallel_min_elements: int = 256 * 1024
    entry_name: str = ""
    thread_pool: bool = True  # partitions go to the process's pool (False: pthreads per call, for AOT)


@dataclass
class Lowered:
    """The LLVM module and what the runtime and the report need to know about it."""

    llmod: ir.Module
    entry_name: str
    layout: BufferLayout
    kernels: list[LoopKernel]


def lower(module: HloModule, options: LoweringOptions, plan=None) -> Lowered:
    """The entry computation as the external function `options.entry_name`."""
    entry = module.entry_computation
    if any(not isinstance(p.shape, ArrayShape) for p in entry.parameters):
        raise NotSupportedError("not supported on cpu: tuple-shaped entry parameters")
    llmod = ir.Module(name=module.name)
    mc = ModuleContext(llmod, module, options.emit, ConstantPool(llmod))
    mc.parallel_min_elements = options.parallel_min_elements
    layout = assign_buffers(entry, plan)
    name = options.entry_name or c_identifier(module.name)
    mc.names.add(name)  # the runtime looks the entry up by this name: no kernel may take it
    programs = ProgramLowering(mc, options)
    programs.lower(entry, layout, name, external=True)
    return Lowered(llmod, name, layout, programs.kernels)


class ProgramLowering:
    """Lowers a computation to a program function `void f(ptr buffers, ptr arena)`: its
    kernels in schedule order. The entry is one; while bodies and conditions and the
    branches of a conditional are others, called from their caller's program."""

    def __init__(self, mc: ModuleContext, options: LoweringOptions):
        self.mc = mc
        self.options = options
        self.threads = options.threads or host_threads()
        self.kernels: list[LoopKernel] = []

    def lower(self, comp: Computation, layout: BufferLayout, name: str, external: bool = False) -> ir.Function:
        steps = []
        for inst in comp.instructions:
            if inst.opcode in NO_CODE or is_alias(inst, comp):
                continue
            if inst.opcode in CONTROL_FLOW:
                steps.append(CONTROL_FLOW[inst.opcode](self, inst, comp, layout))
                continue
            if inst.opcode in NOT_ON_CPU:
                raise NotSupportedError(f"not supported on cpu: {inst.opcode} (instruction {inst.name})")
            for kernel in lower_instruction(self.mc, inst, comp, layout):
                decide_partitions(kernel, self.threads, self.options.parallel_min_elements)
                self.kernels.append(kernel)
                steps.append(kernel)
        emitter = EntryEmitter(self.mc.llmod, name, comp, layout, self.mc.constants, self.options.thread_pool)
        for step in steps:
            if isinstance(step, LoopKernel):
                emitter.call(step, step.function)
            else:
                step.emit(emitter)
        fn = emitter.finish()
        if not external:
            fn.linkage = "internal"
        return fn


def c_identifier(text: str) -> str:
    name = "".join(c if c.isalnum() or c == "_" else "_" for c in text) or "module"
    return name if not name[0].isdigit() else "m_" + name


def computation_of(inst: Instruction, entry: Computation, module: HloModule) -> Computation:
    """The computation a kernel evaluates: the fused/called one, or the instruction alone."""
    if inst.opcode == "fusion":
        return module.computation(inst.attr("calls"))
    if inst.opcode == "call":
        return module.computation(inst.attr("to_apply"))
    params = [
        Instruction(f"{inst.name}.operand{i}", "parameter", entry[op].shape, parameter_number=i)
        for i, op in enumerate(inst.operands)
    ]
    body = inst.replace(operands=tuple(p.name for p in params))
    return Computation(f"{inst.name}.wrapped", (*params, body), body.name)


def lower_instruction(mc: ModuleContext, inst, entry, layout: BufferLayout) -> list:
    comp = computation_of(inst, entry, mc.hlo)
    inputs = operand_buffers(inst, layout, "cpu")
    _check_supported(comp, mc.hlo)
    outputs = _safe_outputs(comp, inputs, layout.of(inst.name), layout)
    spec = KernelSpec(mc.unique_name(inst.name), inst.name, comp, inputs, outputs)
    root = comp.root_instruction
    if root.opcode == "scatter":
        return [emit_scatter_kernel(mc, spec)]
    if root.opcode == "sort":
        return [emit_sort_kernel(mc, spec, layout)]
    dots = [d for d in comp.instructions if d.opcode == "dot" and _gemm(mc, comp, d)]
    if root.opcode == "dot" and root in dots:
        return [emit_dot(mc, spec, root, outputs[0])]
    pre, extra = [], {}
    for d in dots:
        target = outputs[0] if _epilogue_in_place(comp, d, outputs) else layout.grow_arena(d.shape.byte_size, d.name, d.shape)
        sub = KernelSpec(mc.unique_name(f"{inst.name}.{d.name}"), inst.name, comp, inputs, [target])
        pre.append(emit_dot(mc, sub, d, target))
        extra[d.name] = target
    parts = reduce_parts(spec)
    if parts and _sixteen_bit_column(spec, parts):
        parts = None  # accumulate in f32 registers per output element (the elemental reduce)
    chunks = chunk_count(mc, spec, parts, mc.parallel_min_elements) if parts and not extra else 0
    if chunks > 1:
        return pre + emit_split_reduce(mc, spec, parts, chunks, layout)
    if parts is not None:
        main = emit_reduce_kernel(mc, spec, parts, extra)
    else:
        main = emit_loop_kernel(mc, spec, extra)
    return pre + [main]


def _check_supported(comp: Computation, hlo: HloModule) -> None:
    for i in comp.instructions:
        own_kernel = i.opcode in ("scatter", "sort") and i.name == comp.root  # scatter_kernel.py, sort_kernel.py
        if i.opcode not in RULES and i.opcode != "parameter" and not own_kernel:
            raise NotSupportedError(f"not supported on cpu: {i.opcode} (instruction {i.name})")
        for callee in i.called_computations():
            _check_supported(hlo.computation(callee), hlo)


def _safe_outputs(comp, inputs: list[Buffer], outputs: list[Buffer], layout: BufferLayout) -> list[Buffer]:
    """Outputs that share memory with an input (the memory plan's in-place reuse) are kept
    only if that input is read elementwise, at the output's own position, before the write
    (hloscope.memory's rule, the same as XLA's); otherwise the result moves to fresh arena
    space and later readers follow it. In-place writing is never trusted blindly."""
    safe = []
    for out in outputs:
        shared = [i for i, buf in enumerate(inputs) if buf.overlaps(out)]
        if shared and not all(_in_place_ok(comp, i, inputs[i], out, len(outputs)) for i in shared):
            moved = layout.grow_arena(out.size, out.value, out.shape)
            layout.values = {k: [moved if b == out else b for b in v] for k, v in layout.values.items()}
            out = moved
        safe.append(out)
    return safe


def _in_place_ok(comp: Computation, number: int, buf: Buffer, out: Buffer, n_outputs: int) -> bool:
    from ...memory.values import reads_elementwise

    return (n_outputs == 1 and buf.slot == out.slot and buf.shape == out.shape
            and comp.root_instruction.opcode not in ("reduce", "dot") and reads_elementwise(comp, number))


def _sixteen_bit_column(spec: KernelSpec, parts) -> bool:
    """A column reduction (accumulating in memory) with an f16/bf16 result would round at
    every step; those use the elemental reduce, which carries the sum in f32."""
    hero = parts[0][0][0]
    in_shape = spec.comp[hero.operands[0]].shape
    half = any(o.shape.dtype in ("f16", "bf16") for _, outs in parts[0] for o in outs)
    return half and bool(loop_plan(in_shape, set(hero.attr("dimensions")))["inner"])


def _gemm(mc: ModuleContext, comp: Computation, dot: Instruction) -> bool:
    """A dot of two parameters in matrix form: it gets a dot kernel of its own. (16-bit
    float dots stay elemental: they accumulate in f32 registers and round once.)"""
    ops = [comp[o] for o in dot.operands]
    if any(o.opcode != "parameter" for o in ops) or dot.shape.dtype in ("f16", "bf16"):
        return False
    return gemm_form(dot, ops[0].shape, ops[1].shape) is not None


def _epilogue_in_place(comp: Computation, dot: Instruction, outputs: list[Buffer]) -> bool:
    """Whether only same-shaped elementwise ops, each used once, lie between the dot and the
    (single) output: then the epilogue reads every dot element at its own position only."""
    if len(outputs) != 1 or outputs[0].shape != dot.shape or len(comp.users(dot.name)) != 1:
        return False
    node = comp.root_instruction
    while node.name != dot.name:
        row = OPCODES.get(node.opcode)
        if not (row and row.elementwise) or node.shape.dims != dot.shape.dims:
            return False
        if node.name != comp.root and len(comp.users(node.name)) != 1:
            return False  # read elsewhere too, possibly at other positions
        chain = [o for o in node.operands if _reaches(comp, o, dot.name)]
        if len(chain) != 1 or sum(1 for o in node.operands if o == chain[0]) != 1:
            return False
        node = comp[chain[0]]
    return True


def _reaches(comp: Computation, start: str, target: str) -> bool:
    todo, seen = [start], set()
    while todo:
        n = todo.pop()
        if n == target:
            return True
        if n not in seen:
            seen.add(n)
            todo.extend(comp[n].operands)
    return False


def emit_dot(mc: ModuleContext, spec: KernelSpec, dot: Instruction, out: Buffer) -> LoopKernel:
    comp = spec.comp
    lhs_p, rhs_p = (comp[o] for o in dot.operands)
    lhs, rhs = spec.inputs[lhs_p.parameter_number], spec.inputs[rhs_p.parameter_number]
    form = gemm_form(dot, lhs_p.shape, rhs_p.shape)
    use_blas = mc.options.dot == "blas" and dot_kernel.blas_ok(dot, lhs_p.shape, rhs_p.shape)
    kf = LoopFunction(mc.llmod, spec.name, [lhs, rhs, out], {out})
    ctx = mc.emit_context(kf.builder)
    p = kf.pointer
    kind = "dot-blas" if use_blas else "dot-loops"
    kernel = LoopKernel(spec.name, spec.instruction, kind, kf.buffers, work=form.m * form.n * form.k * form.batch)
    if use_blas:
        dot_kernel.emit_blas(ctx, form, dot.shape.dtype, p(out), p(lhs), p(rhs), kf.begin, kf.end)
        kernel.extent, kernel.granule = form.m, 16
        kernel.notes.append(f"gemm {form.batch}x[{form.m}x{form.k}]@[{form.k}x{form.n}] via {dot.shape.dtype} BLAS, "
                            "rows split across hloscope's threads")
    else:
        dot_kernel.emit_loops(ctx, form, dot, (lhs_p.shape, rhs_p.shape), p(out), p(lhs), p(rhs), kf.begin, kf.end)
        kernel.extent = form.m
        kernel.notes.append(f"tiled loops {form.batch}x[{form.m}x{form.k}]@[{form.k}x{form.n}]")
    kf.finish()
    kernel.function = kf.fn
    return kernel
