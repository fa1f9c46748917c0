"""Ops that only mark or order work: on one device, in program order, they carry values through.

after-all makes a token (a token carries no value: an empty tuple here); domain and
add-dependency give their first operand back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..ir.instruction import Instruction

if TYPE_CHECKING:  # annotations only: core imports the handler table, which imports this file
    from .core import Evaluator


def handle_after_all(ev: Evaluator, inst: Instruction, ops: list):
    return ()


def handle_pass_through(ev: Evaluator, inst: Instruction, ops: list):
    """domain and add-dependency: the first operand."""
    return ops[0]


HANDLERS = {"after-all": handle_after_all, "domain": handle_pass_through, "add-dependency": handle_pass_through}
