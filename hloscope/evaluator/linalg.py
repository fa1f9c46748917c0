"""batch-norm-training/inference/grad, cholesky and triangular-solve on numpy.

The batch-norm formulas are XLA's expansion (xla/service/batchnorm_expander.cc): statistics
over every dimension but feature_index, variance the biased mean of squared deviations.
cholesky reads only the named triangle; a matrix that is not positive definite gives NaNs,
as XLA's does. triangular-solve reads only a's named triangle (its diagonal as ones with
unit_diagonal) and solves op(a) x = b or x op(a) = b.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..ir.attributes import Raw
from ..ir.instruction import Instruction

if TYPE_CHECKING:  # annotations only: core imports the handler table, which imports this file
    from .core import Evaluator


def _epsilon(inst: Instruction) -> float:
    eps = inst.attr("epsilon")
    return float(eps.text if isinstance(eps, Raw) else eps)


def _feature_axes(inst: Instruction, x: np.ndarray) -> tuple[tuple[int, ...], list[int]]:
    """(axes reduced over, shape that broadcasts a per-feature vector against x)."""
    fi = inst.attr("feature_index")
    axes = tuple(i for i in range(x.ndim) if i != fi)
    shape = [1] * x.ndim
    shape[fi] = x.shape[fi]
    return axes, shape


def _wide(x: np.ndarray) -> np.ndarray:
    return x.astype(np.float64 if x.dtype == np.float64 else np.float32)


def handle_batch_norm_training(ev: Evaluator, inst: Instruction, ops: list):
    x, scale, offset = (_wide(o) for o in ops)
    axes, shape = _feature_axes(inst, x)
    mean = x.mean(axis=axes)
    var = ((x - mean.reshape(shape)) ** 2).mean(axis=axes)
    y = (x - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + _epsilon(inst)) * scale.reshape(shape) + offset.reshape(shape)
    dtype = ops[0].dtype
    return (y.astype(dtype), mean.astype(dtype), var.astype(dtype))


def handle_batch_norm_inference(ev: Evaluator, inst: Instruction, ops: list):
    x, scale, offset, mean, var = (_wide(o) for o in ops)
    _, shape = _feature_axes(inst, x)
    y = (x - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + _epsilon(inst)) * scale.reshape(shape) + offset.reshape(shape)
    return y.astype(ops[0].dtype)


def handle_batch_norm_grad(ev: Evaluator, inst: Instruction, ops: list):
    x, scale, mean, var, dy = (_wide(o) for o in ops)
    axes, shape = _feature_axes(inst, x)
    rstd = 1 / np.sqrt(var + _epsilon(inst))
    centered = x - mean.reshape(shape)
    grad_offset = dy.sum(axis=axes)
    grad_scale = (dy * centered).sum(axis=axes) * rstd
    n = x.size // x.shape[inst.attr("feature_index")] if x.size else 1
    grad_x = (scale * rstd).reshape(shape) * (
        dy - grad_offset.reshape(shape) / n - centered * ((dy * centered).sum(axis=axes) / n * rstd**2).reshape(shape))
    dtype = ops[0].dtype
    return (grad_x.astype(dtype), grad_scale.astype(dtype), grad_offset.astype(dtype))


def _hermitian(t: np.ndarray) -> np.ndarray:
    return np.conj(np.swapaxes(t, -1, -2))


def handle_cholesky(ev: Evaluator, inst: Instruction, ops: list):
    """lower=true: L with a = L L^H from a's lower triangle; else U with a = U^H U from its upper."""
    a = ops[0]
    lower = bool(inst.attrs.get("lower", False))
    tri = np.tril(a) if lower else np.triu(a)
    full = tri + _hermitian(np.tril(a, -1) if lower else np.triu(a, 1))
    flat = full.reshape(-1, *a.shape[-2:])
    out = np.empty_like(flat)
    for i, m in enumerate(flat):
        try:
            out[i] = np.linalg.cholesky(m)
        except np.linalg.LinAlgError:
            out[i] = np.nan  # not positive definite: NaNs, as XLA gives
    out = out.reshape(a.shape)
    return (out if lower else _hermitian(out)).astype(a.dtype)


def handle_triangular_solve(ev: Evaluator, inst: Instruction, ops: list):
    a, b = ops
    lower = bool(inst.attrs.get("lower", False))
    tri = np.tril(a) if lower else np.triu(a)
    if inst.attrs.get("unit_diagonal", False):
        n = a.shape[-1]
        tri = tri.copy()
        tri[..., np.arange(n), np.arange(n)] = 1
    kind = inst.attrs.get("transpose_a", "NO_TRANSPOSE")
    op_a = {"NO_TRANSPOSE": tri, "TRANSPOSE": np.swapaxes(tri, -1, -2), "ADJOINT": _hermitian(tri)}[str(kind)]
    if inst.attrs.get("left_side", False):
        x = np.linalg.solve(op_a, b)
    else:  # x op(a) = b  <=>  op(a)^T x^T = b^T
        x = np.swapaxes(np.linalg.solve(np.swapaxes(op_a, -1, -2), np.swapaxes(b, -1, -2)), -1, -2)
    return x.astype(b.dtype)


HANDLERS = {
    "batch-norm-training": handle_batch_norm_training,
    "batch-norm-inference": handle_batch_norm_inference,
    "batch-norm-grad": handle_batch_norm_grad,
    "cholesky": handle_cholesky,
    "triangular-solve": handle_triangular_solve,
}
