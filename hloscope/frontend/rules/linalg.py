"""Lowering rules for products: matmul (`@`), dot, inner, outer, vdot, tensordot and einsum.

All become HLO `dot` with dimension numbers: contracting dims, and batch dims for stacked
matrices. A dot's result lists the batch dims, then the lhs's free dims, then the rhs's,
which is exactly numpy's order for matmul and dot; einsum adds a transpose when the output
letters ask for another order.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from .. import ops
from ..errors import shape_error, unsupported
from .common import aval_of, as_tracer, broadcast_shapes, broadcast_to, registrar, result_dtype
from .reductions import reduce_with

RULES: dict = {}
rule = registrar(RULES)


def _operands(*xs):
    """The operands as tracers of their common dtype (numpy's result_type)."""
    dt = result_dtype(*xs)
    return [as_tracer(x, dt) for x in xs]


def _check_sizes(what: str, a, b, da: int, db: int):
    if a.shape[da] != b.shape[db]:
        raise shape_error(
            f"{what}: shapes {a.shape} and {b.shape} are not aligned: "
            f"{a.shape[da]} (dim {da} of the first) != {b.shape[db]} (dim {db} of the second)")


@rule(np.matmul)
def matmul(x1, x2, out=None, **kwargs):
    """Stacks of matrices: batch dims broadcast, contract a's last dim with b's second-to-last."""
    if out is not None or kwargs:
        raise unsupported("np.matmul with out=, axes= or dtype=")
    a, b = _operands(x1, x2)
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("matmul: Input operand does not have enough dimensions (scalars: use *)")
    a = ops.reshape(a, (1, *a.shape)) if a.ndim == 1 else a
    b = ops.reshape(b, (*b.shape, 1)) if b.ndim == 1 else b
    _check_sizes("matmul", a, b, a.ndim - 1, b.ndim - 2)
    batch = broadcast_shapes(a.shape[:-2], b.shape[:-2], what="matmul batch dimensions")
    a, b = broadcast_to(a, batch + a.shape[-2:]), broadcast_to(b, batch + b.shape[-2:])
    nb = len(batch)
    r = ops.dot_general(a, b, ([nb + 1], [nb]), (list(range(nb)), list(range(nb))))
    keep = [*batch, *([r.shape[-2]] if aval_of(x1).ndim > 1 else []), *([r.shape[-1]] if aval_of(x2).ndim > 1 else [])]
    return ops.reshape(r, keep)


@rule(np.dot)
def dot(a, b, out=None):
    """Sum over a's last axis and b's second-to-last (its only axis if 1-D)."""
    x, y = _operands(a, b)
    if x.ndim == 0 or y.ndim == 0:
        return x * y
    db = 0 if y.ndim == 1 else y.ndim - 2
    _check_sizes("dot", x, y, x.ndim - 1, db)
    return ops.dot_general(x, y, ([x.ndim - 1], [db]))


@rule(np.inner)
def inner(a, b):
    x, y = _operands(a, b)
    if x.ndim == 0 or y.ndim == 0:
        return x * y
    _check_sizes("inner", x, y, x.ndim - 1, y.ndim - 1)
    return ops.dot_general(x, y, ([x.ndim - 1], [y.ndim - 1]))


@rule(np.vdot)
def vdot(a, b):
    x, y = _operands(a, b)
    return dot(np.ravel(x), np.ravel(y))


@rule(np.outer)
def outer(a, b, out=None):
    x, y = _operands(a, b)
    return np.reshape(x, (-1, 1)) * np.reshape(y, (1, -1))


@rule(np.tensordot)
def tensordot(a, b, axes: int | Sequence = 2):
    x, y = _operands(a, b)
    if isinstance(axes, (int, np.integer)):
        ax, bx = list(range(x.ndim - axes, x.ndim)), list(range(axes))
    else:
        ax, bx = [list(np.atleast_1d(v)) for v in axes]
    ax, bx = [int(i) % x.ndim for i in ax], [int(i) % y.ndim for i in bx]
    for i, j in zip(ax, bx):
        _check_sizes("tensordot", x, y, i, j)
    return ops.dot_general(x, y, (ax, bx))


def _parse_einsum(subscripts: str, count: int) -> tuple[list[str], str]:
    spec = subscripts.replace(" ", "")
    if "." in spec:
        raise unsupported("np.einsum with an ellipsis ('...')", "write the dimensions out")
    inputs, _, output = spec.partition("->")
    terms = inputs.split(",")
    if len(terms) != count:
        raise ValueError(f"einsum: {len(terms)} operand specs for {count} operands")
    if "->" not in spec:  # implicit mode: the letters used once, in alphabetical order
        letters = "".join(terms)
        output = "".join(sorted(c for c in set(letters) if letters.count(c) == 1))
    return terms, output


@rule(np.einsum)
def einsum(subscripts, *operands, out=None, optimize=False, **kwargs):
    """Sum out letters used by one operand only, then contract operands left to right with dot
    (shared letters still needed later become batch dims), and transpose to the output order."""
    if not isinstance(subscripts, str) or out is not None or kwargs:
        raise unsupported("this form of np.einsum", "use a subscripts string and no out=/dtype=")
    terms, output = _parse_einsum(subscripts, len(operands))
    ts = _operands(*operands)
    for term, t in zip(terms, ts):
        if len(term) != t.ndim or len(set(term)) != len(term):
            raise shape_error(f"einsum: operand spec {term!r} does not fit an array of shape {t.shape}"
                              " (repeated letters, diagonals, are not supported)")
    cur, spec = _sum_unique(ts[0], terms[0], terms[1:], output)
    for k in range(1, len(ts)):
        nxt, nspec = _sum_unique(ts[k], terms[k], terms[k + 1 :] + [spec], output)
        cur, spec = _contract(cur, spec, nxt, nspec, "".join(terms[k + 1 :]) + output)
    cur, spec = _sum_unique(cur, spec, [], output)
    return ops.transpose(cur, [spec.index(c) for c in output])


def _sum_unique(t, spec: str, others: list[str], output: str):
    """Sum the axes whose letter appears nowhere else (not in other operands, not in the output)."""
    elsewhere = "".join(others) + output
    axes = tuple(i for i, c in enumerate(spec) if c not in elsewhere)
    if not axes:
        return t, spec
    return reduce_with(t, axes, "add", 0), "".join(c for c in spec if c not in [spec[i] for i in axes])


def _contract(a, sa: str, b, sb: str, needed: str):
    """dot of two operands: shared letters needed later are batch dims, the rest contract."""
    shared = [c for c in sa if c in sb]
    for c in shared:
        if a.shape[sa.index(c)] != b.shape[sb.index(c)]:
            raise shape_error(f"einsum: letter {c!r} has size {a.shape[sa.index(c)]} in one operand "
                              f"and {b.shape[sb.index(c)]} in another (shapes {a.shape} and {b.shape})")
    batch = [c for c in shared if c in needed]
    contract = [c for c in shared if c not in needed]
    r = ops.dot_general(a, b, ([sa.index(c) for c in contract], [sb.index(c) for c in contract]),
                        ([sa.index(c) for c in batch], [sb.index(c) for c in batch]))
    free_a = [c for c in sa if c not in shared]
    free_b = [c for c in sb if c not in shared]
    return r, "".join(batch + free_a + free_b)
