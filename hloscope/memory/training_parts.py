"""Which part of a training step each instruction belongs to: forward, backward or other.

JAX (and hloscope's `grad`) name the scopes of a differentiated function in op_name metadata:

    jit(step)/jvp(loss)/tanh                 forward: the primal computation under `grad`
    jit(step)/transpose(jvp(loss))/tanh      backward: the transposed (reverse) sweep
    jit(step)/subtract                       other: the optimizer update, argument handling...

The rule, per op_name: a scope segment starting with `transpose(` makes it backward (so the
backward pass of a grad-of-grad is backward too), else one starting with `jvp(` makes it
forward, else it is other. An instruction without an op_name (a get-tuple-element or copy a
pass inserted) takes the part of its first operand: it passes that value on.

A fusion is classified by the instructions it fused (recursively, parameters excluded):
its part is the majority among them (ties go to backward, then forward: the sweep that made
the later instructions), and `mixed` says when it holds both forward and backward ones.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.memo import per_value
from ..ir.module import HloModule

PARTS = ("forward", "backward", "other")
_TIE_ORDER = {"backward": 0, "forward": 1, "other": 2}


@dataclass(frozen=True)
class PartOf:
    """An instruction's part, and (for a fusion) how many of its fused instructions are in each."""

    part: str  # forward | backward | other
    counts: tuple[tuple[str, int], ...] = ()  # (part, fused instructions), for fusions only

    @property
    def mixed(self) -> bool:
        """A fusion holding both forward and backward instructions."""
        parts = dict(self.counts)
        return parts.get("forward", 0) > 0 and parts.get("backward", 0) > 0


def part_of_op_name(op_name: str | None) -> str | None:
    """forward / backward / other from an op_name; None when there is no op_name."""
    if not op_name:
        return None
    segments = op_name.split("/")
    if any(s.startswith("transpose(") for s in segments):
        return "backward"
    if any(s.startswith("jvp(") for s in segments):
        return "forward"
    return "other"


def _own_part(inst: Instruction) -> str | None:
    return part_of_op_name(inst.metadata.op_name if inst.metadata else None)


def _fused_counts(module: HloModule, comp: Computation, counts: Counter) -> None:
    for inst in comp.instructions:
        if inst.opcode == "parameter":
            continue
        if inst.opcode == "fusion":
            for name in inst.called_computations():
                _fused_counts(module, module.computation(name), counts)
            continue
        part = _own_part(inst)
        if part is not None:
            counts[part] += 1


def _fusion_part(module: HloModule, inst: Instruction) -> PartOf:
    counts: Counter = Counter()
    for name in inst.called_computations():
        _fused_counts(module, module.computation(name), counts)
    if not counts:  # fused instructions without metadata: the fusion's own op_name decides
        return PartOf(_own_part(inst) or "other")
    part = min(counts, key=lambda p: (-counts[p], _TIE_ORDER[p]))
    return PartOf(part, tuple((p, counts[p]) for p in PARTS if counts[p]))


def classify_computation(module: HloModule, comp: Computation) -> dict[str, PartOf]:
    """Instruction name -> its part, for one computation (operands before users)."""
    parts: dict[str, PartOf] = {}
    for inst in comp.post_order():
        if inst.opcode == "fusion":
            parts[inst.name] = _fusion_part(module, inst)
            continue
        own = _own_part(inst)
        if own is None and inst.operands:
            own = parts[inst.operands[0]].part
        parts[inst.name] = PartOf(own or "other")
    return parts


@per_value
def classify(module: HloModule) -> dict[str, PartOf]:
    """Instruction name -> its part, for the entry computation (what runs, what is planned)."""
    return classify_computation(module, module.entry_computation)


def part_counts(module: HloModule) -> dict[str, int]:
    """How many entry instructions are forward, backward and other (every part listed)."""
    counts = Counter(p.part for p in classify(module).values())
    return {p: counts[p] for p in PARTS}


def has_backward(module: HloModule) -> bool:
    """Whether the module holds a backward pass (an instruction in a `transpose(` scope)."""
    return any(part_of_op_name(i.metadata.op_name if i.metadata else None) == "backward"
               for _, i in module.all_instructions())
