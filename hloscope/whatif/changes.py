"""What a what-if experiment changes, checked, and where in the compile it first matters.

    Changes.of(disable=["fusion"], disable_rules=["add_zero"], max_operands=4, scheduler="program",
               opt_level=0, vector_width=128, library=False)

Passes are named as the pipeline names them (`-`/`_` and case ignored); rules are algsimp's
(`add_zero`, by function name) or fusion's heuristic rejections (passes.fusion.rules.
HEURISTIC_RULES: `recompute`, `expensive_duplicate`, ...). A change to the passes reruns from
"optimize"; a change to an option from the first stage that reads it (Stage.reads: the
library, the CPU and its vectors from "lower", LLVM's level from the CPU's "llvm-opt").
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from ..errors import HloscopeError
from ..passes.algsimp import AlgebraicSimplifier, default_rules
from ..passes.fusion import InstructionFusion, MultiOutputFusion
from ..passes.fusion.rules import HEURISTIC_RULES
from ..passes.pipeline import Pipeline
from ..passes.registry import canonical
from ..passes.scheduler import MemoryScheduler

SCHEDULERS = ("memory", "program")
# The x86-64 level whose widest vectors are this many bits (LLVM's generic CPU names).
VECTOR_CPUS = {128: "x86-64-v2", 256: "x86-64-v3", 512: "x86-64-v4"}


class WhatIfError(HloscopeError, ValueError):
    """A change that names nothing (an unknown pass or rule), or a value out of range."""


@dataclass(frozen=True)
class Changes:
    """One experiment's changes; None (or empty) leaves a setting as the original had it."""

    disable: tuple[str, ...] = ()  # passes not to run
    disable_rules: tuple[str, ...] = ()  # algsimp rules and fusion heuristics not to apply
    max_operands: int | None = None  # fusion's operand limit (buffers one fused loop reads)
    duplicate: bool | None = None  # fusion may duplicate cheap shared producers
    duplicate_expensive: bool | None = None  # fusion may duplicate expensive ones too (exp, log...)
    multi_output: bool | None = None  # run multi-output fusion
    scheduler: str | None = None  # "memory" (the list scheduler) or "program" (the order written)
    opt_level: int | None = None  # LLVM's -O level
    vector_width: int | None = None  # widest vectors in bits (128, 256, 512): the x86-64 level
    library: bool | None = None  # CPU: the library's kernels and row programs (False: every kernel generated)

    @classmethod
    def of(cls, **changes: Any) -> Changes:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(changes) - known)
        if unknown:
            raise WhatIfError(f"whatif: unknown change(s) {unknown}; known: {sorted(known)}")
        for name in ("disable", "disable_rules"):
            value = changes.get(name, ())
            changes[name] = (value,) if isinstance(value, str) else tuple(value)
        made = cls(**changes)
        made.check()
        return made

    def check(self) -> None:
        if self.scheduler is not None and self.scheduler not in SCHEDULERS:
            raise WhatIfError(f"whatif: scheduler must be one of {SCHEDULERS}, not {self.scheduler!r}")
        if self.opt_level is not None and not 0 <= self.opt_level <= 3:
            raise WhatIfError(f"whatif: opt_level must be 0..3, not {self.opt_level}")
        if self.vector_width is not None and self.vector_width not in VECTOR_CPUS:
            raise WhatIfError(f"whatif: vector_width must be one of {sorted(VECTOR_CPUS)} bits, not {self.vector_width}")
        if self.library is not None and not isinstance(self.library, bool):
            raise WhatIfError(f"whatif: library must be True or False, not {self.library!r}")
        if self.max_operands is not None and self.max_operands < 1:
            raise WhatIfError(f"whatif: max_operands must be 1 or more, not {self.max_operands}")
        unknown = [r for r in self.disable_rules if r not in known_rules()]
        if unknown:
            raise WhatIfError(f"whatif: unknown rule(s) {unknown}; algsimp rules: {', '.join(algsimp_rules())}; "
                              f"fusion heuristics: {', '.join(HEURISTIC_RULES)}")

    @property
    def touches_passes(self) -> bool:
        return bool(self.disable or self.disable_rules) or any(
            v is not None for v in (self.max_operands, self.duplicate, self.duplicate_expensive, self.multi_output,
                                    self.scheduler))

    def __bool__(self) -> bool:
        return bool(self.as_dict())

    def describe(self) -> str:
        """`disable=fusion, opt_level=0`: the settings given, as they were written."""
        parts = []
        for f in fields(self):
            value = getattr(self, f.name)
            if value is None or value == ():
                continue
            parts.append(f"{f.name}={','.join(value) if isinstance(value, tuple) else value}")
        return ", ".join(parts) or "no change"

    def as_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) not in (None, ())}

    # ---- applying them ----
    def pipeline(self, original: Pipeline) -> Pipeline:
        """A copy of `original` with the passes, rules and heuristics changed."""
        p = original.copy()
        present = {canonical(n): n for n in p.pass_names()}
        missing = [n for n in self.disable if canonical(n) not in present]
        if missing:
            raise WhatIfError(f"whatif: pipeline {p.name!r} runs no pass {missing}; it runs: "
                              f"{', '.join(dict.fromkeys(p.pass_names()))}")
        drop = [present[canonical(n)] for n in self.disable]
        if self.multi_output is False:
            drop.append(MultiOutputFusion.name)
        if self.scheduler == "program":
            drop.append(MemoryScheduler.name)
        p = p.without(*drop) if drop else p
        if self.scheduler == "memory" and MemoryScheduler.name not in p.pass_names():
            p = p.inserted(MemoryScheduler())
        if self.multi_output is True and MultiOutputFusion.name not in p.pass_names():
            p = p.inserted(MultiOutputFusion(), after=InstructionFusion.name)
        _tune(p, self)
        return p

    def options(self, original: dict[str, Any]) -> dict[str, Any]:
        """The target options with LLVM's settings changed (the pipeline is not among them)."""
        out = {k: v for k, v in original.items() if k != "pipeline"}
        if self.opt_level is not None:
            out["opt_level"] = self.opt_level
        if self.vector_width is not None:
            out["cpu"], out["features"] = VECTOR_CPUS[self.vector_width], ""
        if self.library is not None:
            out["library"] = self.library
        return out


def _tune(p: Pipeline, ch: Changes) -> None:
    """Set the rules and heuristics on every pass of `p` they apply to (in place: `p` is a copy)."""
    algsimp = tuple(r for r in ch.disable_rules if r in algsimp_rules())
    fusion = tuple(r for r in ch.disable_rules if r in HEURISTIC_RULES)
    for step in p.passes:
        if isinstance(step, Pipeline):
            _tune(step, ch)
        elif isinstance(step, AlgebraicSimplifier) and algsimp:
            step.disabled = tuple(dict.fromkeys(step.disabled + algsimp))
        elif isinstance(step, InstructionFusion):
            step.disabled_rules = tuple(dict.fromkeys(step.disabled_rules + fusion))
            if ch.max_operands is not None:
                step.max_operands = ch.max_operands
            if ch.duplicate is not None:
                step.may_duplicate = ch.duplicate
            if ch.duplicate_expensive is not None:
                step.duplicate_expensive = ch.duplicate_expensive
        elif isinstance(step, MultiOutputFusion) and ch.max_operands is not None:
            step.max_operands = ch.max_operands


def algsimp_rules() -> list[str]:
    """Every algsimp rule's name, in table order."""
    names = [rule.__name__ for rules in default_rules().values() for rule in rules]
    return list(dict.fromkeys(names))


def known_rules() -> set[str]:
    return set(algsimp_rules()) | set(HEURISTIC_RULES)
