"""The stages every backend shares before lowering: parse, optimize, plan, each timed.

The CPU compiler (hloscope/compiler.py) and the GPU compiler (hloscope/backend/gpu/compiler.py)
both run these, then lower the same scheduled module and memory plan for their target.
"""

from __future__ import annotations

import time
from contextlib import contextmanager

from ..ir.module import HloModule
from .report import Stage


@contextmanager
def timed_stage(report, name: str, note: str = ""):
    """Append a Stage with the wall time of the `with` body to `report.stages`."""
    start = time.perf_counter()
    yield
    report.stages.append(Stage(name, time.perf_counter() - start, note))


def parse_module(module):
    """An HloModule as given, or parsed from HLO text."""
    if isinstance(module, str):
        from ..ir import parse_hlo

        return parse_hlo(module)
    return module


def optimize_module(module: HloModule, pipeline):
    """(optimized module, OptimizeResult), or the module unchanged and None for pipeline "none"."""
    if pipeline == "none":
        return module, None
    from ..passes.optimize import optimize

    result = optimize(module, pipeline)
    return result.module, result


def memory_plan_for(result, module: HloModule):
    """The optimize result's memory plan, or a fresh one for an already scheduled module."""
    plan = getattr(result, "memory_plan", None)
    if plan is None and module.is_scheduled:
        from ..memory import plan_memory

        plan = plan_memory(module)
    return plan
