"""The exercise check of notebook 09, "write a pass": SubtractOfNegate, run in the default
pipeline on a test module, judged by what it did (the module, its log, bisect). A pass that
breaks gets a ✗ line naming the mistake, never a traceback."""

from __future__ import annotations

from typing import Any

from ..compiler import optimize
from ..ir.module import HloModule
from ..passes.bisect import bisect
from ..passes.pipeline import HloPass, PassError
from ..passes.pipelines import pipelines
from .exercises import Wrong, exercise


def subtracts_of_negates(module: HloModule) -> list[str]:
    entry = module.entry_computation
    return [i.name for i in entry if i.opcode == "subtract" and entry[i.operands[1]].opcode == "negate"]


def _run_pass(my_pass: HloPass, module: HloModule) -> Any:
    pipeline = pipelines["default"].inserted(my_pass, after="simplification")
    try:
        records = optimize(module, pipeline).records
    except PassError as e:
        cause = e.__cause__
        if isinstance(cause, KeyError):  # an operand that was neither kept nor added
            raise Wrong(f"the new computation uses {cause} but does not hold it: call rw.keep(inst) for "
                        "every instruction you do not rewrite") from None
        if cause is not None and "invalid module" not in str(e):
            raise Wrong(f"the pass raised {type(cause).__name__} ({str(cause).splitlines()[0] if str(cause) else ''})") from None
        raise Wrong(f"the pass made an invalid module ({str(e).splitlines()[0]})") from None
    return pipeline, next(r for r in records if r.name == my_pass.name)


def check_subtract_of_negate(my_pass: Any, module: HloModule) -> None:
    """`my_pass` rewrites every subtract(a, negate(b)) of `module` into add(a, b), logs one
    decision per rewrite, and keeps the result unchanged (bisect)."""
    simplified = optimize(module, "simplify").module
    assert simplified is not None
    expected_rewrites = len(subtracts_of_negates(simplified))

    def rule(answer: Any) -> bool:
        if not isinstance(answer, HloPass):
            raise Wrong("my_pass should be an instance of your pass: SubtractOfNegate()")
        pipeline, mine = _run_pass(answer, module)
        if not mine.changed:
            raise Wrong("the pass did not change the module: find subtract instructions whose second operand is a negate")
        if subtracts_of_negates(mine.after):
            raise Wrong("a subtract of a negate is left: every subtract(a, negate(b)) must go")
        if len(mine.log) != expected_rewrites:
            raise Wrong(f"the log has {len(mine.log)} decisions: log.add(...) once for each rewrite")
        verdict = bisect(module, pipeline=pipeline)
        if verdict.pass_name is not None:
            raise Wrong(f"the result changes after {verdict.pass_name}: a - (-b) is a + b")
        return True

    exercise("SubtractOfNegate", my_pass, rule)
