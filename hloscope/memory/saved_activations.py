"""Activations saved for the backward pass: values the forward pass makes and the backward
pass reads, so their buffers stay live across the boundary between the two.

    h = tanh(x @ w1 + b1)          forward: add_tanh_fusion makes h (2 KiB)
    ...                            the rest of the forward pass, the loss
    dh = g @ w2.T * (1 - h*h)      backward: multiply_reduce_fusion reads h

Here h is saved: its bytes are held from the forward instruction that made it to the last
backward instruction that reads it. What rematerialization trades is exactly this: recompute
h in the backward pass instead of keeping it.

Read from a memory plan of the (optimized) module: an operand is resolved to the buffer the
plan gives it, and to the value that buffer holds at that time (a buffer written in place
holds several values in turn). Parameters and constants are not activations: only values
made in the arena by a forward instruction count.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..ir.instruction import Instruction
from ..ir.module import HloModule
from .plan import Buffer, MemoryPlan
from .training_parts import classify


@dataclass(frozen=True)
class SavedActivation:
    """One forward value a backward instruction reads."""

    value: str  # the forward instruction that made it
    buffer: str  # the plan's buffer label holding it (`fusion{1}` for a tuple element)
    size: int  # bytes
    made_at: int  # schedule position of `value`
    last_read: int  # schedule position of the last backward reader
    readers: tuple[str, ...]  # backward instructions reading it, in schedule order


def _value_held(buffer: Buffer, position: int, positions: dict[str, int]) -> str:
    """The value an instruction at `position` reads from a buffer: the last one written before
    it (one written in place at `position` is the reader's own result, not what it reads)."""
    held = buffer.values[0] if buffer.values else buffer.name
    for v in buffer.values:
        if positions.get(v, 0) < position:
            held = v
    return held


def _buffers_read(inst: Instruction, plan: MemoryPlan) -> list[Buffer]:
    """The buffers an instruction reads: its operands' (a get-tuple-element reads only the
    element it points into, not its tuple operand's first element)."""
    names = [inst.name] if inst.opcode == "get-tuple-element" else list(dict.fromkeys(inst.operands))
    found = (plan.by_instruction(n) for n in names)
    return list({id(b): b for b in found if b is not None}.values())


def saved_activations(module: HloModule, plan: MemoryPlan) -> list[SavedActivation]:
    """Forward values that backward instructions read, in the order they are made."""
    parts = classify(module)
    comp = module.entry_computation
    positions = {name: i for i, name in enumerate(plan.schedule)}
    found: dict[tuple[str, str], list[str]] = {}
    buffers: dict[tuple[str, str], Buffer] = {}
    for pos, name in enumerate(plan.schedule):
        if parts[name].part != "backward":
            continue
        for buffer in _buffers_read(comp[name], plan):
            if not buffer.in_arena:
                continue
            value = _value_held(buffer, pos, positions)
            if parts[value].part != "forward":
                continue
            key = (buffer.label, value)
            buffers[key] = buffer
            found.setdefault(key, []).append(name)
    out = [SavedActivation(value, label, buffers[(label, value)].size, positions[value],
                           positions[readers[-1]], tuple(readers))
           for (label, value), readers in found.items()]
    return sorted(out, key=lambda s: (s.made_at, s.buffer))


def saved_bytes(activations: list[SavedActivation]) -> int:
    """Total bytes of the saved activations (each value once)."""
    return sum(a.size for a in activations)
