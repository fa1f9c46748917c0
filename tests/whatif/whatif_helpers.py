"""Programs the what-if tests compile: softmax (fusion matters), and a module with `x + 0`."""

from __future__ import annotations

import numpy as np

import hloscope

ADD_ZERO_HLO = """
HloModule add_zero

ENTRY main {
  x = f32[64]{0} parameter(0)
  zero = f32[] constant(0)
  zeros = f32[64]{0} broadcast(zero), dimensions={}
  plus = f32[64]{0} add(x, zeros)
  ROOT out = f32[64]{0} multiply(plus, plus)
}
"""


def softmax(x):
    m = x.max(axis=1, keepdims=True)
    e = np.exp(x - m)
    return e / e.sum(axis=1, keepdims=True)


def compiled_softmax(shape: tuple[int, int]):
    """(executable, input): softmax traced and compiled for one f32 input of `shape`."""
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    module, _, _ = hloscope.jit(softmax).specialize(x)
    return hloscope.compile(module), x


def opcodes(module) -> list[str]:
    """Every instruction's opcode, fused computations included."""
    return [inst.opcode for _, inst in module.all_instructions()]
