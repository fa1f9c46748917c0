"""The exercise checks of notebook 01, "from Python to HLO"."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ..compiler import jit
from ..evaluator import evaluate
from ..ir.module import HloModule
from .exercises import Wrong, close_to, equal_to, exercise, still_unanswered


def check_relu_row_sums(fn: Callable[[Any], Any]) -> None:
    """`fn(x)`: a ReLU then one sum per row. Judged by running its traced HLO on an input with
    negative entries, so any spelling of the ReLU (maximum, where, clip...) is right."""
    x = np.random.default_rng(7).standard_normal((5, 7)).astype(np.float32)

    def rule(f: Any) -> bool | str:
        if not callable(f):
            raise Wrong("relu_row_sums should be a function of x")
        still_unanswered(f(x))
        got = evaluate(jit(f).lower(x), x)
        if np.shape(got) == (x.shape[1],):
            raise Wrong(f"a ({x.shape[0]}, {x.shape[1]}) input gave {x.shape[1]} numbers, one per column")
        if np.allclose(np.asarray(got), x.sum(axis=1), rtol=1e-5, atol=1e-5):
            raise Wrong("these are the row sums of x itself: the negative entries were not replaced by 0")
        return close_to(np.maximum(x, 0).sum(axis=1), rtol=1e-5, atol=1e-5)(got)

    exercise("relu_row_sums, traced and run on an input with negative entries", fn, rule,
             hint="the ReLU keeps positive entries and puts 0 for negative ones; 'each row' is the last axis")


def check_reduce_count(module: HloModule, answer: int) -> None:
    """How many `reduce` instructions `module`'s ENTRY computation has."""
    entry = [i.opcode for i in module.entry_computation]
    exercise("the number of reduce instructions in the ENTRY", answer, equal_to(entry.count("reduce")),
             hint="count the lines whose opcode (the word before the parenthesis) is reduce, in ENTRY only")
