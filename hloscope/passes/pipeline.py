"""Passes and pipelines: the pass manager.

A pass is a small object whose options are fields and whose `run(module, log)` returns a
new module, writing its decisions into `log`. The pipeline, not the pass, decides whether
anything changed (by comparing before and after), times each run, verifies the result, and
names the pass in any error. Pipelines nest, and a fixed-point pipeline repeats until nothing
changes or its iteration cap is reached.

XLA verifies after every pass that changes the module. Here that was half of the pipeline's
time on a GPT-2 training step (13 verifications, 143 of 304 ms), so the result is verified
once, and only when it is invalid (or a pass fails) do the passes run again from the input,
verifying after each one that changes it: the error still names the first pass that broke
the module, at the cost of a second run on failure only.
"""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass, field
from typing import Any, ClassVar, Union

from ..errors import HloscopeError, HloVerifierError
from ..ir.module import HloModule
from .record import DecisionLog, PassRecord


class PassError(HloscopeError):
    """A pass failed or left an invalid module; the message names the pass."""


class HloPass:
    """Base class of every pass. Subclasses set `name` (XLA's name where one exists),
    explain themselves in the class docstring, and implement `run`."""

    name: ClassVar[str] = "unnamed-pass"

    def run(self, module: HloModule, log: DecisionLog) -> HloModule:
        raise NotImplementedError

    @property
    def doc(self) -> str:
        return (type(self).__doc__ or "").strip()

    def __repr__(self) -> str:
        return f"<pass {self.name}>"


def timed_run(p: Any, program: Any, log: DecisionLog) -> tuple[Any, float]:
    """(p.run(program, log), its seconds): the one way a pass is run, over a module or
    auto-clustering's graph. A bug in the pass is a PassError naming it, its cause attached."""
    start = time.perf_counter()
    try:
        after = p.run(program, log)
    except HloscopeError:
        raise
    except Exception as e:
        raise PassError(f"pass {p.name} failed: {type(e).__name__}: {e}") from e
    return after, time.perf_counter() - start


def same_module(a: HloModule, b: HloModule) -> bool:
    """Whether two modules are structurally identical (fast: shares are compared by identity)."""
    if a is b:
        return True
    if (a.name, a.entry, len(a.computations)) != (b.name, b.entry, len(b.computations)):
        return False
    if a.attrs != b.attrs:
        return False
    for ca, cb in zip(a.computations, b.computations):
        if ca is cb:
            continue
        if (ca.name, ca.root, len(ca.instructions)) != (cb.name, cb.root, len(cb.instructions)):
            return False
        if ca.instructions != cb.instructions:
            return False
    return True


Step = Union[HloPass, "Pipeline"]  # what a pipeline holds: passes and sub-pipelines


@dataclass
class Pipeline:
    """An ordered list of passes and sub-pipelines. Edit it freely: it is plain data."""

    name: str
    passes: list[Step] = field(default_factory=list)
    fixed_point: bool = False
    max_iterations: int = 10
    verify: bool = True

    def run(self, module: HloModule, records: list[PassRecord] | None = None) -> HloModule:
        """Run every pass in order, appending a PassRecord per pass run to `records`; the
        result is verified (see the module docstring for when each pass's is)."""
        records = records if records is not None else []
        start = len(records)
        try:
            after = self._run(module, records, check_each=False)
            if self.verify and after is not module:
                after.verify()
            return after
        except (HloVerifierError, PassError):
            if not self.verify:
                raise
            del records[start:]
            self._run(module, records, check_each=True)  # raises, naming the first pass that broke it
            raise  # not reproduced pass by pass: the error as it came

    def _run(self, module: HloModule, records: list[PassRecord], check_each: bool) -> HloModule:
        for iteration in range(self.max_iterations if self.fixed_point else 1):
            changed = False
            for step in self.passes:
                before = module
                if isinstance(step, Pipeline):
                    module = step._run(module, records, check_each and step.verify)
                else:
                    module = self._run_pass(step, module, records, iteration, check_each)
                changed |= module is not before
            if not changed:
                break
        return module

    def _run_pass(self, p: HloPass, module: HloModule, records: list[PassRecord], iteration: int,
                  check: bool) -> HloModule:
        log = DecisionLog()
        after, seconds = timed_run(p, module, log)
        changed = not same_module(module, after)
        if not changed:
            after = module
        elif check:
            try:
                after.verify()
            except HloVerifierError as e:
                raise PassError(f"pass {p.name} produced an invalid module: {e}") from e
        records.append(PassRecord(p.name, self.name, changed, seconds, module, after,
                                  tuple(log.entries), p.doc, iteration))
        return after

    # ---- editing (return new pipelines; the named ones stay as they are) ----
    def copy(self) -> "Pipeline":
        return copy.deepcopy(self)

    def pass_names(self) -> list[str]:
        names: list[str] = []
        for step in self.passes:
            names.extend(step.pass_names() if isinstance(step, Pipeline) else [step.name])
        return names

    def without(self, *names: str) -> "Pipeline":
        """A copy with every pass (or sub-pipeline) of these names removed, at any depth."""
        kept: list[Step] = []
        for step in self.passes:
            if step.name in names:
                continue
            kept.append(step.without(*names) if isinstance(step, Pipeline) else step)
        return Pipeline(self.name, kept, self.fixed_point, self.max_iterations, self.verify)

    def inserted(self, new: Step, *, after: str | None = None, before: str | None = None) -> "Pipeline":
        """A copy with `new` placed after (or before) the first step named so, at top level;
        with neither, appended at the end."""
        steps = list(self.passes)
        anchor = after or before
        if anchor is None:
            steps.append(new)
        else:
            index = next((i for i, s in enumerate(steps) if s.name == anchor), None)
            if index is None:
                raise KeyError(f"pipeline {self.name!r} has no step named {anchor!r}")
            steps.insert(index + 1 if after else index, new)
        return Pipeline(self.name, steps, self.fixed_point, self.max_iterations, self.verify)

    def __str__(self) -> str:
        head = f"{self.name}" + (f" (fixed point, at most {self.max_iterations}x)" if self.fixed_point else "")
        lines = [head]
        for step in self.passes:
            sub = str(step) if isinstance(step, Pipeline) else step.name
            lines.extend("  " + line for line in sub.split("\n"))
        return "\n".join(lines)
