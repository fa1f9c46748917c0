"""cse: common subexpression elimination (XLA's HloCSE, xla/service/hlo_cse.cc).

Two instructions that compute the same thing are merged into the first: same opcode, shape,
operands and attributes (metadata does not count). One sweep in post order does it in
linear time: when an instruction is visited its operands have already been renamed to the
representatives kept so far, so a duplicate is found by looking up a key in a dict.
Commutative operations sort their operands first (`add(a, b)` equals `add(b, a)`),
constants compare by value, and a called computation compares by its structure, not its
name (JAX emits a fresh `region_N` per reduce). Side-effecting ops are never merged.

    before                                   after
      p = f32[4] parameter(0)                  p = f32[4] parameter(0)
      a = f32[4] exponential(p)                a = f32[4] exponential(p)
      b = f32[4] exponential(p)                ROOT s = f32[4] add(a, a)
      ROOT s = f32[4] add(a, b)
"""

from __future__ import annotations

import numpy as np

from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.module import HloModule
from ..ir.opcodes import COMPUTATION_ATTRS, OPCODES
from .dce import effectful_computations, has_side_effect
from .naming import NameUniquer
from .pipeline import HloPass
from .record import DecisionLog
from .rewrite import Rewriter, map_computations, operands_first

# Never merged even without a side effect: distinct random draws, and parameters.
NEVER_MERGED = frozenset("parameter rng rng-bit-generator partition-id replica-id".split())


def literal_key(inst: Instruction):
    """A constant's value as a hashable key (bitwise: 0.0 and -0.0 differ), or None if unknown."""
    lit = inst.literal
    if lit is None or lit.elided or not isinstance(lit.value, np.ndarray):
        return None
    return (lit.value.dtype.str, lit.value.shape, lit.value.tobytes())


def operand_key(inst: Instruction) -> tuple[str, ...]:
    """Operand names, sorted when the order does not matter (`add(a, b)` == `add(b, a)`)."""
    info = OPCODES.get(inst.opcode)
    symmetric = (info is not None and info.commutative) or (
        inst.opcode == "compare" and inst.attr("direction") in ("EQ", "NE")
    )
    return tuple(sorted(inst.operands)) if symmetric else inst.operands


class _Keys:
    """Hashable identities of instructions and (structurally) of called computations."""

    def __init__(self, module: HloModule):
        self.module = module
        self.computation_keys: dict[str, object] = {}

    def instruction(self, inst: Instruction, operands: tuple) -> tuple | None:
        """What `inst` computes, as a key; None if it must never be merged."""
        value = literal_key(inst) if inst.opcode == "constant" else ()
        if value is None:
            return None
        attrs = tuple((k, self._attr(k, v) if k in COMPUTATION_ATTRS else v) for k, v in inst.attrs.items())
        return (inst.opcode, inst.shape, operands, attrs, value)

    def _attr(self, key: str, value):
        """A called computation by its structure rather than its name."""
        if COMPUTATION_ATTRS[key] == 1:
            return self.computation(value)
        return tuple(self.computation(v) for v in value)

    def computation(self, name: str):
        """A name-free description of a computation, so identical regions compare equal."""
        if name not in self.computation_keys:
            self.computation_keys[name] = name  # recursion guard: fall back to the name
            comp = self.module.computation(name)
            order = operands_first(comp)
            index = {inst.name: i for i, inst in enumerate(order)}
            body = []
            for inst in order:
                ops = tuple(index[o] for o in inst.operands)
                key = (
                    self.instruction(inst, ops)
                    if inst.opcode != "parameter"
                    else ("parameter", inst.shape, inst.parameter_number)
                )
                body.append(key if key is not None else ("unique", name, inst.name))
            self.computation_keys[name] = (tuple(body), index[comp.root])
        return self.computation_keys[name]


def _first_with_key(seen: dict, key, name: str) -> str:
    """The first instruction seen with `key` (recording `name` if it is the first)."""
    if key is None:
        return name
    try:
        return seen.setdefault(key, name)
    except TypeError:  # an attribute value that cannot be hashed: treat the instruction as unique
        return name


class CommonSubexpressionElimination(HloPass):
    """Merges instructions that compute the same value: same opcode, shape, operands and
    attributes, or constants with equal values. Users of the duplicate read the first copy,
    and the duplicate disappears. Side-effecting ops (rng, custom-calls with effects) and
    parameters are never merged."""

    name = "cse"

    def run(self, module: HloModule, log: DecisionLog) -> HloModule:
        keys = _Keys(module)
        effectful = effectful_computations(module)
        names = NameUniquer.for_module(module)
        return map_computations(module, lambda c: self._merge(c, keys, effectful, names, log))

    def _merge(self, comp: Computation, keys: _Keys, effectful, names, log: DecisionLog) -> Computation:
        seen: dict[tuple, str] = {}
        rw = Rewriter(comp, names)
        for inst in rw.sweep():
            first = _first_with_key(seen, self._key(inst, keys, effectful), inst.name)
            if first == inst.name:
                rw.keep(inst)
                continue
            what = (
                "equal constant"
                if inst.opcode == "constant"
                else "same opcode, shape, operands and attributes"
            )
            log.add(
                "merged", inst.name, f"{what} as {first}", target=first, rule="cse", computation=comp.name
            )
            rw.replace(inst, first)
        return rw.finish()

    @staticmethod
    def _key(inst: Instruction, keys: _Keys, effectful) -> tuple | None:
        """The merge key of `inst`, or None for instructions that must stay unique."""
        if inst.opcode in NEVER_MERGED or has_side_effect(inst, effectful):
            return None
        if "control-predecessors" in inst.attrs:
            return None
        return keys.instruction(inst, operand_key(inst))
