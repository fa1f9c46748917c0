"""The per-instruction dispatch, written once for every target.

For each instruction of a computation, in schedule order (`program_steps`):

    parameter, constant, tuple, get-tuple-element, bitcast   no code (buffers alias)
    while, conditional                                       the target's control flow
    fusion / call                                            kernels for the called computation
    any other op                                             kernels for a one-instruction computation

and the kernels of one instruction follow its computation's root (`lower_instruction`), as
the target chooses (its KernelChoices):

    a root with a kernel of its own (sort, convolution, topk; scatter on the CPU)   own_kernel
    a dot the target has a dot kernel for                        dot_kernels
    a reduce-rooted computation it has a reduction kernel for    reduction_kernels
    anything else                                                loop_kernel

A dot inside a fusion is computed first by a dot kernel, into the fusion's output when only
elementwise ops follow it (the epilogue then runs in place: in_place.py), else into arena
scratch; the rest of the fusion reads it like a parameter. An instruction nothing can lower
is refused before any code is emitted, in a message naming the target, the op and the
instruction.
"""

from __future__ import annotations

from typing import Collection, Protocol, Sequence, TypeVar, cast

from ..ir.computation import Computation
from ..ir.custom_calls import is_understood
from ..ir.instruction import Instruction
from ..ir.module import HloModule
from ..ir.topk import is_topk
from .buffers import ArrayStorage, BufferLayout, is_alias, operand_buffers
from .elemental import RULES
from .in_place import epilogue_in_place, safe_outputs
from .kernel_spec import KernelSpec
from .reduction import ReduceParts, reduce_parts
from .unsupported import unsupported, unsupported_custom_call

NO_CODE = frozenset({"parameter", "constant", "tuple", "get-tuple-element", "bitcast", "after-all"})
CONTROL_FLOW = frozenset({"while", "conditional"})
NOT_LOWERED = frozenset({
    "custom-call", "rng", "rng-bit-generator", "fft", "infeed",
    "outfeed", "send", "recv", "all-reduce", "all-gather", "all-to-all", "collective-permute",
    "reduce-scatter", "partition-id", "replica-id", "triangular-solve", "cholesky", "real", "imag",
    "complex",
})

Kernel_co = TypeVar("Kernel_co", covariant=True)
Step_co = TypeVar("Step_co", covariant=True)
Kernel = TypeVar("Kernel")
Step = TypeVar("Step")


class KernelChoices(Protocol[Kernel_co]):
    """Which kernel a target emits for which root: what the shared dispatch asks a target."""

    @property
    def target(self) -> str:
        """The target's name, as error messages say it ("cpu", "gpu")."""
        ...

    @property
    def hlo(self) -> HloModule: ...

    @property
    def own_kernel_roots(self) -> Collection[str]:
        """Opcodes that, as a root, get a kernel of their own rather than an elemental rule."""
        ...

    def kernel_name(self, text: str) -> str: ...

    def own_kernel(self, spec: KernelSpec, layout: BufferLayout) -> Kernel_co | Sequence[Kernel_co]:
        """The root's kernel, or its kernels in launch order (the GPU's scatter: a copy, then
        the updates)."""
        ...

    def has_dot_kernel(self, comp: Computation, dot: Instruction) -> bool: ...

    def dot_kernels(self, spec: KernelSpec, dot: Instruction, out: ArrayStorage, layout: BufferLayout) -> Sequence[Kernel_co]:
        """The kernels computing `dot` into `out`, in order (layout: for scratch they need)."""
        ...

    def reduction_kernels(self, spec: KernelSpec, parts: ReduceParts, extra: dict[str, ArrayStorage],
                          layout: BufferLayout) -> Sequence[Kernel_co] | None:
        """The kernels of a reduce-rooted computation, or None for the loop kernel's
        elemental reduce."""
        ...

    def loop_kernel(self, spec: KernelSpec, extra: dict[str, ArrayStorage]) -> Kernel_co: ...


class ProgramChoices(Protocol[Step_co]):
    """What a target makes of a computation's instructions: its steps (the CPU: kernel
    calls and called programs; the GPU: launches and host loops and branches)."""

    @property
    def target(self) -> str: ...

    def control_flow(self, inst: Instruction, comp: Computation, layout: BufferLayout) -> Sequence[Step_co]: ...

    def instruction_steps(self, inst: Instruction, comp: Computation, layout: BufferLayout) -> Sequence[Step_co]:
        """The steps running the kernels lower_instruction gives for `inst`."""
        ...


def program_steps(program: ProgramChoices[Step], comp: Computation, layout: BufferLayout) -> list[Step]:
    """comp's steps in schedule order, in the terms of `layout` (see the module docstring)."""
    steps: list[Step] = []
    for inst in comp.instructions:
        if inst.opcode in NO_CODE or is_alias(inst, comp):
            continue
        if inst.opcode in CONTROL_FLOW:
            steps += program.control_flow(inst, comp, layout)
        else:
            steps += program.instruction_steps(inst, comp, layout)
    return steps


def lower_instruction(choices: KernelChoices[Kernel], inst: Instruction, comp: Computation,
                      layout: BufferLayout) -> list[Kernel]:
    """The kernels computing `inst` (an instruction of `comp`, whose buffers `layout` has)."""
    kernel_comp = computation_of(inst, comp, choices.hlo)
    check_supported(kernel_comp, choices)
    inputs = operand_buffers(inst, layout, choices.target)
    outputs = safe_outputs(kernel_comp, inputs, layout.of(inst.name), layout)
    spec = KernelSpec(choices.kernel_name(inst.name), inst.name, kernel_comp, inputs, outputs)
    root = kernel_comp.root_instruction
    if root.opcode in choices.own_kernel_roots:
        own = choices.own_kernel(spec, layout)
        # a kernel type is never a list itself, so a list is the several-kernels form
        return cast("list[Kernel]", list(own)) if isinstance(own, (list, tuple)) else [cast(Kernel, own)]
    dots = [d for d in kernel_comp.instructions if d.opcode == "dot" and choices.has_dot_kernel(kernel_comp, d)]
    if root.opcode == "dot" and root in dots:
        return list(choices.dot_kernels(spec, root, outputs[0], layout))
    first, extra = _dots_first(choices, spec, dots, layout)
    parts = reduce_parts(spec)
    kernels = choices.reduction_kernels(spec, parts, extra, layout) if parts is not None else None
    return first + (list(kernels) if kernels is not None else [choices.loop_kernel(spec, extra)])


def _dots_first(choices: KernelChoices[Kernel], spec: KernelSpec, dots: list[Instruction],
                layout: BufferLayout) -> tuple[list[Kernel], dict[str, ArrayStorage]]:
    """A dot kernel per dot of the fusion, and where each leaves its result for the rest:
    the fusion's output when the epilogue can run there in place, else arena scratch."""
    kernels, extra = [], {}
    for d in dots:
        if epilogue_in_place(spec.comp, d, spec.outputs):
            target = spec.outputs[0]
        else:
            target = layout.grow_arena(d.array_shape.byte_size, d.name, d.array_shape)
        sub = KernelSpec(choices.kernel_name(f"{spec.instruction}.{d.name}"), spec.instruction, spec.comp,
                         spec.inputs, [target])
        kernels += choices.dot_kernels(sub, d, target, layout)
        extra[d.name] = target
    return kernels, extra


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


def check_supported(comp: Computation, choices: KernelChoices[object]) -> None:
    """Every instruction of the kernel (and of what it calls) has an elemental rule, or is
    a root with a kernel of its own on this target."""
    for i in comp.instructions:
        if i.opcode == "custom-call" and not is_understood(i):
            raise unsupported_custom_call(choices.target, i)
        own_kernel = i.opcode in choices.own_kernel_roots and i.name == comp.root
        if (i.opcode in NOT_LOWERED and not own_kernel) or (i.opcode not in RULES and i.opcode != "parameter"
                                                             and not own_kernel):
            raise unsupported(choices.target, i.opcode, i.name)
        if is_topk(i):
            continue  # a TopK custom-call's comparator only tells the order: it is not lowered
        for callee in i.called_computations():
            check_supported(choices.hlo.computation(callee), choices)

