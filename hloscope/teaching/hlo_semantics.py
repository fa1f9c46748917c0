"""The exercise checks of notebook 02, "HLO semantics": each answer is put into a module,
which the evaluator runs; the values decide."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import HloscopeError
from ..evaluator import evaluate
from ..ir.parser import parse_hlo
from .exercises import Wrong, close_to, exercise

SCALE_COLUMNS = """
HloModule scale_columns

ENTRY main {{
  x = f32[4,4] parameter(0)
  s = f32[4] parameter(1)
  sb = f32[4,4] broadcast(s), dimensions={{{dims}}}
  ROOT out = f32[4,4] multiply(x, sb)
}}
"""

PAIRWISE = """
HloModule pairwise

ENTRY main {{
  p = f32[2,3,5] parameter(0)
  q = f32[2,4,5] parameter(1)
  ROOT out = f32[2,3,4] dot(p, q), lhs_batch_dims={{{0}}}, rhs_batch_dims={{{1}}}, lhs_contracting_dims={{{2}}}, rhs_contracting_dims={{{3}}}
}}
"""


def dims_text(dims: Any) -> str:
    """A dimension list as HLO writes it inside braces: "1", 1 and (0, 1) are all accepted."""
    if isinstance(dims, (tuple, list)):
        return ",".join(str(d) for d in dims)
    return str(dims).strip().strip("{}")


def _run(text: str, *args: np.ndarray) -> Any:
    try:
        return evaluate(parse_hlo(text).verify(), *args)
    except HloscopeError as e:
        raise Wrong(f"the module is not valid HLO ({type(e).__name__}: {str(e).splitlines()[0]})") from None


def check_scale_columns(broadcast_dims: Any) -> None:
    """`broadcast_dims` makes `multiply(x, broadcast(s))` scale column j of x by s[j]."""
    rng = np.random.default_rng(2)
    x = rng.standard_normal((4, 4)).astype(np.float32)
    s = np.array([1, 10, 100, 1000], np.float32)

    def rule(dims: Any) -> bool | str:
        got = _run(SCALE_COLUMNS.format(dims=dims_text(dims)), x, s)
        if np.allclose(got, x * s[:, None]):
            raise Wrong("this scales row i by s[i]: the broadcast maps s onto the other dimension")
        return close_to(x * s[None, :])(got)

    exercise("scale_columns multiplies column j by s[j]", broadcast_dims, rule,
             hint="`dimensions` says which output dimension each dimension of s becomes")


def check_pairwise(dims: tuple[Any, Any, Any, Any]) -> None:
    """`dims` = (lhs_batch, rhs_batch, lhs_contracting, rhs_contracting) make the dot compute
    einsum('bij,bkj->bik', p, q)."""
    rng = np.random.default_rng(3)
    p = rng.standard_normal((2, 3, 5)).astype(np.float32)
    q = rng.standard_normal((2, 4, 5)).astype(np.float32)

    def rule(answer: Any) -> bool | str:
        if not isinstance(answer, (tuple, list)) or len(answer) != 4:
            raise Wrong("answer with four dimension lists: (lhs_batch, rhs_batch, lhs_contracting, rhs_contracting)")
        got = _run(PAIRWISE.format(*(dims_text(d) for d in answer)), p, q)
        return close_to(np.einsum("bij,bkj->bik", p, q), rtol=1e-4, atol=1e-5)(got)

    exercise("pairwise is einsum('bij,bkj->bik')", dims, rule,
             hint="b is a batch dimension of both operands; j is summed: find its position in p and in q")
