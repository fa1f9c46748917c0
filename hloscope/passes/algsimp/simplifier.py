"""algsimp: the algebraic simplifier (XLA's AlgebraicSimplifier,
xla/hlo/transforms/simplifiers/algebraic_simplifier.cc).

A table of small named rules, each an identity such as `x + 0 = x` or
`transpose(transpose(x)) = transpose(x)`. One sweep visits every instruction (operands
first) and tries the rules of its opcode; the first that applies gives the replacement, and
every hit is logged with the rule's name. Like XLA, a rule only redirects users: the
instructions it makes unused (the `0` in `x + 0`) are left for dce, and the pipeline reruns
`algsimp, dce, ...` until nothing changes. A constant counts as one value when all its
elements are equal, and so does a broadcast of such a constant (`broadcast(0)`).

    before                                   after (algsimp, then dce)
      p = f32[4] parameter(0)                  p = f32[4] parameter(0)
      z = f32[] constant(0)                    ROOT n = f32[4] negate(p)
      b = f32[4] broadcast(z), dimensions={}
      a = f32[4] add(p, b)
      ROOT n = f32[4] negate(a)

The rules live in rules.py (arithmetic, select, convert, compare) and
shape_rules.py (reshape, transpose, broadcast, slice, pad, reduce, dot).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ...ir.attributes import Literal
from ...ir.computation import Computation
from ...ir.instruction import Instruction
from ...ir.module import HloModule
from ...ir.shape import ArrayShape, Shape
from ..naming import NameUniquer
from ..pipeline import HloPass
from ..record import DecisionLog
from ..rewrite import Rewriter, map_computations
from .rules import RULES as ARITH_RULES
from .shape_rules import RULES as SHAPE_RULES

MAX_CHAIN = 4  # rules tried again on an instruction a rule just made (saves fixed-point rounds)


class Simplifier:
    """What a rule sees: the new computation so far, constant values, and a way to add ops."""

    def __init__(self, module: HloModule, rw: Rewriter):
        self.module = module
        self.rw = rw
        self._splats: dict[str, object] = {}

    def op(self, name: str) -> Instruction:
        """An instruction of the computation being built (every operand is one)."""
        return self.rw.get(name)

    def operands(self, inst: Instruction) -> list[Instruction]:
        return [self.rw.get(o) for o in inst.operands]

    def splat(self, name: str):
        """The one value of a constant (or broadcast of one) whose elements are all equal, else None."""
        if name not in self._splats:
            self._splats[name] = _splat_value(self, self.op(name))
        return self._splats[name]

    def is_splat(self, name: str, value) -> bool:
        """Whether `name` is a constant (or broadcast constant) equal to `value` everywhere."""
        v = self.splat(name)
        return v is not None and bool(v == value)

    def add(self, opcode: str, shape: Shape, operands, **attrs) -> str:
        """A new instruction `opcode.N` in the computation; returns its name."""
        return self.rw.add(opcode, shape, operands, attrs)

    def full(self, value, shape: ArrayShape) -> str:
        """A constant `value` of `shape`: a scalar constant, broadcast if `shape` is not scalar."""
        scalar = ArrayShape(shape.dtype, ())
        lit = Literal(np.asarray(value, dtype=shape.numpy_dtype).reshape(()))
        name = self.rw.add("constant", scalar, literal=lit)
        return name if shape.rank == 0 else self.add("broadcast", shape, [name], dimensions=())


def _splat_value(ctx: Simplifier, inst: Instruction):
    if inst.opcode == "broadcast":
        inst = ctx.op(inst.operands[0])
    lit = inst.literal
    if inst.opcode != "constant" or lit is None or lit.elided or not isinstance(lit.value, np.ndarray):
        return None
    arr = lit.value
    if arr.size == 0:
        return None
    first = arr.reshape(-1)[0]
    return first if arr.size == 1 or bool(np.all(arr == first)) else None


# A rule: `rule(inst, ctx)` is the name of the instruction that replaces `inst`, or None.
Rule = Callable[[Instruction, Simplifier], str | None]


def default_rules() -> dict[str, list[Rule]]:
    """opcode -> the rules tried on it, in order (every rule of both rule files)."""
    table: dict[str, list[Rule]] = {}
    for source in (ARITH_RULES, SHAPE_RULES):
        for opcode, rules in source.items():
            table.setdefault(opcode, []).extend(rules)
    return table


def rule_identity(rule: Rule) -> str:
    """A rule's identity: the first line of its docstring, e.g. `x + 0 = x`."""
    return (rule.__doc__ or rule.__name__).strip().splitlines()[0]


@dataclass
class AlgebraicSimplifier(HloPass):
    """Rewrites instructions by algebraic identities: `x + 0 = x`, `x * 1 = x`,
    `negate(negate(x)) = x`, `reshape(reshape(x)) = reshape(x)`, a transpose that keeps
    every dimension in place is `x`, and two dozen more, each a named rule. Users of the
    rewritten instruction read the simpler value; what becomes unused is left for dce.
    `disabled` names rules to skip (to see what one rule does, disable the others)."""

    name = "algsimp"
    disabled: tuple[str, ...] = ()
    rules: dict[str, list[Rule]] = field(default_factory=default_rules, repr=False)

    def run(self, module: HloModule, log: DecisionLog) -> HloModule:
        names = NameUniquer.for_module(module)
        return map_computations(module, lambda c: self._simplify(c, module, names, log))

    def _simplify(self, comp: Computation, module: HloModule, names, log: DecisionLog) -> Computation:
        rw = Rewriter(comp, names)
        ctx = Simplifier(module, rw)
        for inst in rw.sweep():
            result = self._apply(inst, ctx, comp.name, log)
            if result is None:
                rw.keep(inst)
            else:
                rw.replace(inst, result)
        return rw.finish()

    def _apply(self, inst: Instruction, ctx: Simplifier, comp: str, log: DecisionLog) -> str | None:
        """The name that replaces `inst` after the rules have had their say, or None."""
        result = None
        for _ in range(MAX_CHAIN):
            target = inst if result is None else ctx.op(result)
            hit = self._first_hit(target, ctx, comp, inst, log)
            if hit is None:
                break
            result = hit
            if hit in ctx.rw.comp:
                break  # an existing instruction: it has had its rules applied already
        return result

    def _first_hit(
        self, inst: Instruction, ctx: Simplifier, comp: str, original: Instruction, log: DecisionLog
    ) -> str | None:
        for rule in self.rules.get(inst.opcode, ()):
            if rule.__name__ in self.disabled:
                continue
            result = rule(inst, ctx)
            if result is None:
                continue
            if ctx.op(result).shape != original.shape:  # a layout-changing rewrite needs a copy: skip
                log.add(
                    "kept",
                    original.name,
                    f"{rule.__name__} would change the layout",
                    rule=rule.__name__,
                    computation=comp,
                    accepted=False,
                )
                continue
            log.add(
                "rewrote",
                original.name,
                f"{rule.__name__} ({rule_identity(rule)})",
                target=result,
                rule=rule.__name__,
                computation=comp,
            )
            return result
        return None
