"""Which `input_output_alias` entries an executable can honour by writing an output straight
into its parameter's array (XLA's buffer donation), and whether a given array can take it.

An alias is honoured only where writing in place cannot change a result, checked on the
optimized, scheduled ENTRY (the order of its instructions is the order kernels run):
- the output is an array (not part of a parameter) made by one instruction of the
  parameter's shape and layout, not the parameter itself;
- that instruction reads the parameter elementwise, at the output's own position (an
  elementwise op, or a fusion whose parameter reaches its root only through elementwise
  ops: memory/values.reads_elementwise, the rule in-place kernels already follow);
- every other reader of the parameter runs before it, and none returns it as is.
Anything else keeps a fresh output buffer: may-alias allows either.

At a call, the array must also fit exactly: the result's dtype, dims and byte size, C order,
writeable, 16-byte aligned, and sharing no memory with any other argument, so native code
never sees a buffer of the wrong size or one another argument still reads.
"""

from __future__ import annotations

import numpy as np

from ..ir.aliasing import InputOutputAlias
from ..ir.module import HloModule
from ..ir.opcodes import is_elementwise
from ..ir.shape import ArrayShape, TupleShape
from ..memory.values import reads_elementwise
from .signature import ArraySpec

OUTPUT_ALIGN = 16


def donatable(module: HloModule) -> dict[int, int]:
    """{flat result index: parameter number} for the aliases that are safe in place."""
    config = module.attrs.get("input_output_alias")
    if not isinstance(config, InputOutputAlias) or not module.is_scheduled:
        return {}
    entry = module.entry_computation
    root = entry.root_instruction
    position = {inst.name: i for i, inst in enumerate(entry.instructions)}
    params = {p.parameter_number: p for p in entry.parameters}
    flat_root = isinstance(root.shape, TupleShape) and root.opcode == "tuple" and all(
        isinstance(e, ArrayShape) for e in root.shape.elements)
    safe: dict[int, int] = {}
    for alias in config.aliases:
        param = params.get(alias.parameter)
        if alias.parameter_index or param is None or alias.parameter in safe.values():
            continue
        if flat_root and len(alias.output_index) == 1 and alias.output_index[0] < len(root.operands):
            result, producer_name = alias.output_index[0], root.operands[alias.output_index[0]]
        elif not isinstance(root.shape, TupleShape) and alias.output_index == ():
            result, producer_name = 0, root.name
        else:
            continue
        producer = entry[producer_name]
        if producer.name == param.name or producer.shape != param.shape or result in safe:
            continue
        if _in_place_ok(module, entry, param.name, producer, position, root.name):
            safe[result] = alias.parameter
    return safe


def _in_place_ok(module, entry, param: str, producer, position: dict[str, int], root: str) -> bool:
    for user in entry.users(param):
        if user == producer.name:
            if not _reads_at_own_position(module, producer, param):
                return False
        elif user == root or position[user] > position[producer.name]:
            return False  # returned as is, or read after the output overwrote it
    return True


def _reads_at_own_position(module, producer, param: str) -> bool:
    if producer.opcode == "fusion":
        fused = module.computation(producer.called_computations()[0])
        return all(reads_elementwise(fused, i) for i, o in enumerate(producer.operands) if o == param)
    return is_elementwise(producer.opcode)  # HLO's elementwise ops take operands of their own shape


def fits(arrays: list[np.ndarray], number: int, spec: ArraySpec) -> bool:
    """Whether argument `number` can be the output buffer of `spec` (see the module docstring)."""
    array = arrays[number]
    return (array.dtype == spec.dtype and array.shape == spec.dims
            and array.nbytes == spec.nbytes and array.flags.c_contiguous and array.flags.writeable
            and array.ctypes.data % OUTPUT_ALIGN == 0
            and not any(np.may_share_memory(array, other) for i, other in enumerate(arrays) if i != number))
