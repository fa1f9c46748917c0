"""The evaluator's public entry points: a whole module, one computation, one instruction."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.module import HloModule
from .arguments import check_arguments
from .core import Evaluator


def evaluate(module: HloModule, *args):
    """Run the ENTRY computation on numpy arguments.

    Returns a numpy array, or a tuple of results (nested as the ROOT's tuple shape is) when
    the ROOT is a tuple. Raises EvaluationError for arguments that do not match the ENTRY's
    parameters and NotSupportedError (`not supported: <opcode>`) for operations the
    evaluator cannot run. The caller's arrays are never modified or returned.
    """
    return evaluate_computation(module, module.entry_computation, args)


def evaluate_computation(module: HloModule | None, comp: Computation | str, args: Sequence):
    """Run one computation of `module` (by object or name) with parameter i bound to args[i].

    `module` is needed only to look up the computations that `comp` calls; None is fine for
    a computation that calls none (what constant folding builds).
    """
    evaluator = Evaluator(module)
    if isinstance(comp, str):
        comp = evaluator.computation(comp)  # EvaluationError when there is no module
    values = check_arguments(comp, args)
    with np.errstate(all="ignore"):
        result = evaluator.run(comp, values)
    return _fresh(result)


def evaluate_instruction(module: HloModule | None, inst: Instruction, operands: Sequence):
    """The value of one instruction given its operands' values (for constant folding)."""
    values = [v if isinstance(v, tuple) else np.asarray(v) for v in operands]
    with np.errstate(all="ignore"):
        result = Evaluator(module).instruction(inst, values)
    return _fresh(result)


def _fresh(value):
    """Results the caller owns: contiguous, writable, and never one of the caller's arrays."""
    if isinstance(value, tuple):
        return tuple(_fresh(v) for v in value)
    return np.array(value, order="C", copy=True)
