"""tuple-simplifier: remove tuples that are built only to be taken apart
(XLA's TupleSimplifier, xla/hlo/transforms/simplifiers/tuple_simplifier.cc).

Two patterns, both common after inlining calls and while bodies:

- get-tuple-element(tuple(a, b, c), index=1) is just b;
- tuple(gte(t, 0), gte(t, 1), ..., gte(t, n-1)), rebuilding all of a tuple t in order, is t.

    before                                   after (then dce removes t)
      t = (f32[4], s32[]) tuple(x, i)          t = (f32[4], s32[]) tuple(x, i)
      g = f32[4] get-tuple-element(t), index=0 ROOT n = f32[4] negate(x)
      ROOT n = f32[4] negate(g)
"""

from __future__ import annotations

from typing import Callable

from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.module import HloModule
from ..ir.shape import TupleShape
from .naming import NameUniquer
from .pipeline import HloPass
from .record import DecisionLog
from .rewrite import Rewriter, map_computations, opcodes_in


def gte_of_tuple(inst: Instruction, rw: Rewriter) -> str | None:
    """get-tuple-element(tuple(..., x_i, ...), index=i) = x_i"""
    source = rw.get(inst.operands[0])
    if source.opcode != "tuple":
        return None
    element = source.operands[inst.attr("index")]
    return element if rw.get(element).shape == inst.shape else None


def tuple_of_gtes(inst: Instruction, rw: Rewriter) -> str | None:
    """tuple(gte(t, 0), ..., gte(t, n-1)) = t, when t has exactly n elements"""
    elements = [rw.get(o) for o in inst.operands]
    if not elements or any(e.opcode != "get-tuple-element" for e in elements):
        return None
    source = elements[0].operands[0]
    in_order = all(e.operands[0] == source and e.attr("index") == i for i, e in enumerate(elements))
    whole = rw.get(source).shape == inst.shape and isinstance(inst.shape, TupleShape)
    return source if in_order and whole else None


Rule = Callable[[Instruction, Rewriter], str | None]
RULES: dict[str, Rule] = {"get-tuple-element": gte_of_tuple, "tuple": tuple_of_gtes}


def identity(rule: Rule) -> str:
    """The first line of a rule's docstring: the identity it applies."""
    return (rule.__doc__ or rule.__name__).strip().splitlines()[0]


class TupleSimplifier(HloPass):
    """Removes tuples that are made only to be taken apart again: a get-tuple-element of a
    tuple instruction is the tuple's operand, and a tuple that reassembles every element of
    another tuple, in order, is that tuple. What becomes unused is left for dce."""

    name = "tuple-simplifier"

    def run(self, module: HloModule, log: DecisionLog) -> HloModule:
        names = NameUniquer.for_module(module)
        return map_computations(module, lambda c: self._simplify(c, names, log))

    def _simplify(self, comp: Computation, names: NameUniquer, log: DecisionLog) -> Computation:
        if opcodes_in(comp).isdisjoint(RULES):
            return comp
        rw = Rewriter(comp, names)
        for inst in rw.sweep():
            rule = RULES.get(inst.opcode)
            result = rule(inst, rw) if rule is not None else None
            if rule is None or result is None:
                rw.keep(inst)
                continue
            log.add(
                "rewrote",
                inst.name,
                f"{rule.__name__} ({identity(rule)})",
                target=result,
                rule=rule.__name__,
                computation=comp.name,
            )
            rw.replace(inst, result)
        return rw.finish()
