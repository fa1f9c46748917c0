"""Which reducer computations are provably associative (so a fold may be regrouped).

HLO's reduce and reduce-window leave the order of a reduction unspecified and XLA assumes
every reducer is associative (its ReduceWindowRewriter turns long windows into a tree
scan for any reducer). hloscope regroups only what it recognizes:

  one binary op of the two parameters     add multiply maximum minimum and or xor
  logaddexp as jax builds it              select(ne(a-b, a-b), a+b, max(a,b) + log1p(exp(-|a-b|)))

Anything else keeps the exact window order. A float regrouping changes rounding (the
tolerance of the result checks covers it, and XLA reassociates the same way).
"""

from __future__ import annotations

from ..ir.computation import Computation
from ..ir.module import HloModule
from .elemental_reduce import simple_reducer

# logaddexp(p0, p1) (jax.lax.cumlogsumexp's reducer), in expression() form. logaddexp is
# commutative, so the same text with p0 and p1 swapped is accepted too.
_LOGADDEXP = ("select(compare[NE](subtract(p0,p1),subtract(p0,p1)),add(p0,p1),"
              "add(maximum(p0,p1),log-plus-one(exponential(negate(abs(subtract(p0,p1)))))))")


def expression(comp: Computation, name: str | None = None) -> str:
    """The computation's root as one nested text, parameters named p0, p1, ... (no constants,
    no attributes but a compare's direction): `add(p0,p1)`."""
    inst = comp[name or comp.root]
    if inst.opcode == "parameter":
        return f"p{inst.parameter_number}"
    head = inst.opcode + (f"[{inst.attr('direction')}]" if inst.opcode == "compare" else "")
    if inst.opcode not in _PURE:
        return f"?{inst.opcode}"
    return f"{head}({','.join(expression(comp, o) for o in inst.operands)})"


_PURE = {"add", "subtract", "multiply", "maximum", "minimum", "abs", "negate", "exponential",
         "log-plus-one", "compare", "select", "and", "or", "xor"}


def _swapped(text: str) -> str:
    return text.replace("p0", "p#").replace("p1", "p0").replace("p#", "p1")


def is_associative(hlo: HloModule, computation: str) -> bool:
    """Is the two-parameter reducer `computation` one hloscope knows to be associative?"""
    if simple_reducer(hlo, computation) is not None:
        return True
    comp = hlo.computation(computation)
    if len(comp.parameters) != 2:
        return False
    text = expression(comp)
    return text in (_LOGADDEXP, _swapped(_LOGADDEXP))
