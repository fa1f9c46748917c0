"""The evaluator's public entry points: a whole module, one computation, one instruction."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.module import HloModule
from .arguments import check_arguments
from ..errors import EvaluationError
from .core import Evaluator
from .mesh import device_count, evaluate_on_devices


def evaluate(module: HloModule, *args):
    """Run the ENTRY computation on numpy arguments.

    Returns a numpy array, or a tuple of results (nested as the ROOT's tuple shape is) when
    the ROOT is a tuple. Raises EvaluationError for arguments that do not match the ENTRY's
    parameters and NotSupportedError (`not supported: <opcode>`) for operations the
    evaluator cannot run. The caller's arrays are never modified or returned.

    A module written for several devices (replica_count, num_partitions) also runs as all of
    them: `evaluate(module, shards)` with `shards` a list of one argument tuple per device
    returns a list of each device's results (mesh.py).
    """
    replicas, partitions = device_count(module)
    if replicas * partitions > 1 and len(args) == 1 and _per_device(args[0]):
        return evaluate_sharded(module, args[0])
    return evaluate_computation(module, module.entry_computation, args)


def check_shards(module: HloModule, shards: Sequence[Sequence]) -> None:
    """Each device's arguments checked against the ENTRY's parameters, before any device starts."""
    replicas, partitions = device_count(module)
    if len(shards) != replicas * partitions:
        raise EvaluationError(f"{module.name} runs on {replicas * partitions} devices ({replicas} replicas x "
                              f"{partitions} partitions): give {replicas * partitions} argument tuples, one per "
                              f"device, not {len(shards)}")
    for d, shard in enumerate(shards):
        try:
            check_arguments(module.entry_computation, list(shard))
        except EvaluationError as e:
            raise EvaluationError(f"device {d}: {e}") from None


def evaluate_sharded(module: HloModule, shards: Sequence[Sequence]) -> list:
    """Each device's results, from each device's arguments (see evaluate)."""
    entry = module.entry_computation
    check_shards(module, shards)

    def one_device(ev: Evaluator, shard: Sequence):
        values = check_arguments(entry, list(shard))
        with np.errstate(all="ignore"):
            return _fresh(ev.run(entry, values))

    return evaluate_on_devices(module, shards, one_device)


def _per_device(value) -> bool:
    """A list (not a tuple or an array) of argument tuples: the shards form."""
    return isinstance(value, list) and all(isinstance(v, (tuple, list)) for v in value)


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
