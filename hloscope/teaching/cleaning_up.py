"""The exercise check of notebook 03, "cleaning up": which algsimp rule cse needed."""

from __future__ import annotations

from ..ir.module import HloModule
from ..passes.algsimp import AlgebraicSimplifier
from ..passes.constant_folding import ConstantFolding
from ..passes.cse import CommonSubexpressionElimination
from ..passes.dce import DeadCodeElimination
from ..passes.pipeline import Pipeline
from .exercises import Wrong, exercise

RULES = ("add_zero", "mul_one", "neg_neg")


def cse_merges(module: HloModule, disabled_rule: str) -> bool:
    """Whether cse merges anything when algsimp runs without `disabled_rule`."""
    cleanup = Pipeline("cleanup", [AlgebraicSimplifier(disabled=(disabled_rule,)), DeadCodeElimination(),
                                   ConstantFolding(), CommonSubexpressionElimination(), DeadCodeElimination()],
                       fixed_point=True)
    records: list = []
    cleanup.run(module, records)
    return any(d.action == "merged" for r in records if r.name == "cse" for d in r.log)


def check_needed_rule(module: HloModule, answer: str) -> None:
    """The algsimp rule without which cse merges nothing in `module`: judged by turning the
    answer off and running the cleanup."""

    def rule(name: str) -> bool:
        if name not in RULES:
            raise Wrong(f"algsimp applied the rules {', '.join(RULES)} here; {name!r} is not one of them")
        if cse_merges(module, name):
            raise Wrong(f"with {name!r} turned off, cse still merges: it was not the rule cse needed")
        return True

    exercise("the rule cse needed", answer, rule,
             hint="cse merges instructions with the same operands: which rewrite changed an operand of e1?")
