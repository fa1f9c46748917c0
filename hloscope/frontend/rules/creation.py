"""Lowering rules that make new arrays: zeros/ones/full(_like), arange, linspace, eye, and the
triangular masks tri/tril/triu.

numpy only dispatches the `*_like` functions and tril/triu to a tracer (the others take no
array argument, so inside a jitted function plain `np.zeros(...)` simply makes a numpy array,
which becomes an HLO constant where it is used). `hloscope.numpy.zeros` and friends call these
rules whenever a trace is active, so they become `broadcast` of a scalar constant or `iota`,
as in JAX.
"""

from __future__ import annotations

import numpy as np

from .. import ops
from ..errors import unsupported
from .common import as_tracer, aval_of, broadcast_to, registrar

RULES: dict = {}
rule = registrar(RULES)


def _shape(shape) -> tuple[int, ...]:
    return (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(int(d) for d in shape)


def fill(shape, value, dtype):
    """`value` (a constant or a traced scalar) broadcast to `shape` as `dtype`."""
    return broadcast_to(as_tracer(value, dtype), _shape(shape))


@rule(np.zeros, np.empty)
def zeros(shape, dtype=float, order="C", **kwargs):
    return fill(shape, 0, np.dtype(dtype))


@rule(np.ones)
def ones(shape, dtype=float, order="C", **kwargs):
    return fill(shape, 1, np.dtype(dtype))


@rule(np.full)
def full(shape, fill_value, dtype=None, order="C", **kwargs):
    return fill(shape, fill_value, np.dtype(dtype) if dtype is not None else aval_of(fill_value).dtype)


def _like(a, dtype, shape):
    t = as_tracer(a)
    return np.dtype(dtype) if dtype is not None else t.dtype, t.shape if shape is None else shape


@rule(np.zeros_like, np.empty_like)
def zeros_like(a, dtype=None, order="K", subok=True, shape=None, **kwargs):
    dt, sh = _like(a, dtype, shape)
    return fill(sh, 0, dt)


@rule(np.ones_like)
def ones_like(a, dtype=None, order="K", subok=True, shape=None, **kwargs):
    dt, sh = _like(a, dtype, shape)
    return fill(sh, 1, dt)


@rule(np.full_like)
def full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None, **kwargs):
    dt, sh = _like(a, dtype, shape)
    return fill(sh, fill_value, dt)


@rule(np.copyto)
def copyto(dst, src, casting="same_kind", where=True):
    """numpy's np.full(shape, traced_value) writes with copyto: point at the traced form."""
    raise unsupported("writing a traced value into a numpy array (np.copyto, as np.full does)",
                      "use hloscope.numpy.full or np.full_like, which build the array in HLO")


@rule(np.arange)
def arange(start, stop=None, step=1, dtype=None, **kwargs):
    """iota, scaled and shifted when start/step are not 0/1 (length and dtype as numpy's)."""
    start, stop = (0, start) if stop is None else (start, stop)
    ref = np.arange(start, stop, step, dtype=dtype)
    t = ops.iota(ref.dtype, ref.shape, 0)
    if step != 1:
        t = ops.binary("multiply", t, ops.full(ref.shape, step, ref.dtype))
    if start != 0:
        t = ops.binary("add", t, ops.full(ref.shape, start, ref.dtype))
    return t


@rule(np.linspace)
def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, **kwargs):
    """Static bounds: numpy computes the points, and they become one constant (with
    retstep, the step stays a number, as numpy returns it)."""
    points, step = np.linspace(start, stop, num, endpoint, retstep=True, dtype=dtype, axis=axis)
    return (as_tracer(points), step) if retstep else as_tracer(points)


def _band(n: int, m: int, k: int, direction: str):
    """pred[n,m]: (column - row) compared with k, from two iotas."""
    rows = ops.iota(np.int64, (n, m), 0)
    cols = ops.iota(np.int64, (n, m), 1)
    diff = ops.binary("subtract", cols, rows)
    return ops.compare(diff, ops.full((n, m), k, np.int64), direction)


@rule(np.eye)
def eye(N, M=None, k=0, dtype=float, **kwargs):
    return ops.convert(_band(N, N if M is None else M, k, "EQ"), np.dtype(dtype))


RULES[np.identity] = lambda n, dtype=float, **kw: eye(n, dtype=dtype)


@rule(np.tri)
def tri(N, M=None, k=0, dtype=float, **kwargs):
    return ops.convert(_band(N, N if M is None else M, k, "LE"), np.dtype(dtype))


def _triangle(m, k: int, direction: str):
    t = as_tracer(m)
    n, c = t.shape[-2:]
    mask = broadcast_to(_band(n, c, k, direction), t.shape)
    return ops.select(mask, t, ops.full(t.shape, 0, t.dtype))


@rule(np.tril)
def tril(m, k=0):
    """Keep elements on and below diagonal k: select(column - row <= k, m, 0)."""
    return _triangle(m, k, "LE")


@rule(np.triu)
def triu(m, k=0):
    """Keep elements on and above diagonal k: select(column - row >= k, m, 0)."""
    return _triangle(m, k, "GE")
