"""StableHLO as the installed JAX prints it today, legalized by hloscope (hloscope/stablehlo):
programs chosen to reach the operations and forms the library corpus does not (case and if,
sort and argsort, variadic reduce, reduce_window, select_and_scatter, gather and scatter,
strided and dilated convolutions, random bits, erf, top_k, loops that use outer values), each
printed both ways JAX can print it: the pretty form with locations, and the generic form.

The ruler is JAX itself: each legalized module must evaluate and compile to JAX's outputs.
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import hloscope
from hloscope.stablehlo import read

jax = pytest.importorskip("jax")
jnp = jax.numpy
lax = jax.lax


def _rng(seed: int = 0) -> np.random.Generator:
    return np.random.default_rng(seed)


def _normal(*shape: int, seed: int = 0) -> np.ndarray:
    return _rng(seed).standard_normal(shape).astype(np.float32)


def cond_and_sort(x, w):
    y = jnp.tanh(x @ w)
    z = lax.cond(y.sum() > 0, lambda a: a * 2, lambda a: a - 1, y)
    return jnp.sort(z, axis=1), jnp.argmax(z, axis=1), jnp.clip(z, -0.5, 0.5), jnp.round(z), lax.erf(z)


def switch_three(i, x):
    return lax.switch(i, [lambda v: v + 1, lambda v: v * v, lambda v: -v], x)


def pooling_and_its_gradient(x):
    def pool(v):
        return lax.reduce_window(v, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID").sum()

    return lax.reduce_window(x, 0.0, lax.add, (1, 3, 3, 1), (1, 1, 1, 1), "SAME"), jax.grad(pool)(x)


def convolutions(x, k, kd):
    strided = lax.conv_general_dilated(x, k, (2, 2), [(1, 1), (0, 1)], dimension_numbers=("NHWC", "HWIO", "NHWC"))
    dilated = lax.conv_general_dilated(x, k, (1, 1), "SAME", rhs_dilation=(2, 1),
                                       dimension_numbers=("NHWC", "HWIO", "NHWC"))
    transposed = lax.conv_transpose(x, k, (2, 2), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
    depthwise = lax.conv_general_dilated(x, kd, (1, 1), "SAME", feature_group_count=4,
                                         dimension_numbers=("NHWC", "HWIO", "NHWC"))
    return strided, dilated, transposed, depthwise


def gather_and_scatter(table, idx, updates):
    rows = table[idx]
    added = table.at[idx].add(updates)
    maxed = table.at[idx, 1].max(updates[:, 0])
    return rows, added, maxed, jnp.take_along_axis(table, jnp.argsort(table, axis=1), axis=1)


def random_bits(key_data, x):
    key = jax.random.wrap_key_data(key_data)
    return jax.random.normal(key, (4, 8)) + x, jax.random.bits(key, (16,), dtype=jnp.uint32)


def loop_uses_outer_values(x, n):
    scale = jnp.float32(1.5)
    bias = x.mean()

    def body(i, carry):
        return carry * scale + bias + i

    return lax.fori_loop(0, n, body, x), lax.scan(lambda c, v: (c + v * scale, c * bias), x[0], x)


def integers_and_bits(a, b):
    return (a >> 2, a << 1, a & b, a | b, a ^ b, lax.population_count(a), a % 7, jnp.right_shift(b, 3),
            lax.shift_right_logical(a, 1), (a > b).astype(jnp.int8))


def elementwise_math(x, y):
    return (jnp.expm1(x), jnp.log1p(jnp.abs(x)), jax.nn.sigmoid(x), jnp.isfinite(x / y), jnp.arctan2(x, y),
            jnp.sign(x), jnp.floor(x), jnp.ceil(x), x ** 3, jnp.power(jnp.abs(x), y), jnp.remainder(x, 0.7),
            jnp.where(x > 0, x, 0.1 * x), x.astype(jnp.bfloat16).astype(jnp.float32), lax.rsqrt(jnp.abs(y) + 1))


def shapes_and_slices(x):
    return (jnp.pad(x, ((1, 2), (0, 3))), lax.pad(x, 0.0, ((0, 0, 1), (-1, 1, 0))), x[::-1, 1:7:2], x.T,
            jnp.concatenate([x, x * 2], axis=0), lax.dynamic_slice(x, (1, 2), (2, 3)),
            lax.dynamic_update_slice(x, jnp.ones((2, 2), x.dtype), (3, 4)), jnp.reshape(x, (8, 4)),
            jnp.flip(x, 1), jnp.arange(12).reshape(3, 4), jnp.broadcast_to(x[:, :1], (4, 8)))


def batched_dots_and_topk(a, b):
    return jnp.einsum("bij,bjk->bik", a, b), jnp.einsum("bij,j->bi", a, b[0, :, 0]), lax.top_k(a[0], 3), \
        lax.optimization_barrier(a * 2)


def softmax_layernorm(x, g):
    y = jax.nn.softmax(x, axis=-1)
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return y, (x - mean) * lax.rsqrt(var + 1e-5) * g, jax.nn.logsumexp(x, axis=0), jnp.cumsum(x, axis=1)


PROGRAMS = {
    "cond_and_sort": (cond_and_sort, lambda: (_normal(4, 8), _normal(8, 8, seed=1))),
    "switch_three": (switch_three, lambda: (np.int32(1), _normal(5))),
    "switch_out_of_range": (switch_three, lambda: (np.int32(7), _normal(5))),
    "pooling_and_its_gradient": (pooling_and_its_gradient, lambda: (_normal(2, 6, 6, 3),)),
    "convolutions": (convolutions, lambda: (_normal(2, 7, 6, 4), _normal(3, 2, 4, 5, seed=1),
                                            _normal(3, 3, 1, 8, seed=2))),
    "gather_and_scatter": (gather_and_scatter, lambda: (_normal(6, 4), np.array([4, 0, 4, 2], np.int32),
                                                        _normal(4, 4, seed=1))),
    "random_bits": (random_bits, lambda: (np.array([0, 42], np.uint32), _normal(4, 8))),
    "loop_uses_outer_values": (loop_uses_outer_values, lambda: (_normal(3, 4), np.int32(5))),
    "integers_and_bits": (integers_and_bits, lambda: (_rng(0).integers(-1000, 1000, (3, 5)).astype(np.int32),
                                                      _rng(1).integers(-1000, 1000, (3, 5)).astype(np.int32))),
    "elementwise_math": (elementwise_math, lambda: (_normal(3, 5), _normal(3, 5, seed=1))),
    "shapes_and_slices": (shapes_and_slices, lambda: (_normal(4, 8),)),
    "batched_dots_and_topk": (batched_dots_and_topk, lambda: (_normal(2, 3, 4), _normal(2, 4, 5, seed=1))),
    "softmax_layernorm": (softmax_layernorm, lambda: (_normal(4, 16), _normal(16, seed=1))),
}


def _flat(value) -> list[np.ndarray]:
    if isinstance(value, (tuple, list)):
        return [a for v in value for a in _flat(v)]
    return [np.asarray(value)]


def _texts(fn, args) -> dict[str, str]:
    lowered = jax.jit(fn).lower(*args)
    module = lowered.compiler_ir("stablehlo")
    return {"pretty": lowered.as_text(debug_info=True),
            "generic": module.operation.get_asm(print_generic_op_form=True, enable_debug_info=True)}


def _assert_close(got, want, name: str) -> None:
    got, want = _flat(got), _flat(want)
    assert len(got) == len(want), name
    for i, (g, w) in enumerate(zip(got, want)):
        w = np.asarray(w)
        assert g.shape == w.shape and g.dtype == w.dtype, f"{name} out{i}: {g.shape} {g.dtype} vs {w.shape} {w.dtype}"
        if w.dtype.kind in "fc" or w.dtype.name == "bfloat16":
            np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=2e-5, atol=2e-5,
                                       err_msg=f"{name} out{i}")
        else:
            np.testing.assert_array_equal(g, w, err_msg=f"{name} out{i}")


@pytest.mark.parametrize("form", ["pretty", "generic"])
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_jax_stablehlo_evaluates_and_compiles_to_jaxs_outputs(name, form):
    fn, make = PROGRAMS[name]
    args = make()
    want = jax.jit(fn)(*args)
    reading = read(_texts(fn, args)[form])
    assert reading.form == form and reading.dialect == "StableHLO"
    reading.module.verify()
    _assert_close(hloscope.evaluate(reading.module, *args), want, f"{name} evaluated")
    _assert_close(hloscope.compile(reading.module, cache=False)(*args), want, f"{name} compiled")


def test_each_instruction_points_at_the_users_source_line():
    fn, make = PROGRAMS["softmax_layernorm"]
    reading = read(_texts(fn, make())["pretty"])
    lines, first = inspect.getsourcelines(softmax_layernorm)
    where = {link.source.line for link in reading.links if link.source.file == __file__}
    assert where & set(range(first, first + len(lines)))
    rsqrt = [link for link in reading.links if link.opcode == "rsqrt"]
    assert rsqrt and all(link.source.line == first + 4 for link in rsqrt)  # the layer norm's line
    assert all(link.source.op_name and "rsqrt" in link.source.op_name for link in rsqrt)
    text = reading.module.to_text()
    assert f"source_line={first + 4}" in text


def test_every_mlir_operation_is_linked_to_the_hlo_it_became():
    fn, make = PROGRAMS["cond_and_sort"]
    reading = read(_texts(fn, make())["pretty"])
    mlir_lines = reading.mlir_text.splitlines()
    linked = {link.mlir_line for link in reading.links}
    for number in linked:
        assert any(word in mlir_lines[number - 1] for word in ("stablehlo.", "chlo.", "call @"))
    operations = [i + 1 for i, line in enumerate(mlir_lines)
                  if "= stablehlo." in line or '= "stablehlo.' in line or "= call @" in line]
    assert set(operations) <= linked
    instructions = {inst.name for comp in reading.module for inst in comp.instructions}
    assert {link.instruction for link in reading.links} <= instructions
