"""Do `input_output_alias` and `buffer_donor` fit the ENTRY? (XLA's
HloInputOutputAliasConfig::Verify and HloBufferDonorConfig::Verify.)

Each alias names an output index that exists in the ENTRY's result, a parameter that exists
and an index inside it, and the two buffers have the same size; no parameter buffer serves two
outputs. A donor names an existing parameter buffer that
no alias already uses.
"""

from __future__ import annotations

from typing import Iterator

from .aliasing import BufferDonor, InputOutputAlias
from .computation import Computation
from .shape import Shape, TupleShape


def subshape(shape: Shape, index: tuple[int, ...]) -> Shape | None:
    """The shape at `index` inside `shape`, or None when the index does not exist."""
    for i in index:
        if not isinstance(shape, TupleShape) or not 0 <= i < len(shape.elements):
            return None
        shape = shape.elements[i]
    return shape


def _index(index: tuple[int, ...]) -> str:
    return "{" + ",".join(map(str, index)) + "}"


def alias_problems(entry: Computation, alias: InputOutputAlias | None, donor: BufferDonor | None) -> Iterator[str]:
    """Every way the header's aliasing does not fit `entry`."""
    params = {p.parameter_number: p.shape for p in entry.instructions if p.opcode == "parameter"}
    result = entry[entry.root].shape
    used: set[tuple[int, tuple[int, ...]]] = set()
    for a in alias.aliases if alias else ():
        out = subshape(result, a.output_index)
        if out is None:
            yield f"input_output_alias: output index {_index(a.output_index)} is not in the result {result}"
            continue
        param = params.get(a.parameter)
        where = f"parameter {a.parameter} at {_index(a.parameter_index)}"
        if param is None:
            yield f"input_output_alias: output {_index(a.output_index)} aliases parameter {a.parameter}, " \
                  f"but the ENTRY has {len(params)} parameters"
            continue
        inner = subshape(param, a.parameter_index)
        if inner is None:
            yield f"input_output_alias: index {_index(a.parameter_index)} is not in parameter {a.parameter} ({param})"
            continue
        if inner.byte_size != out.byte_size:
            yield f"input_output_alias: output {_index(a.output_index)} ({out}) and {where} ({inner}) differ in size"
        if (a.parameter, a.parameter_index) in used:
            yield f"input_output_alias: {where} is aliased by two outputs"
        used.add((a.parameter, a.parameter_index))
    for number, index in donor.donors if donor else ():
        param = params.get(number)
        if param is None or subshape(param, index) is None:
            yield f"buffer_donor: parameter {number} at {_index(index)} does not exist in the ENTRY"
        elif (number, index) in used:
            yield f"buffer_donor: parameter {number} at {_index(index)} is already aliased to an output"
