"""dce: dead code elimination (XLA's HloDCE, xla/hlo/transforms/simplifiers/hlo_dce.cc).

An instruction is live if the ROOT needs it, directly or through operands, or if it has a
side effect that must happen anyway. Everything else is removed. Parameters always stay:
they are the computation's signature. Then computations that nothing calls any more are
removed too. Other passes leave dead code behind on purpose (algsimp replaces `x + 0` by
`x` and leaves the constant 0 for dce), so dce runs after them.

    before                                   after
      p = f32[4] parameter(0)                  p = f32[4] parameter(0)
      zero = f32[] constant(0)                 ROOT n = f32[4] negate(p)
      unused = f32[4] exponential(p)
      ROOT n = f32[4] negate(p)
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from weakref import WeakKeyDictionary

from ..ir.attributes import Raw
from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.module import HloModule
from .pipeline import HloPass
from .record import DecisionLog
from .rewrite import map_computations

# Opcodes whose effect is more than their result (XLA's HasSideEffect).
SIDE_EFFECT_OPCODES = frozenset(
    "rng rng-get-and-update-state send send-done recv recv-done infeed outfeed".split()
)


def own_side_effect(inst: Instruction) -> bool:
    """A side effect of the instruction itself (not of what it calls)."""
    if inst.opcode in SIDE_EFFECT_OPCODES:
        return True
    if inst.opcode == "custom-call":
        flag = inst.attr("custom_call_has_side_effect")
        return flag is True or (isinstance(flag, Raw) and flag.text == "true")
    return False


_FACTS: WeakKeyDictionary = WeakKeyDictionary()  # computation -> (own side effect, callees)


def computation_facts(comp: Computation) -> tuple[bool, tuple[str, ...]]:
    """Whether `comp` has a side-effecting instruction, and what it calls (cached, as
    computations never change and most are shared by the modules before and after a pass)."""
    facts = _FACTS.get(comp)
    if facts is None:
        own = any(own_side_effect(i) for i in comp)
        callees = tuple(dict.fromkeys(c for i in comp if i.attrs for c in i.called_computations()))
        facts = _FACTS[comp] = (own, callees)
    return facts


def effectful_computations(module: HloModule) -> set[str]:
    """Names of computations that contain a side effect, directly or through calls."""
    facts = {c.name: computation_facts(c) for c in module.computations}
    effectful = {name for name, (own, _) in facts.items() if own}
    grew = bool(effectful)
    while grew:  # callers of effectful computations are effectful too
        grew = False
        for name, (_, callees) in facts.items():
            if name not in effectful and not effectful.isdisjoint(callees):
                effectful.add(name)
                grew = True
    return effectful


def has_side_effect(inst: Instruction, effectful: AbstractSet[str] = frozenset()) -> bool:
    """Whether `inst` must run even if nobody reads its result."""
    if own_side_effect(inst):
        return True
    return bool(effectful) and any(c in effectful for c in inst.called_computations())


def live_names(comp: Computation, effectful: AbstractSet[str] = frozenset()) -> set[str]:
    """Names reachable from the root, parameters and side-effecting instructions."""
    roots = [comp.root] + [i.name for i in comp if i.opcode == "parameter" or has_side_effect(i, effectful)]
    live: set[str] = set()
    stack = roots
    while stack:
        name = stack.pop()
        if name in live or name not in comp:
            continue
        live.add(name)
        inst = comp[name]
        stack.extend(inst.operands)
        stack.extend(inst.control_predecessors)
    return live


def called_names(module: HloModule) -> set[str]:
    """Computations reachable from the entry through called computations."""
    reached = {module.entry}
    stack = [module.entry]
    while stack:
        for name in computation_facts(module.computation(stack.pop()))[1]:
            if name not in reached and module.has_computation(name):
                reached.add(name)
                stack.append(name)
    return reached


class DeadCodeElimination(HloPass):
    """Removes instructions whose results nobody uses, then computations nobody calls.

    An instruction is kept if the ROOT depends on it, if it is a parameter, or if it has a
    side effect (rng, custom-calls marked as side-effecting, calls of computations that
    have one). Other passes rely on dce to sweep up what their rewrites leave unused.
    """

    name = "dce"

    def run(self, module: HloModule, log: DecisionLog) -> HloModule:
        effectful = effectful_computations(module)
        module = map_computations(module, lambda c: self._prune(c, effectful, log))
        return self._drop_uncalled(module, log)

    def _prune(self, comp: Computation, effectful: set[str], log: DecisionLog) -> Computation:
        live = live_names(comp, effectful)
        if len(live) == len(comp):
            return comp
        for inst in comp:
            if inst.name not in live:
                log.add(
                    "removed",
                    inst.name,
                    f"dead: ROOT {comp.root} does not depend on it",
                    rule="dead_instruction",
                    computation=comp.name,
                )
        return comp.replace(instructions=[i for i in comp if i.name in live])

    def _drop_uncalled(self, module: HloModule, log: DecisionLog) -> HloModule:
        reached = called_names(module)
        if len(reached) == len(module.computations):
            return module
        for comp in module.computations:
            if comp.name not in reached:
                log.add(
                    "removed",
                    comp.name,
                    "no instruction calls this computation",
                    rule="dead_computation",
                    computation=comp.name,
                )
        return module.replace(computations=tuple(c for c in module.computations if c.name in reached))
