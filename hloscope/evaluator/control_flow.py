"""Tuples, calls and control flow: tuple, get-tuple-element, call, fusion, while,
conditional, opt-barrier, and the single-device ids (partition-id, replica-id)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..ir.instruction import Instruction

if TYPE_CHECKING:  # annotations only: core imports the handler table, which imports this file
    from .core import Evaluator


def handle_tuple(ev: Evaluator, inst: Instruction, ops: list):
    return tuple(ops)


def handle_get_tuple_element(ev: Evaluator, inst: Instruction, ops: list):
    return ops[0][inst.attr("index")]


def handle_call(ev: Evaluator, inst: Instruction, ops: list):
    """call(args...), to_apply=comp: the computation's result."""
    return ev.call(inst.attr("to_apply"), ops)


def handle_fusion(ev: Evaluator, inst: Instruction, ops: list):
    """fusion(args...), calls=comp: a fusion computes exactly its fused computation."""
    return ev.call(inst.attr("calls"), ops)


def handle_while(ev: Evaluator, inst: Instruction, ops: list):
    """while(init), condition=c, body=b: state = b(state) while c(state)."""
    state = ops[0]
    condition, body = inst.attr("condition"), inst.attr("body")
    while bool(ev.call(condition, [state])):
        state = ev.call(body, [state])
    return state


def handle_conditional(ev: Evaluator, inst: Instruction, ops: list):
    """conditional(selector, operands...): run one branch on its own operand.

    A pred selector picks true_computation (operand 1) or false_computation (operand 2).
    An s32 selector indexes branch_computations; out of range means the last branch.
    """
    selector = ops[0]
    if selector.dtype == np.bool_:
        branches = inst.attr("branch_computations") or (
            inst.attr("true_computation"),
            inst.attr("false_computation"),
        )
        index = 0 if bool(selector) else 1
    else:
        branches = inst.attr("branch_computations")
        index = int(selector)
        if not 0 <= index < len(branches):
            index = len(branches) - 1
    return ev.call(branches[index], [ops[1 + index]])


def handle_opt_barrier(ev: Evaluator, inst: Instruction, ops: list):
    """opt-barrier(x) is x; it only stops optimizations from moving work across it."""
    return ops[0]


def handle_device_id(ev: Evaluator, inst: Instruction, ops: list):
    """partition-id / replica-id: this device's (0 when the evaluator is the only device)."""
    device = ev.device
    number = 0 if device is None else device.partition if inst.opcode == "partition-id" else device.replica
    return np.asarray(number, inst.array_shape.numpy_dtype)


HANDLERS = {
    "tuple": handle_tuple,
    "get-tuple-element": handle_get_tuple_element,
    "call": handle_call,
    "fusion": handle_fusion,
    "while": handle_while,
    "conditional": handle_conditional,
    "opt-barrier": handle_opt_barrier,
    "partition-id": handle_device_id,
    "replica-id": handle_device_id,
}
