"""When a kernel may write its result over memory it reads, for every target.

    safe_outputs       a result the memory plan put over one of its operands stays there only
                       if that operand is read elementwise, at the output's own position,
                       before the write (hloscope.memory's rule, the same as XLA's); otherwise
                       it moves to fresh arena space, and later readers follow it
    epilogue_in_place  a dot inside a fusion may be computed straight into the fusion's
                       output when only same-shaped elementwise ops, each used once, follow it

In-place writing is never trusted blindly: both are checked on the kernel's computation.
"""

from __future__ import annotations

from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.opcodes import OPCODES
from ..memory.values import reads_elementwise
from .buffers import ArrayStorage, BufferLayout


def safe_outputs(comp: Computation, inputs: list[ArrayStorage], outputs: list[ArrayStorage], layout: BufferLayout) -> list[ArrayStorage]:
    """The kernel's output buffers, each moved to fresh arena space if writing it in place
    over an input it shares memory with would be wrong (see the module docstring)."""
    safe = []
    for out in outputs:
        shared = [i for i, buf in enumerate(inputs) if buf.overlaps(out)]
        if shared and not all(_in_place_ok(comp, i, inputs[i], out, len(outputs)) for i in shared):
            moved = layout.grow_arena(out.size, out.value, out.shape)
            layout.values = {k: [moved if b == out else b for b in v] for k, v in layout.values.items()}
            out = moved
        safe.append(out)
    return safe


def _in_place_ok(comp: Computation, number: int, buf: ArrayStorage, out: ArrayStorage, n_outputs: int) -> bool:
    return (n_outputs == 1 and buf.slot == out.slot and buf.shape == out.shape
            and comp.root_instruction.opcode not in ("reduce", "dot") and reads_elementwise(comp, number))


def epilogue_in_place(comp: Computation, dot: Instruction, outputs: list[ArrayStorage]) -> bool:
    """Whether only same-shaped elementwise ops, each used once, lie between the dot and the
    (single) output: then the epilogue reads every dot element at its own position only."""
    if len(outputs) != 1 or outputs[0].shape != dot.shape or len(comp.users(dot.name)) != 1:
        return False
    node = comp.root_instruction
    while node.name != dot.name:
        row = OPCODES.get(node.opcode)
        if not (row and row.elementwise) or node.array_shape.dims != dot.array_shape.dims:
            return False
        if node.name != comp.root and len(comp.users(node.name)) != 1:
            return False  # read elsewhere too, possibly at other positions
        chain = [o for o in node.operands if _reaches(comp, o, dot.name)]
        if len(chain) != 1 or sum(1 for o in node.operands if o == chain[0]) != 1:
            return False
        node = comp[chain[0]]
    return True


def _reaches(comp: Computation, start: str, target: str) -> bool:
    """Whether `target` is `start` or one of its operands, transitively."""
    todo, seen = [start], set()
    while todo:
        n = todo.pop()
        if n == target:
            return True
        if n not in seen:
            seen.add(n)
            todo.extend(comp[n].operands)
    return False
