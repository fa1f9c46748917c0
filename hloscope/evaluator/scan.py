"""`scan`: the body runs once per slice along the scan dimension (last slice first when
`is_reverse=true`), threading the carries; each step's outputs go into their slice."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..ir.instruction import Instruction
from ..ir.shape import TupleShape

if TYPE_CHECKING:  # annotations only: core imports the handler table, which imports this file
    from .core import Evaluator


def handle_scan(ev: Evaluator, inst: Instruction, ops: list):
    k = inst.attr("num_carries")
    d = tuple(inst.attr("dimensions"))[0]
    inputs, carries = ops[: len(ops) - k], list(ops[len(ops) - k:])
    shapes = inst.shape.elements if isinstance(inst.shape, TupleShape) else (inst.shape,)
    out_shapes = shapes[: len(shapes) - k]
    outputs = [np.empty(s.as_array(inst.name).dims, s.as_array(inst.name).numpy_dtype) for s in out_shapes]
    length = outputs[0].shape[d] if outputs else (inputs[0].shape[d] if inputs else 0)
    steps = range(length - 1, -1, -1) if inst.attr("is_reverse", False) else range(length)
    for i in steps:
        args = [np.take(x, i, axis=d) for x in inputs] + carries
        result = ev.call(inst.attr("to_apply"), args)
        values = list(result) if isinstance(result, tuple) else [result]
        for out, y in zip(outputs, values):
            index = (slice(None),) * d + (i,)
            out[index] = y
        carries = values[len(outputs):]
    if not isinstance(inst.shape, TupleShape):
        return (outputs or carries)[0]
    return (*outputs, *carries)


HANDLERS = {"scan": handle_scan}
