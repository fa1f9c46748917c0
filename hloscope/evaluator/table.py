"""The evaluator's opcode table: opcode -> handler(ev, inst, operand_values) -> value.

Assembled explicitly from each handler file's own table (no registration by import side
effects). An opcode missing here (custom-call, rng-bit-generator, collectives,
...) makes the evaluator raise NotSupportedError("not supported: <opcode>").
"""

from __future__ import annotations

from . import (
    compare,
    control_flow,
    convert,
    convolution,
    data_movement,
    dot,
    elementwise,
    gather_scatter,
    reductions,
    sorting,
    windows,
)

HANDLERS = {
    **elementwise.HANDLERS,
    **compare.HANDLERS,
    **convert.HANDLERS,
    **data_movement.HANDLERS,
    **dot.HANDLERS,
    **convolution.HANDLERS,
    **reductions.HANDLERS,
    **windows.HANDLERS,
    **gather_scatter.HANDLERS,
    **sorting.HANDLERS,
    **control_flow.HANDLERS,
}
