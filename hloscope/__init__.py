"""hloscope: an XLA-style compiler in Python, instrumented at every stage, to see how an ML
compiler works.

    parse_hlo(text) -> HloModule      XLA's HLO text syntax, both ways (module.to_text())
    module.verify()                   shape inference and consistency checks
    evaluate(module, *args)           the reference evaluator (ground truth for every stage)
    jit(fn)                           trace numpy-style Python to HLO, cached per signature
    optimize(module)                  XLA's passes, fusion, scheduling and a memory plan, all recorded
    explore(f, x, w)                  the notebook explorer widget (`%load_ext hloscope` for %%hlo)
"""

__version__ = "0.1.0"  # before the imports below: the compile cache keys on it

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
from .compiler import compile
from .frontend.errors import ShapeError
from .passes.bisect import bisect
from .passes.optimize import OptimizeResult, optimize
from .passes.pipelines import pipelines


def evaluate(module, *args):
    """Run `module` on numpy arguments with the reference evaluator; see hloscope.evaluator."""
    from .evaluator import evaluate as _evaluate

    return _evaluate(module, *args)


def explore(target, *args, **options):
    """The explorer widget for `target(*args)` or an HLO module; see hloscope.jupyter.explore."""
    from .jupyter import explore as _explore

    return _explore(target, *args, **options)


def load_ipython_extension(ipython) -> None:
    """`%load_ext hloscope` registers the %%hlo cell magic (hloscope.jupyter.magic)."""
    from .jupyter import load_ipython_extension as _load

    _load(ipython)


__all__ = [
    "EvaluationError", "HloModule", "HloParseError", "HloVerifierError", "HloscopeError",
    "NotSupportedError", "OptimizeResult", "ShapeError", "UnsupportedError", "bisect", "compile",
    "cond", "evaluate", "explore", "fori_loop", "jit", "numpy", "optimize", "parse_hlo",
    "parse_shape", "pipelines", "switch", "while_loop",
]
