"""The one wording of "this target cannot lower that", for every emitter of every target.

    not supported on gpu: custom-call (instruction custom-call.5)
    not supported on cpu: fft (instruction fft.2)
    not supported on gpu: cosine on s32

The message names the target that was asked for (the emit context and the kernel choices
carry its name), what it lacks, and the instruction where the emitter knows it.
`hloscope.jit` catches these errors and runs the reference evaluator instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import ElidedValuesError, NotSupportedError
from ..ir.custom_calls import refusal
from ..ir.dtypes import is_native
from ..ir.shape import ArrayShape, TupleShape

if TYPE_CHECKING:  # only for the annotation: the IR does not need the backend loaded
    from ..ir.instruction import Instruction
    from ..ir.module import HloModule


def unsupported(target: str, what: str, instruction: str = "") -> NotSupportedError:
    """The error saying `target` cannot lower `what` (in `instruction`, when given)."""
    where = f" (instruction {instruction})" if instruction else ""
    return NotSupportedError(f"not supported on {target}: {what}{where}")


def unsupported_custom_call(target: str, inst: Instruction) -> NotSupportedError:
    """A custom-call of a target hloscope does not understand, named (ir/custom_calls.py)."""
    return NotSupportedError(refusal(inst, target))


def refuse_elided_constants(module: HloModule, target: str) -> None:
    """A constant printed as `{...}` (a dump that left its values out) has no values to
    compile: raise the error for the first one, which explains (the stage is shown skipped,
    not failed). Lowered anyway, its bytes would be numpy's bytes of None, a pointer, read as
    the data."""
    for comp in module.computations:
        for inst in comp.instructions:
            if inst.opcode == "constant" and inst.literal is not None and inst.literal.elided:
                raise ElidedValuesError(inst.name, str(inst.shape), f"Making {target} code")


def refuse_new_element_types(module: HloModule, target: str) -> None:
    """Complex, f8/f4 and sub-byte integer types are IR and evaluator only so far: name the
    first instruction whose result or operand has one (`not supported on cpu: c64 ...`)."""
    for comp in module.computations:
        for inst in comp.instructions:
            shape = inst.shape
            for leaf in shape.leaves() if isinstance(shape, TupleShape) else [shape]:
                if isinstance(leaf, ArrayShape) and not is_native(leaf.dtype):
                    raise unsupported(target, f"{leaf.dtype} element type in {inst.opcode}", inst.name)


def refuse_collectives(module: HloModule, target: str) -> None:
    """A collective (all-reduce, all-gather, ...) exchanges data between devices, and a
    backend here runs one device: name the first one and the devices the program is for."""
    from ..ir.opcodes import OPCODES

    devices = 1
    for key in ("num_partitions", "replica_count"):
        value = module.attrs.get(key)
        devices *= int(str(value)) if value is not None and str(value).isdigit() else 1
    for comp in module.computations:
        for inst in comp.instructions:
            row = OPCODES.get(inst.opcode)
            if row is not None and row.kind == "collective":
                why = (f"a collective of a program for {devices} devices, and {target} code runs on one; "
                       "hloscope.compile_sharded(module).run_sharded(shards) runs it as every device" if devices > 1
                       else f"a collective, and {target} code exchanges nothing between devices (hloscope.evaluate "
                            "gives it its one-device meaning)")
                raise unsupported(target, f"{inst.opcode}: {why}", inst.name)


MAX_ELEMENTS = 1 << 31  # one buffer past this many elements is refused before it is planned


def refuse_huge_shapes(module: HloModule, target: str) -> None:
    """A declared shape reads whatever its size; a buffer past the limit is refused here,
    before a plan or a run would try to allocate it."""
    for comp in module.computations:
        for inst in comp.instructions:
            shape = inst.shape
            for leaf in shape.leaves() if isinstance(shape, TupleShape) else [shape]:
                if isinstance(leaf, ArrayShape) and leaf.size > MAX_ELEMENTS:
                    raise unsupported(target, f"{leaf.short()} ({leaf.size} elements, over the limit of "
                                              f"{MAX_ELEMENTS})", inst.name)
