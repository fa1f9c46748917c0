"""Plain numpy functions traced one at a time: each must match numpy in shape, dtype and value.
Also numpy 2's type promotion, with weak Python scalars, and the explicit hloscope.numpy namespace."""

from __future__ import annotations

import numpy as np
import pytest

import hloscope.numpy as hnp

rng = np.random.default_rng(7)
A = rng.standard_normal((6, 8)).astype(np.float32)
B = rng.standard_normal((8, 5)).astype(np.float32)
POS = np.abs(A) + 0.1
I = rng.integers(-20, 20, (6, 8)).astype(np.int32)

UNARY = [np.sin, np.cos, np.tan, np.exp, np.expm1, np.tanh, np.abs, np.negative, np.sign, np.floor,
         np.ceil, np.rint, np.trunc, np.square, np.arctan, np.sinh, np.cosh, np.isfinite, np.isnan,
         np.logical_not, lambda x: np.arcsin(np.clip(x, -1, 1)), lambda x: np.arccos(np.clip(x, -1, 1))]
POSITIVE = [np.log, np.log1p, np.sqrt, np.log2, np.log10, np.cbrt, np.reciprocal, np.exp2]
BINARY = [np.add, np.subtract, np.multiply, np.divide, np.maximum, np.minimum, np.power, np.arctan2,
          np.greater, np.greater_equal, np.less, np.less_equal, np.equal, np.not_equal,
          np.logical_and, np.logical_or, np.logical_xor, np.floor_divide, np.remainder, np.fmod]
INT_BINARY = [np.add, np.multiply, np.floor_divide, np.remainder, np.bitwise_and, np.bitwise_or,
              np.bitwise_xor, np.maximum, np.true_divide, np.left_shift, np.right_shift]
EXPRESSIONS = {
    "x.sum(axis=1, keepdims=True)": lambda x: x.sum(axis=1, keepdims=True),
    "mean/var/std": lambda x: (np.mean(x, axis=0), np.var(x), np.std(x, axis=1, ddof=1)),
    "max/min/prod": lambda x: (x.max(), x.min(axis=0), np.prod(x[:2, :3], axis=0)),
    "argmax/argmin": lambda x: (np.argmax(x, axis=1), np.argmin(x), np.argmax(x, axis=0, keepdims=True)),
    "cumsum/cumprod": lambda x: (np.cumsum(x, axis=1), np.cumsum(x), np.cumprod(x[:, :3] * 0.5, axis=0)),
    "any/all": lambda x: (np.any(x > 1, axis=0), (x > -3).all()),
    "x.T and transpose": lambda x: (x.T, np.transpose(x.reshape(2, 3, 8), (2, 0, 1)), x.reshape(2, 24).mT),
    "reshape/ravel/squeeze": lambda x: (x.reshape(4, -1), x.ravel(), x[None, :, :1].squeeze(), np.expand_dims(x, 1).shape),
    "swapaxes/moveaxis": lambda x: (np.swapaxes(x.reshape(2, 3, 8), 0, 2), np.moveaxis(x.reshape(2, 3, 8), 0, -1)),
    "concatenate/stack": lambda x: (np.concatenate([x, x * 2], axis=1), np.stack([x, x], axis=-1),
                                    np.vstack([x, x]), np.hstack([x, x]), np.concatenate([x, x], axis=None)),
    "pad": lambda x: (np.pad(x, ((1, 2), (0, 3)), constant_values=-1.0), np.pad(x, 2)),
    "flip/tile/repeat": lambda x: (np.flip(x), np.flip(x, 1), np.tile(x, (2, 1)), np.repeat(x, 2, axis=0)),
    "split": lambda x: tuple(np.split(x, 2, axis=1)) + tuple(np.split(x, [1, 4])),
    "broadcast_to": lambda x: np.broadcast_to(x[0], (3, 8)),
    "astype": lambda x: (x.astype(np.int32), x.astype(bool), (x * 30).astype(np.int8).astype(np.float64)),
    "where/clip": lambda x: (np.where(x > 0, x, 0.1 * x), np.clip(x, -0.5, 0.5), x.clip(0), np.where(x > 0, 1, 0)),
    "round": lambda x: (np.round(x * 10), np.round(x, 2)),
    "matmul": lambda x: (x @ B, np.matmul(x.reshape(2, 3, 8), B), x[0] @ B, x @ B[:, 0], np.dot(x, B)),
    "batched matmul": lambda x: np.matmul(x.reshape(2, 3, 8), x.reshape(2, 8, 3)),
    "einsum": lambda x: (np.einsum("ij,jk->ik", x, B), np.einsum("ij->j", x), np.einsum("ij,ij->i", x, x),
                         np.einsum("bij,bjk->bik", x.reshape(2, 3, 8), x.reshape(2, 8, 3)), np.einsum("ij", x),
                         np.einsum("ij,kj", x, x)),
    "inner/outer/tensordot/vdot": lambda x: (np.inner(x, x), np.outer(x[0], x[1]), np.tensordot(x, B, 1),
                                             np.vdot(x, x)),
    "creation": lambda x: (np.zeros_like(x), np.ones_like(x, dtype=np.int32), np.full_like(x, 2.5),
                           x + np.arange(8), x @ np.eye(8, dtype=np.float32)),
    "tril/triu": lambda x: (np.tril(x), np.triu(x, 1), np.tril(x, -2)),
    "scalars": lambda x: (2.0 * x - 1, 1 / (1 + x * x), 3 - x, x ** 2, np.abs(x) ** 0.5, 2 ** (x / 4)),
    "add.reduce/accumulate": lambda x: (np.add.reduce(x), np.maximum.reduce(x, axis=1), np.add.accumulate(x, axis=1)),
    "comparisons chain": lambda x: ((x > 0) & (x < 1)) | ~(x != x),
    "iteration": lambda x: [row.sum() for row in x[:3]],
    "take": lambda x: (np.take(x, np.array([0, 5, 2]), axis=1), np.take(x, np.array([3, 40]))),
    "sort/argsort": lambda x: (np.sort(x), np.sort(x, axis=0), np.sort(x, axis=None), np.argsort(x, axis=1),
                               np.argsort(x.ravel()), np.sort(np.round(x * 2))),
}


@pytest.mark.parametrize("ufunc", UNARY, ids=lambda f: getattr(f, "__name__", "f"))
def test_unary(check, ufunc):
    check(lambda x: ufunc(x), A, rtol=2e-6, atol=1e-6)


@pytest.mark.parametrize("ufunc", POSITIVE, ids=lambda f: f.__name__)
def test_unary_on_positive_inputs(check, ufunc):
    check(lambda x: ufunc(x), POS, rtol=2e-6, atol=1e-6)


@pytest.mark.parametrize("ufunc", BINARY, ids=lambda f: f.__name__)
def test_binary_with_broadcasting(check, ufunc):
    y = POS[:1] if ufunc in (np.power,) else A[:1] + 0.5
    x = POS if ufunc is np.power else A
    check(lambda x, y: ufunc(x, y), x, y, rtol=2e-6, atol=1e-6)


@pytest.mark.parametrize("ufunc", INT_BINARY, ids=lambda f: f.__name__)
def test_integer_binary(check, ufunc):
    y = (np.abs(I[:1]) % 5 + 1).astype(np.int32)
    check(lambda x, y: ufunc(x, y), I, y)


@pytest.mark.parametrize("name", list(EXPRESSIONS))
def test_expression(check, name):
    check(EXPRESSIONS[name], A, rtol=1e-5, atol=1e-5)


PROMOTIONS = [
    (np.float32, lambda x: x + 2.0),
    (np.float32, lambda x: x * 3),
    (np.float64, lambda x: x + np.float64(2)),
    (np.float64, lambda x: x.astype(np.int32) / 2),
    (np.float64, lambda x: x.astype(np.int32) + 2.5),
    (np.int32, lambda x: x.astype(np.int32) * 2),
    (np.int64, lambda x: x.astype(np.int32).sum()),
    (np.float64, lambda x: x.astype(np.int16).mean()),
    (np.float16, lambda x: x.astype(np.float16) + 1.0),
    (np.float32, lambda x: x.astype(np.float16).mean() + x.astype(np.float32)),
    (np.float32, lambda x: x + x.astype(np.int16)),
    (np.uint8, lambda x: np.abs(x).astype(np.uint8) + 200),
    (np.bool_, lambda x: (x > 0) & True),
    (np.int64, lambda x: np.argmax(x)),
    (np.float64, lambda x: np.sin(x.astype(np.int32))),
]


@pytest.mark.parametrize("dtype,f", PROMOTIONS)
def test_numpy2_type_promotion(check, dtype, f):
    jf = check(f, A, rtol=1e-3, atol=1e-3)
    assert jf(A).dtype == dtype


def test_explicit_namespace_traces_and_runs_eagerly(check):
    def f(x):
        return hnp.zeros((6, 8), hnp.float32) + hnp.arange(8) * hnp.erf(x) + hnp.sigmoid(x) + hnp.eye(6, 8)

    jf = check(f, A, rtol=1e-5, atol=1e-6)
    ops = {i.opcode for i in jf.lower(A).entry_computation}
    assert {"iota", "erf", "logistic"} <= ops and "constant" in ops


def test_hnp_asarray_accepts_traced_arrays(check):
    check(lambda x: hnp.asarray(x, hnp.float64) * 2, A)


def test_hnp_linspace_with_retstep_returns_the_points_and_the_step(check):
    def f(x):
        points, step = hnp.linspace(0.0, 1.0, 8, retstep=True)
        return x * points, step * 2

    check(f, A)


def test_numpy_arrays_inside_the_function_become_constants(check):
    table = np.arange(48, dtype=np.float32).reshape(6, 8)
    jf = check(lambda x: x * table + np.ones(8), A)
    assert any(i.opcode == "constant" and i.shape.dims == (6, 8) for i in jf.lower(A).entry_computation)


def test_weak_python_numbers_stay_weak_through_operators_only(check):
    # Python arithmetic on a Python float stays a Python float (weak); a numpy function of it
    # returns a float64 scalar, which then promotes the f32 array, exactly as in numpy.
    jf = check(lambda x, lr: (x * (lr * 2 + 1), x * np.sqrt(lr)), A, 0.25)
    assert [r.dtype for r in jf(A, 0.25)] == [np.float32, np.float64]


def test_reflected_operators_with_numpy_operands(check):
    check(lambda x: (np.float32(3) / x, B.T @ x.T, A[:1] + x, 2 ** x, np.int32(7) % (np.abs(x) + 1)), A)


def test_hnp_asarray_stacks_lists_of_traced_values(check):
    check(lambda x: hnp.asarray([x.sum(), x.max(), 1.0]), A)


def test_sort_puts_nans_last_and_argsort_is_stable(check):
    """numpy's order: NaN after everything, -0.0 equal to 0.0; argsort of ties is kind="stable"."""
    x = rng.integers(0, 4, (5, 30)).astype(np.float32)
    x[0, [2, 9]] = np.nan
    x[1, 3] = -0.0
    check(lambda v: np.sort(v, axis=1), x)
    check(lambda v: np.argsort(v, axis=1, kind="stable"), x)
    check(lambda v: (np.sort(v.astype(np.int16), axis=0), np.argsort(v > 1, axis=1, kind="stable")),
          np.nan_to_num(x))
