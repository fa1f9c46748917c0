"""Automatic differentiation of traced programs: `grad`, `value_and_grad`, `vjp`, `jvp`,
`stop_gradient` (api.py), with JAX's semantics.

Files: api.py (the public functions; tracing f into the current computation), backward.py
(the reverse sweep), forward.py (forward mode from the same rules), registry.py (opcode ->
VJP rule), rules/ (the rules by kind: elementwise, structure, reductions, linalg, control),
inline.py (a computation re-emitted, for control flow), cotangents.py (symbolic zeros and
sums), scopes.py (jvp(f) / transpose(jvp(f)) op_names, so views can tell the passes apart).
"""

from . import rules  # noqa: F401  (registers every rule)
from .api import float0, grad, jvp, stop_gradient, use_compiler, value_and_grad, vjp
from .backward import NotDifferentiableError
from .registry import VJP_RULES

__all__ = ["NotDifferentiableError", "VJP_RULES", "float0", "grad", "jvp", "stop_gradient", "use_compiler",
           "value_and_grad", "vjp"]
