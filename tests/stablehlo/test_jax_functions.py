"""A JAX function given to hloscope as it is: `hloscope.compile(f, *args)` and
`hloscope.explore(f, *args)` lower it through JAX to StableHLO and compile it with hloscope's
own pipeline; the kernels keep the user's source lines. Checked against JAX's own outputs."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import hloscope
from hloscope.stablehlo.from_jax import is_jax_function

jax = pytest.importorskip("jax")
jnp = jax.numpy


def mlp(params, x):
    h = jnp.tanh(x @ params["w1"] + params["b1"])
    return jax.nn.log_softmax(h @ params["w2"], axis=-1)


def _params():
    rng = np.random.default_rng(3)
    return ({"w1": rng.standard_normal((8, 16)).astype(np.float32), "b1": np.zeros(16, np.float32),
             "w2": rng.standard_normal((16, 4)).astype(np.float32)},
            rng.standard_normal((5, 8)).astype(np.float32))


def numpy_style(x):
    return np.tanh(x) * 2


def test_what_counts_as_a_jax_function():
    assert is_jax_function(mlp) and is_jax_function(jax.jit(mlp))
    assert is_jax_function(lambda p, x: mlp(p, x))  # through the function it calls
    assert not is_jax_function(numpy_style) and not is_jax_function(np.tanh)


def test_compile_a_jax_function_with_a_pytree_of_arguments():
    params, x = _params()
    exe = hloscope.compile(mlp, params, x)
    leaves = jax.tree_util.tree_leaves((params, x))  # the executable takes the flat leaves
    np.testing.assert_allclose(exe(*leaves), np.asarray(jax.jit(mlp)(params, x)), rtol=1e-5, atol=1e-5)
    first = exe.report.stages[0]
    assert first.name == "legalize StableHLO to HLO" and "jax.jit(mlp).lower" in first.note


def test_a_jitted_function_compiles_too():
    params, x = _params()
    exe = hloscope.compile(jax.jit(mlp), params, x)
    np.testing.assert_allclose(exe(*jax.tree_util.tree_leaves((params, x))), np.asarray(mlp(params, x)),
                               rtol=1e-5, atol=1e-5)


def test_a_numpy_style_function_is_still_traced_by_hloscope():
    exe = hloscope.compile(numpy_style, np.ones(3, np.float32))
    assert exe.report.stages[0].name == "trace"
    np.testing.assert_allclose(exe(np.ones(3, np.float32)), np.tanh(1.0) * 2, rtol=1e-6)


def test_explore_a_jax_function_shows_the_legalization_and_source_lines():
    from hloscope.viz.ir_text import LEGALIZATION, available_views, kernel_rows

    params, x = _params()
    explorer = hloscope.explore(mlp, params, x)
    try:
        report = explorer.report
        assert report.done and not report.failed, report.summary()
        assert LEGALIZATION in available_views(report)
        np.testing.assert_allclose(np.asarray(report.outputs), np.asarray(mlp(params, x)), rtol=1e-5, atol=1e-5)
        _, first = inspect.getsourcelines(mlp)
        sources = {s for r in kernel_rows(report.module, report.kernels) for s in r.sources}
        assert any(f"test_jax_functions.py:{first + 1}" in s for s in sources), sources
    finally:
        explorer.close()


def test_a_function_jax_cannot_lower_is_said_by_name():
    def bad(x):
        return jnp.reshape(x, (7,))

    with pytest.raises(hloscope.HloscopeError, match=r"JAX could not lower bad: .*reshape"):
        hloscope.compile(bad, np.ones(4, np.float32))
