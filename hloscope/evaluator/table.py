"""The evaluator's opcode table: opcode -> handler(ev, inst, operand_values) -> value.

Assembled explicitly from each handler file's own table (no registration by import side
effects). An opcode missing here (rng-bit-generator, send, recv, ...) makes the evaluator
raise NotSupportedError("not supported: <opcode>"); a custom-call of a target other than
TopK is refused naming its target (ir/custom_calls.py).
"""

from __future__ import annotations

from . import (
    collectives,
    compare,
    control_flow,
    convert,
    convolution,
    data_movement,
    dot,
    elementwise,
    fft,
    gather_scatter,
    linalg,
    ordering,
    reductions,
    scan,
    sorting,
    topk,
    windows,
)

HANDLERS = {
    **elementwise.HANDLERS,
    **compare.HANDLERS,
    **convert.HANDLERS,
    **data_movement.HANDLERS,
    **dot.HANDLERS,
    **fft.HANDLERS,
    **convolution.HANDLERS,
    **reductions.HANDLERS,
    **windows.HANDLERS,
    **gather_scatter.HANDLERS,
    **sorting.HANDLERS,
    **topk.HANDLERS,
    **control_flow.HANDLERS,
    **scan.HANDLERS,
    **collectives.HANDLERS,
    **linalg.HANDLERS,
    **ordering.HANDLERS,
}
