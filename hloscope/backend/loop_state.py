"""What a while loop's body does with its state, for every target's loops.

A loop runs its body on the state and makes the body's result the next state. The body
reads the state while it writes the next one, so the next state needs buffers of its own
and a copy back, except for a leaf the body returns unchanged: that one is its own next.
"""

from __future__ import annotations

from ..ir.computation import Computation
from .buffers import assign_buffers


def passed_through(body: Computation) -> set[int]:
    """State leaves the loop body returns unchanged (ROOT tuple(..., gte(state, k), ...) at
    position k). They need no buffer for the next state and no copy back: the body's "next"
    for them is the state itself (what XLA's copy insertion would leave unaliased)."""
    sub = assign_buffers(body, None)
    return {dst.slot for src, dst in sub.output_copies if src.kind == "param" and src.slot == dst.slot}
