"""The derivative's instructions say which pass they belong to, as JAX names them: the forward
pass under `jvp(f)`, the backward under `transpose(jvp(f))`, each with the user's source line
of the forward operation (what the explorer groups and marks by)."""

from __future__ import annotations

import inspect

import numpy as np

import hloscope


def loss(w, x):
    return np.mean(np.tanh(x @ w) ** 2)


LINE = inspect.getsourcelines(loss)[1] + 1
W, X = np.ones((4, 2), np.float32), np.ones((3, 4), np.float32)


def _named(module):
    return [(i.opcode, i.metadata.op_name, i.metadata.source_line)
            for c in module.computations for i in c.instructions if i.metadata and i.metadata.op_name]


def test_forward_and_backward_instructions_carry_jvp_and_transpose_scopes():
    named = _named(hloscope.jit(hloscope.grad(loss)).lower(W, X))
    forward = [(op, line) for op, name, line in named if "/jvp(loss)/" in name and "transpose" not in name]
    backward = [(op, line) for op, name, line in named if "/transpose(jvp(loss))/" in name]
    assert ("dot", LINE) in forward and ("tanh", LINE) in forward
    assert [op for op, _ in backward].count("dot") == 2  # one per operand of x @ w
    assert all(line == LINE for _, line in forward + backward)
    assert any(name.endswith("transpose(jvp(loss))/tanh") for _, name, _ in named)


def test_forward_mode_instructions_carry_the_jvp_scope():
    def f(x):
        return np.sin(x) * x

    named = _named(hloscope.jit(lambda x, t: hloscope.jvp(f, (x,), (t,))).lower(X, X))
    assert any("jvp(f)/sin" in name for _, name, _ in named)
    assert not any("transpose" in name for _, name, _ in named)


def test_cotangent_sums_and_the_seed_belong_to_the_backward_pass():
    def uses_x_twice(x):
        return np.sum(np.sin(x) * x)

    named = _named(hloscope.jit(hloscope.grad(uses_x_twice)).lower(np.ones(8, np.float32)))
    line = inspect.getsourcelines(uses_x_twice)[1] + 1
    sums = [(name, src) for op, name, src in named if name.endswith("/add_any")]
    seeds = [(op, src) for op, name, src in named if name.endswith("/seed")]
    assert sums and all("transpose(jvp(uses_x_twice))" in name and src == line for name, src in sums)
    assert ("constant", line) in seeds  # grad's 1.0, made for the loss line
    assert not any(name.endswith("/arguments") and op in ("add", "constant") for op, name, _ in named)
