"""hloscope: an XLA-style compiler in Python, instrumented at every stage, to see how an ML
compiler works.

    parse_hlo(text) -> HloModule      XLA's HLO text syntax, both ways (module.to_text())
    module.verify()                   shape inference and consistency checks
    evaluate(module, *args)           the reference evaluator (ground truth for every stage)
    jit(fn)                           trace numpy-style Python to HLO, cached per signature
    optimize(module)                  XLA's passes, fusion, scheduling and a memory plan, all recorded
"""

from .errors import (
    EvaluationError,
    HloParseError,
    HloscopeError,
    HloVerifierError,
    NotSupportedError,
    UnsupportedError,
)
from .ir import HloModule, parse_hlo, parse_shape
from . import numpy  # noqa: F401  the explicit namespace: hloscope.numpy
from .frontend import cond, fori_loop, jit, switch, while_loop
from .frontend.errors import ShapeError
from .passes.bisect import bisect
from .passes.optimize import OptimizeResult, optimize
from .passes.pipelines import pipelines


def evaluate(module, *args):
    """Run `module` on numpy arguments with the reference evaluator; see hloscope.evaluator."""
    from .evaluator import evaluate as _evaluate

    return _evaluate(module, *args)


__version__ = "0.1.0"

__all__ = [
    "EvaluationError", "HloModule", "HloParseError", "HloVerifierError", "HloscopeError",
    "NotSupportedError", "OptimizeResult", "ShapeError", "UnsupportedError", "bisect", "cond", "evaluate", "fori_loop", "jit",
    "numpy", "optimize", "parse_hlo", "parse_shape", "pipelines", "switch", "while_loop",
]
