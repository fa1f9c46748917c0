"""Collectives and async pairs.

On several simulated devices (`hloscope.evaluate(module, shards)`, mesh.py) each collective
meets its group. Alone, the evaluator is device 0 of a one-device run: a group holds only
itself, so all-reduce reduces one value (the value), all-gather, reduce-scatter, all-to-all
and collective-broadcast give their operand back, and collective-permute delivers only a
{0,0} pair (without one, device 0 receives nothing: zeros, as XLA leaves it). A module
written for groups of more devices is refused by name, pointing at the shards form.
An async pair computes its synchronous op at the -start; the -done takes the result.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..errors import NotSupportedError
from ..ir.instruction import Instruction
from ..ir.replica_groups import ReplicaGroups, SourceTargetPairs
from ..ir.shape import ArrayShape, Shape, TupleShape
from .mesh import MESH_HANDLERS, collective_permute

if TYPE_CHECKING:  # annotations only: core imports the handler table, which imports this file
    from .core import Evaluator


def _one_device(inst: Instruction) -> None:
    groups = inst.attrs.get("replica_groups")
    size = groups.group_size() if isinstance(groups, ReplicaGroups) else None
    if size not in (None, 1):
        raise NotSupportedError(
            f"not supported: {inst.opcode} over groups of {size} devices (instruction {inst.name}) on one device; "
            f"run it as every device with hloscope.evaluate(module, shards), one argument tuple per device")


def _as_declared(inst: Instruction, value, declared: Shape):
    """The operand as the one-device result; a shape change means more devices were meant."""
    if isinstance(declared, ArrayShape) and tuple(np.shape(value)) != declared.dims:
        raise NotSupportedError(
            f"not supported: {inst.opcode} from {list(np.shape(value))} to {declared.short()} needs more than "
            f"one device (instruction {inst.name}); run it as every device with hloscope.evaluate(module, shards)")
    return value


def _zeros(shape: Shape):
    if isinstance(shape, TupleShape):
        return tuple(_zeros(e) for e in shape.elements)
    if isinstance(shape, ArrayShape):
        return np.zeros(shape.dims, shape.numpy_dtype)
    return ()  # a token carries no value


def _identity(ev: Evaluator, inst: Instruction, ops: list, declared: Shape | None = None):
    _one_device(inst)
    declared = inst.shape if declared is None else declared
    if len(ops) == 1:
        return _as_declared(inst, ops[0], declared)
    outs = declared.elements if isinstance(declared, TupleShape) else ()
    return tuple(_as_declared(inst, v, s) for v, s in zip(ops, outs))


def handle_collective(ev: Evaluator, inst: Instruction, ops: list):
    """all-reduce, all-gather, reduce-scatter, all-to-all, collective-broadcast: with the
    other devices, or alone the operand(s)."""
    if ev.device is not None:
        return MESH_HANDLERS[inst.opcode](ev, ev.device, inst, ops)
    return _identity(ev, inst, ops)


def _permuted(inst: Instruction, ops: list, result: Shape):
    pairs = inst.attrs.get("source_target_pairs")
    kept = isinstance(pairs, SourceTargetPairs) and (0, 0) in pairs.pairs
    if len(ops) != 1:
        raise NotSupportedError(f"not supported: the in-place form of {inst.opcode} (instruction {inst.name})")
    return ops[0] if kept else _zeros(result)


def handle_collective_permute(ev: Evaluator, inst: Instruction, ops: list):
    """What the pair sending to this device sent, else zeros (alone: device 0)."""
    if ev.device is not None:
        return collective_permute(ev, ev.device, inst, ops, _zeros(inst.shape))
    return _permuted(inst, ops, inst.shape)


def _context(inst: Instruction, operand, result):
    """A -start's value: (operand, result, zeros for the context) or just the result."""
    if not isinstance(inst.shape, TupleShape):
        return result
    rest = tuple(_zeros(s) for s in inst.shape.elements[2:])
    return (operand, result, *rest)


def _result_part(inst: Instruction) -> Shape:
    shape = inst.shape
    return shape.elements[1] if isinstance(shape, TupleShape) and len(shape.elements) >= 2 else shape


def handle_collective_start(ev: Evaluator, inst: Instruction, ops: list):
    """all-reduce-start / all-gather-start: the synchronous op's result, in its context."""
    operand = ops[0] if len(ops) == 1 else tuple(ops)
    if ev.device is not None:
        return _context(inst, operand, MESH_HANDLERS[inst.opcode](ev, ev.device, inst, ops))
    return _context(inst, operand, _identity(ev, inst, ops, _result_part(inst)))


def handle_collective_permute_start(ev: Evaluator, inst: Instruction, ops: list):
    if ev.device is not None:
        return _context(inst, ops[0], collective_permute(ev, ev.device, inst, ops, _zeros(_result_part(inst))))
    return _context(inst, ops[0], _permuted(inst, ops, _result_part(inst)))


def handle_done(ev: Evaluator, inst: Instruction, ops: list):
    """-done: element 1 of the context (the result), or the value when it is not a tuple."""
    return ops[0][1] if isinstance(ops[0], tuple) else ops[0]


def handle_copy_start(ev: Evaluator, inst: Instruction, ops: list):
    """(destination, source, u32[] context): the copy is made at once."""
    return (np.array(ops[0], copy=True), ops[0], np.zeros((), np.uint32))


def handle_copy_done(ev: Evaluator, inst: Instruction, ops: list):
    return ops[0][0]


def handle_async_start(ev: Evaluator, inst: Instruction, ops: list):
    """((operands), the called computation's result, context): computed at the start."""
    shape = inst.shape
    rest = tuple(_zeros(s) for s in shape.elements[2:]) if isinstance(shape, TupleShape) else ()
    return (tuple(ops), ev.call(inst.attr("calls"), ops), *rest)


def handle_async_update(ev: Evaluator, inst: Instruction, ops: list):
    return ops[0]


HANDLERS = {
    **{op: handle_collective for op in "all-reduce all-gather reduce-scatter all-to-all collective-broadcast".split()},
    "collective-permute": handle_collective_permute,
    "all-reduce-start": handle_collective_start,
    "all-gather-start": handle_collective_start,
    "collective-permute-start": handle_collective_permute_start,
    "all-reduce-done": handle_done,
    "all-gather-done": handle_done,
    "collective-permute-done": handle_done,
    "copy-start": handle_copy_start,
    "copy-done": handle_copy_done,
    "async-start": handle_async_start,
    "async-update": handle_async_update,
    "async-done": handle_done,
}
