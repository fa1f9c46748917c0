"""The course's running example (a transformer block) computes the same through numpy, hloscope's
native code and the evaluator, and its gradient matches a central difference."""

from __future__ import annotations

import numpy as np

import hloscope
from hloscope.teaching.running_example import block_inputs, block_loss, transformer_block


def test_native_code_and_the_evaluator_match_numpy():
    x, params = block_inputs()
    want = transformer_block(x.astype(np.float64), tuple(p.astype(np.float64) for p in params))
    np.testing.assert_allclose(hloscope.jit(transformer_block)(x, params), want, rtol=1e-4, atol=1e-5)
    module = hloscope.jit(transformer_block).lower(x, params)
    np.testing.assert_allclose(hloscope.evaluate(module, x, *params), want, rtol=1e-4, atol=1e-5)


def test_the_gradient_matches_a_central_difference():
    x, params = block_inputs(seed=3)
    target = np.zeros_like(x)
    _, grads = hloscope.jit(hloscope.value_and_grad(block_loss))(params, x, target)
    p64 = [p.astype(np.float64) for p in params]
    for index, at in [(2, (0, 1)), (7, (3, 4)), (9, (5,))]:
        bump = np.zeros_like(p64[index])
        bump[at] = 1e-4
        moved = [p64[:index] + [p64[index] + s * bump] + p64[index + 1:] for s in (1, -1)]
        central = (block_loss(tuple(moved[0]), x.astype(np.float64), target)
                   - block_loss(tuple(moved[1]), x.astype(np.float64), target)) / 2e-4
        np.testing.assert_allclose(grads[index][at], central, rtol=2e-3, atol=1e-6)
