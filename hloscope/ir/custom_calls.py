"""The custom-call targets hloscope understands, and the one wording for any other.

    not supported: custom-call target "Sharding" (instruction custom-call.3); hloscope understands: TopK
    not supported on gpu: custom-call target "Sharding" (instruction custom-call.3); hloscope understands: TopK

A custom-call runs code XLA links in by name; hloscope knows the meaning of only these, so
the evaluator and every backend refuse any other target with this message (naming it).
"""

from __future__ import annotations

from .instruction import Instruction
from .topk import TOPK_TARGET

UNDERSTOOD_TARGETS = (TOPK_TARGET,)


def is_understood(inst: Instruction) -> bool:
    return inst.opcode == "custom-call" and inst.attr("custom_call_target") in UNDERSTOOD_TARGETS


def refusal(inst: Instruction, target: str = "") -> str:
    """Why `inst` (a custom-call of another target) cannot run; `target` is the backend, if any."""
    on = f" on {target}" if target else ""
    return (f'not supported{on}: custom-call target "{inst.attr("custom_call_target")}" '
            f'(instruction {inst.name}); hloscope understands: {", ".join(UNDERSTOOD_TARGETS)}')


# Custom-calls that only mark a value's sharding (JAX's with_sharding_constraint, Shardy's result
# marks): the identity on one device (passes/sharding_remover.py drops them before code generation).
SHARDING_ANNOTATIONS = frozenset({"Sharding", "xla.sdy.FuncResultSharding", "xla.sdy.Sharding"})


def is_sharding_annotation(inst: Instruction) -> bool:
    return (inst.opcode == "custom-call" and inst.attr("custom_call_target") in SHARDING_ANNOTATIONS
            and len(inst.operands) == 1)
