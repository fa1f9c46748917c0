"""The functions the autodiff tests differentiate, written once for two array libraries.

Each case is `make(xp) -> f`: with `xp = NUMPY` it is numpy code as users write it for
hloscope.jit (and runs eagerly, for the finite differences); with `xp = jax_namespace()` the
same code runs under jax.grad. Together the cases use every lowering rule of
hloscope/frontend/rules/ that makes a float result (test_registry_coverage.py checks that the
HLO opcodes they lower to cover every differentiable opcode the tracer emits).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

import hloscope.numpy as hnp
from hloscope.frontend import cond, fori_loop, switch


class _Numpy:
    """numpy, plus the few names numpy lacks (erf, sigmoid, control flow, cummax), and
    hloscope.numpy's full and asarray (numpy cannot dispatch them on a traced scalar)."""

    full = staticmethod(hnp.full)
    asarray = staticmethod(hnp.asarray)
    erf = staticmethod(hnp.erf)
    sigmoid = staticmethod(hnp.sigmoid)
    cond = staticmethod(cond)
    switch = staticmethod(switch)
    fori_loop = staticmethod(fori_loop)

    @staticmethod
    def cummax(x, axis):
        return np.maximum.accumulate(x, axis=axis)

    @staticmethod
    def cummin(x, axis):
        return np.minimum.accumulate(x, axis=axis)

    def __getattr__(self, name):
        return getattr(np, name)


NUMPY: Any = _Numpy()


def jax_namespace() -> Any:
    """The same names from jax (imported only when a test compares with it)."""
    import jax
    import jax.numpy as jnp

    class _Jax:
        erf = staticmethod(jax.scipy.special.erf)
        sigmoid = staticmethod(jax.nn.sigmoid)
        cond = staticmethod(jax.lax.cond)
        switch = staticmethod(jax.lax.switch)
        fori_loop = staticmethod(jax.lax.fori_loop)

        @staticmethod
        def cummax(x, axis):
            return jax.lax.cummax(x, axis=axis)

        @staticmethod
        def cummin(x, axis):
            return jax.lax.cummin(x, axis=axis)

        def __getattr__(self, name):
            return getattr(jnp, name)

    return _Jax()


@dataclass(frozen=True)
class Case:
    name: str
    make: Callable[[Any], Callable]
    args: tuple

    @property
    def argnums(self) -> tuple[int, ...]:
        """The float arguments: the ones differentiated."""
        return tuple(i for i, a in enumerate(self.args) if np.asarray(a).dtype.kind == "f")

    def args_as(self, dtype) -> tuple:
        return tuple(np.asarray(a, dtype) if np.asarray(a).dtype.kind == "f" else a for a in self.args)


_rng = np.random.default_rng(0)
A = _rng.standard_normal((3, 4))
B = _rng.standard_normal((4, 5))
V = _rng.standard_normal(4)
COL = _rng.standard_normal((3, 1))
POS = _rng.uniform(0.5, 2.0, (3, 4))
BATCH = _rng.standard_normal((2, 3, 4))
TIES = np.where(A > 0.3, A, 0.1)  # equal to A where A > 0.3: maximum's ties split evenly
W = _rng.standard_normal((4, 4)) * 0.5
LOW = np.stack([np.full(4, 0.8), A[1], np.full(4, -0.3)])  # above the upper bound 0.5; tied with A; below
ZEROS = np.array([[0.0, 1.5, 2.0, -1.0], [0.0, 0.0, 3.0, 0.5], [1.2, 0.7, -0.4, 2.0]])  # no, one, two zeros per row


def _weights(*shape):
    """Fixed, distinct weights so every position's cotangent differs."""
    return np.arange(np.prod(shape), dtype=np.float64).reshape(shape) / 10 - 1


CASES = [
    # elementwise math
    Case("sin_cos_exp_log", lambda xp: lambda x, p: xp.sum(xp.sin(x) * xp.cos(x) + xp.exp(x * 0.5) + xp.log(p)),
         (A, POS)),
    Case("tan", lambda xp: lambda x: xp.sum(xp.tan(x * 0.3)), (A,)),
    Case("tanh_negative", lambda xp: lambda x: xp.sum(xp.tanh(-x) * x), (A,)),
    Case("cbrt", lambda xp: lambda p: xp.sum(xp.cbrt(p)), (POS,)),
    Case("erf", lambda xp: lambda x: xp.sum(xp.erf(x) * x), (A,)),
    Case("sigmoid", lambda xp: lambda x: xp.sum(xp.sigmoid(x) ** 2), (A,)),
    Case("log1p_expm1", lambda xp: lambda x, p: xp.sum(xp.log1p(p) + xp.expm1(x)), (A, POS)),
    Case("arctan2", lambda xp: lambda x, p: xp.sum(xp.arctan2(x, p) + xp.arctan2(p, x)), (A, POS)),
    Case("arctan_arcsin_arccos",
         lambda xp: lambda x: xp.sum(xp.arctan(x) + xp.arcsin(x * 0.3) + x * xp.arccos(x * 0.3)), (A,)),
    Case("sinh_cosh", lambda xp: lambda x: xp.sum(xp.sinh(x) * xp.cosh(x * 0.5)), (A,)),
    Case("fmod_remainder", lambda xp: lambda x, p: xp.sum(xp.fmod(x * 3, p) + xp.remainder(x * 3, p) * x), (A, POS)),
    Case("power", lambda xp: lambda p, x: xp.sum(xp.power(p, x) + p ** 3 + p ** 0.5), (POS, A)),
    Case("exp2_log2_log10", lambda xp: lambda p: xp.sum(xp.exp2(p) + xp.log2(p) + xp.log10(p)), (POS,)),
    Case("sqrt_square_reciprocal", lambda xp: lambda p: xp.sum(xp.sqrt(p) + xp.square(p) + xp.reciprocal(p)), (POS,)),
    Case("divide_subtract", lambda xp: lambda x, p: xp.sum(x / p - p / (x * x + 1) - 2.0), (A, POS)),
    Case("abs_fabs_sign", lambda xp: lambda x: xp.sum(xp.abs(x) * x + xp.fabs(x) + xp.sign(x) * x), (A,)),
    Case("maximum_minimum_ties", lambda xp: lambda x, t: xp.sum(xp.maximum(x, t) + 2 * xp.minimum(x, t)), (A, TIES)),
    Case("clip", lambda xp: lambda x: xp.sum(xp.clip(x, -0.5, 0.5) ** 2 + xp.clip(x, 0.2, None)), (A,)),
    Case("clip_crossed_and_tied_bounds", lambda xp: lambda x, lo: xp.sum(xp.clip(x, lo, 0.5) * _weights(3, 4)), (A, LOW)),
    Case("where", lambda xp: lambda x: xp.sum(xp.where(x > 0, x ** 2, xp.sin(x)) + xp.where(x < 0.5, 1.0, x)), (A,)),
    Case("rounding_is_flat", lambda xp: lambda x: xp.sum(xp.round(x) + x * xp.floor(x) + xp.ceil(x) * x
                                                         + xp.trunc(x) + xp.rint(x) * x + xp.floor_divide(x, 0.7)), (A,)),
    Case("astype", lambda xp: lambda x: xp.sum(x.astype(x.dtype) * x + x.astype(np.int32) + (x > 0)), (A,)),
    # broadcasting
    Case("broadcasting", lambda xp: lambda x, v, c: xp.sum(xp.tanh(x + v) * c - v * 2.0 + c), (A, V, COL)),
    Case("broadcast_to_expand_squeeze", lambda xp: lambda v, x: xp.sum(
        xp.broadcast_to(v, (5, 4)) * _weights(5, 4)) + xp.sum(xp.squeeze(xp.expand_dims(x, 0)) ** 2), (V, A)),
    Case("full_of_a_traced_scalar", lambda xp: lambda x: xp.sum(xp.full((2, 3), x[0, 0]) * _weights(2, 3))
         + xp.sum(xp.full_like(x, 2.0) * x), (A,)),
    # reductions
    Case("sum_mean_axes", lambda xp: lambda x: xp.sum(xp.sum(x, axis=0) ** 2) + xp.mean(x ** 2, axis=1, keepdims=True).sum()
         + xp.mean(x), (BATCH,)),
    Case("prod", lambda xp: lambda p: xp.prod(p, axis=1).sum() + xp.prod(p), (POS,)),
    Case("prod_with_zeros", lambda xp: lambda z: xp.prod(z, axis=1).sum() + xp.prod(z[:, :2], axis=0).sum(), (ZEROS,)),
    Case("cumprod_with_zeros", lambda xp: lambda z: xp.sum(xp.cumprod(z, axis=1) * _weights(3, 4))
         + xp.sum(xp.cumprod(z, axis=0)), (ZEROS,)),
    Case("max_min_reductions", lambda xp: lambda x: xp.sum(xp.max(x, axis=1) * 2) + xp.min(x) + xp.amax(x, axis=0).sum(), (A,)),
    Case("max_reduction_ties", lambda xp: lambda x: xp.max(xp.concatenate([x, x])), (A,)),
    Case("var_std", lambda xp: lambda x: xp.var(x, axis=0).sum() + xp.std(x) + xp.var(x, ddof=1), (A,)),
    Case("logsumexp", lambda xp: lambda x: xp.sum(
        xp.log(xp.sum(xp.exp(x - xp.max(x, axis=-1, keepdims=True)), axis=-1)) + xp.max(x, axis=-1)), (A,)),
    Case("cumsum_cumprod", lambda xp: lambda x, p: xp.sum(xp.cumsum(x, axis=1) ** 2) + xp.sum(xp.cumprod(p, axis=0)), (A, POS)),
    Case("cummax_cummin", lambda xp: lambda x: xp.sum(xp.cummax(x, axis=1) * _weights(3, 4) + xp.cummin(x, axis=0)), (A,)),
    # linear algebra
    Case("matmul", lambda xp: lambda x, b: xp.sum(xp.tanh(x @ b)), (A, B)),
    Case("batched_matmul_broadcast", lambda xp: lambda x, w: xp.sum(xp.sin(xp.matmul(x, w))), (BATCH, W)),
    Case("dot_inner_outer_vdot", lambda xp: lambda x, v: xp.sum(xp.dot(x, v) ** 2) + xp.inner(v, v * 2)
         + xp.sum(xp.outer(v, x[0]) ** 2) + xp.vdot(x[1], v), (A, V)),
    Case("einsum", lambda xp: lambda x, b: xp.sum(xp.einsum("ij,jk->ik", x, b) ** 2) + xp.einsum("ij,ij->", x, x), (A, B)),
    Case("tensordot", lambda xp: lambda x, b: xp.sum(xp.tensordot(x, b, axes=1) ** 2)
         + xp.tensordot(x, x, axes=([0, 1], [0, 1])), (A, B)),
    # shapes
    Case("reshape_transpose_ravel", lambda xp: lambda x: xp.sum(xp.reshape(xp.transpose(x), (2, 6)) * _weights(2, 6))
         + xp.sum(xp.ravel(x) * _weights(12)), (A,)),
    Case("moveaxis_swapaxes", lambda xp: lambda x: xp.sum(xp.moveaxis(x, 0, 2) * _weights(3, 4, 2))
         + xp.sum(xp.swapaxes(x, 1, 2)[1] ** 2), (BATCH,)),
    Case("concatenate_stack", lambda xp: lambda x: xp.sum(xp.concatenate([x, x ** 2], axis=0) * _weights(6, 4))
         + xp.sum(xp.stack([x, -x], axis=1) ** 3), (A,)),
    Case("vstack_hstack", lambda xp: lambda x: xp.sum(xp.vstack([x, x * 2]) ** 2) + xp.sum(xp.hstack([x, x]) * _weights(3, 8)), (A,)),
    Case("split", lambda xp: lambda x: xp.sum(xp.split(x, 2, axis=1)[0] * 3) + xp.sum(xp.split(x, 2, axis=1)[1] ** 2), (A,)),
    Case("pad", lambda xp: lambda x: xp.sum(xp.pad(x, ((1, 2), (0, 1))) * _weights(6, 5)), (A,)),
    Case("flip", lambda xp: lambda x: xp.sum(xp.flip(x, 1) * _weights(3, 4)) + xp.sum(xp.flip(x) ** 2 * _weights(3, 4)), (A,)),
    Case("tile_repeat", lambda xp: lambda x: xp.sum(xp.tile(x, (2, 1)) * _weights(6, 4))
         + xp.sum(xp.repeat(x, 2, axis=1) ** 2 * _weights(3, 8)), (A,)),
    Case("tril_triu", lambda xp: lambda x: xp.sum(xp.tril(x) ** 2 + xp.triu(x, 1) * 3), (A,)),
    # indexing
    Case("basic_indexing", lambda xp: lambda x: xp.sum(x[1:, ::2] ** 2) + x[0, -1] + xp.sum(x[None, :, 1] * 3)
         + xp.sum(x[::-1, 1:3] * _weights(3, 2)) + xp.sum(x[..., 0] ** 3), (A,)),
    Case("advanced_indexing_gather", lambda xp: lambda x: xp.sum(x[xp.array([0, 2, 2])] ** 2)
         + xp.sum(x[:, xp.array([3, 0])] * 3) + xp.sum(x[xp.array([1, 2]), xp.array([0, 3])]), (A,)),
    Case("take", lambda xp: lambda x: xp.sum(xp.take(x, xp.array([1, 1, 3]), axis=1) ** 2)
         + xp.sum(xp.take(x, xp.array([0, 11]))), (A,)),
    Case("dynamic_index", lambda xp: lambda x, i: xp.sum(x[i] ** 2) + xp.sum(x[i, 1:3] * 3), (A, np.int32(1))),
    Case("sort", lambda xp: lambda x: xp.sum(xp.sort(x, axis=1) * _weights(3, 4)) + xp.sum(xp.sort(x, axis=0)[0]), (A,)),
    # control flow
    Case("cond", lambda xp: lambda x: xp.cond(xp.sum(x) > 0, lambda v: xp.sum(xp.sin(v)), lambda v: xp.sum(v ** 2), x)
         + xp.cond(xp.sum(x) < 0, lambda v: xp.sum(xp.sin(v)), lambda v: xp.sum(v ** 2), x), (A,)),
    Case("cond_on_an_argument", lambda xp: lambda x, w, t: xp.cond(t > 0, lambda v: xp.sum(xp.tanh(v[0] @ v[1])),
                                                                   lambda v: xp.sum(v[0]) * 2.0, (x, w)), (A, W, np.float32(1))),
    Case("switch", lambda xp: lambda x, i: xp.switch(i, [lambda v: xp.sum(v), lambda v: xp.sum(v * v),
                                                         lambda v: xp.sum(xp.exp(v))], x), (A, np.int32(2))),
    Case("fori_loop", lambda xp: lambda x: xp.sum(xp.fori_loop(0, 3, lambda i, v: xp.sin(v) * 1.5, x)), (A,)),
    Case("fori_loop_weights_and_index", lambda xp: lambda x, w: xp.sum(xp.fori_loop(
        0, 4, lambda i, c: (xp.tanh(c[0] @ w) + xp.asarray(i, x.dtype) * 0.1, c[1] + xp.sum(c[0] ** 2)), (x, 0.0 * x[0, 0]))[1]), (A, W)),
    Case("fori_loop_inside_cond", lambda xp: lambda x: xp.cond(
        xp.sum(x) < 100, lambda v: xp.sum(xp.fori_loop(0, 2, lambda i, c: xp.sin(c) * 2, v)), lambda v: xp.sum(v), x), (A,)),
    Case("cond_inside_fori_loop", lambda xp: lambda x: xp.sum(xp.fori_loop(0, 3, lambda i, c: xp.cond(
        xp.sum(c) > 0, lambda v: v * 0.5 + xp.tanh(v), lambda v: xp.sin(v) + 1, c), x)), (A,)),
    Case("nested_fori_loops", lambda xp: lambda x, w: xp.sum(xp.fori_loop(0, 2, lambda i, c: xp.fori_loop(
        0, 2, lambda j, d: xp.tanh(d @ w), c) * 1.1, x)), (A, W)),
    # small models
    Case("softmax_cross_entropy", lambda xp: lambda x, b: _cross_entropy(xp, x @ b, xp.array([0, 4, 2])), (A, B)),
]


def _cross_entropy(xp, logits, labels):
    shifted = logits - xp.max(logits, axis=-1, keepdims=True)
    log_probs = shifted - xp.log(xp.sum(xp.exp(shifted), axis=-1, keepdims=True))
    return -xp.mean(log_probs[xp.arange(labels.shape[0]), labels])


BY_NAME = {c.name: c for c in CASES}


def finite_differences(f: Callable, args: tuple, i: int, eps: float = 1e-6) -> np.ndarray:
    """d f / d args[i] by central differences in float64, f run eagerly by numpy."""
    x = np.array(args[i], np.float64)
    grad = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[idx] += eps
        down[idx] -= eps
        grad[idx] = (_at(f, args, i, up) - _at(f, args, i, down)) / (2 * eps)
    return grad


def directional_difference(f: Callable, args: tuple, tangents: tuple, eps: float = 1e-6):
    """The derivative of f at args along tangents, by central differences (any output pytree)."""
    up = tuple(np.asarray(a) + eps * t if t is not None else a for a, t in zip(args, tangents))
    down = tuple(np.asarray(a) - eps * t if t is not None else a for a, t in zip(args, tangents))
    return (np.asarray(f(*up), np.float64) - np.asarray(f(*down), np.float64)) / (2 * eps)


def _at(f, args, i, value) -> float:
    full = list(args)
    full[i] = value
    return float(f(*full))
