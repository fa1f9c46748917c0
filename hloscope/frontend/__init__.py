"""The frontend: numpy-style Python traced to HLO.

    Jitted(fn, compiler)              trace per signature, compile, cache, run (hloscope.jit
                                      makes one with hloscope's compiler)
    cond, switch, while_loop, fori_loop   control flow on traced values
    grad, value_and_grad, vjp, jvp, stop_gradient   derivatives (autodiff/)

Files, in the order a call goes through them: jit.py (signatures, cache), staging.py
(parameters in, outputs out), trace.py (frames and recorded operations), tracer.py (the
Tracer and numpy's dispatch protocols), registry.py (numpy function -> rule), rules/ (the
lowering rules, by kind), ops.py (single HLO instructions on tracers), control.py, listing.py
(the readable trace), abstract.py (shapes and dtypes), pytree.py, source.py, errors.py.
"""

from .autodiff import NotDifferentiableError, float0, grad, jvp, stop_gradient, value_and_grad, vjp
from .control import cond, fori_loop, switch, while_loop
from .errors import ConcretizationError, ShapeError, TracerLeakError, UnsupportedError
from .jit import CacheInfo, Jitted
from .listing import Program

__all__ = [
    "CacheInfo", "ConcretizationError", "Jitted", "NotDifferentiableError", "Program", "ShapeError",
    "TracerLeakError", "UnsupportedError", "cond", "float0", "fori_loop", "grad", "jvp", "stop_gradient",
    "switch", "value_and_grad", "vjp", "while_loop",
]
