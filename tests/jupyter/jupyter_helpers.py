"""Shared inputs for the Jupyter-layer tests (a uniquely named module, not conftest.py, so
`import` cannot pick up another folder's conftest)."""

from __future__ import annotations

import numpy as np

SCALE_HLO = """HloModule scale

ENTRY main {
  x = f32[4,8] parameter(0)
  two = f32[] constant(2)
  twos = f32[4,8] broadcast(two), dimensions={}
  ROOT y = f32[4,8] multiply(x, twos)
}
"""

# The CPU backend cannot lower a custom call it does not know: a stage that fails after parsing.
CUSTOM_CALL_HLO = """HloModule cc

ENTRY main {
  x = f32[4,8] parameter(0)
  ROOT y = f32[4,8] custom-call(x), custom_call_target="my_kernel"
}
"""


def softmax(x):
    m = x.max(axis=1, keepdims=True)
    e = np.exp(x - m)
    return e / e.sum(axis=1, keepdims=True)
