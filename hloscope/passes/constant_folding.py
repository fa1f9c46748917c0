"""constant_folding: compute at compile time what depends only on constants
(XLA's HloConstantFolding, xla/hlo/transforms/simplifiers/hlo_constant_folding.cc).

An instruction whose operands are all constants is evaluated with the reference evaluator
and replaced by a constant holding the result. As in XLA, some are left alone on purpose:
broadcasts and iotas (folding them turns a scalar into a large array in the program),
results or operands above a size limit, and ops whose value is not a pure function of their
operands (parameters, rng, custom-calls) or that run other code (while, conditional, call).

    before                                   after
      a = f32[] constant(2)                    a = f32[] constant(2)
      b = f32[] constant(3)                    b = f32[] constant(3)
      m = f32[] multiply(a, b)                 constant.1 = f32[] constant(6)
      p = f32[] parameter(0)                   p = f32[] parameter(0)
      ROOT s = f32[] add(m, p)                 ROOT s = f32[] add(constant.1, p)

One sweep in post order folds whole chains (`exp(a * b)` becomes one constant); dce then
removes the constants nothing reads any more.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import HloscopeError
from ..evaluator import evaluate_instruction
from ..ir.attributes import Literal
from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.module import HloModule
from ..ir.shape import ArrayShape
from .naming import NameUniquer
from .pipeline import HloPass
from .record import DecisionLog
from .rewrite import Rewriter, map_computations, opcodes_in

# Not pure functions of their operands, or code we do not run at compile time.
NEVER_FOLDED = frozenset(
    "parameter constant tuple after-all rng rng-bit-generator rng-get-and-update-state custom-call "
    "while conditional call fusion infeed outfeed send recv partition-id replica-id".split()
)
# Folding these makes a small program constant large (XLA skips them for the same reason).
GROWS_CONSTANTS = frozenset({"broadcast", "iota"})


def is_known_constant(inst: Instruction) -> bool:
    """A constant whose value the module holds (not XLA's elided `{...}`)."""
    return inst.opcode == "constant" and inst.literal is not None and not inst.literal.elided


def elements(shape) -> int:
    return shape.size if isinstance(shape, ArrayShape) else 0


def known_value(inst: Instruction) -> object:
    """The value a known constant holds (callers check is_known_constant first)."""
    if inst.literal is None:
        raise ValueError(f"{inst.name} is not a constant")
    return inst.literal.value


def _evaluate(module: HloModule, inst: Instruction, operands: list[Instruction]) -> np.ndarray:
    """The value of `inst` on its constant operands, with the reference evaluator."""
    value = evaluate_instruction(module, inst, [known_value(o) for o in operands])
    shape = inst.array_shape  # a candidate is array-valued
    return np.asarray(value, dtype=shape.numpy_dtype).reshape(shape.dims)


@dataclass
class ConstantFolding(HloPass):
    """Replaces instructions whose operands are all constants by a constant holding their
    value, computed with the reference evaluator. Broadcasts and iotas are not folded (that
    would store a large array where a scalar suffices), nor are results or operands larger
    than `max_elements`, nor ops that are not pure functions of their operands."""

    name = "constant_folding"
    max_elements: int = 45_000

    def run(self, module: HloModule, log: DecisionLog) -> HloModule:
        names = NameUniquer.for_module(module)
        return map_computations(module, lambda c: self._fold(c, module, names, log))

    def _fold(self, comp: Computation, module: HloModule, names, log: DecisionLog) -> Computation:
        if not opcodes_in(comp) & {"constant", "iota"}:
            return comp  # nothing constant to start from
        rw = Rewriter(comp, names)
        for inst in rw.sweep():
            operands = [rw.get(o) for o in inst.operands]
            folded = (
                self._try_fold(inst, operands, module, rw, log) if self._candidate(inst, operands) else None
            )
            if folded is None:
                rw.keep(inst)
            else:
                rw.replace(inst, folded)
        return rw.finish()

    def _try_fold(
        self,
        inst: Instruction,
        operands: list[Instruction],
        module: HloModule,
        rw: Rewriter,
        log: DecisionLog,
    ) -> str | None:
        """The name of the new constant that replaces `inst`, or None (with the reason logged)."""
        refusal = self._refusal(inst, operands)
        if refusal is not None:
            return self._kept(inst, refusal, rw, log)
        try:
            value = _evaluate(module, inst, operands)
        except HloscopeError as e:
            return self._kept(inst, f"not folded: the evaluator cannot compute it ({e})", rw, log)
        new = rw.add("constant", inst.shape, literal=Literal(value))
        log.add(
            "folded",
            inst.name,
            f"all operands are constants, so its {inst.shape.short()} value is computed at compile time",
            target=new,
            rule="constant_folding",
            computation=rw.comp.name,
        )
        return new

    @staticmethod
    def _kept(inst: Instruction, reason: str, rw: Rewriter, log: DecisionLog) -> None:
        """Log why `inst` stays unfolded (nothing replaces it)."""
        log.add("kept", inst.name, reason, rule="constant_folding", computation=rw.comp.name, accepted=False)

    @staticmethod
    def _candidate(inst: Instruction, operands: list[Instruction]) -> bool:
        """An array-valued op, not excluded by opcode, whose operands are all known constants."""
        return (
            inst.opcode not in NEVER_FOLDED
            and isinstance(inst.shape, ArrayShape)
            and all(is_known_constant(o) for o in operands)
        )

    def _refusal(self, inst: Instruction, operands: list[Instruction]) -> str | None:
        """Why a candidate stays unfolded, or None to fold it."""
        if inst.opcode in GROWS_CONSTANTS:
            return (
                f"not folded: the {inst.opcode} would become a stored {inst.shape.short()} constant, "
                "cheaper to compute than to store"
            )
        size = max([elements(inst.shape)] + [elements(o.shape) for o in operands])
        if size > self.max_elements:
            return f"not folded: {size} elements is more than the limit of {self.max_elements}"
        return None
