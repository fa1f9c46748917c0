"""Opcodes that move elements without computing new ones, and the leaves (constant, iota).

Arrays are logical (row-major dims, whatever the layout), so layouts matter only to
`bitcast`, which reinterprets the operand's memory in the result's layout.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..errors import ElidedValuesError, NotSupportedError
from ..ir.instruction import Instruction
from ..ir.shape import ArrayShape

if TYPE_CHECKING:  # annotations only: core imports the handler table, which imports this file
    from .core import Evaluator


def handle_constant(ev: Evaluator, inst: Instruction, ops: list):
    """The literal's value (arrays are never written to, so it is shared, not copied)."""
    literal = inst.literal
    if literal is None or literal.elided:
        raise ElidedValuesError(inst.name, str(inst.shape), "Evaluating the program")
    return _literal_value(literal)


def _literal_value(literal):
    if isinstance(literal.value, tuple):
        return tuple(_literal_value(v) for v in literal.value)
    return literal.value


def handle_iota(ev: Evaluator, inst: Instruction, ops: list):
    """0, 1, 2, ... along iota_dimension, the same for every index of the other dims."""
    dims = inst.array_shape.dims
    d = inst.attr("iota_dimension", 0)
    ramp = np.arange(dims[d]).astype(inst.array_shape.numpy_dtype)
    shape = [1] * len(dims)
    shape[d] = dims[d]
    return np.broadcast_to(ramp.reshape(shape), dims)


def handle_broadcast(ev: Evaluator, inst: Instruction, ops: list):
    """Operand dim i becomes result dim dimensions[i]; the other result dims repeat it."""
    x = ops[0]
    dims = tuple(inst.attr("dimensions", ()))
    order = sorted(range(len(dims)), key=lambda i: dims[i])
    x = np.transpose(x, order)
    result = inst.array_shape
    shape = [1] * result.rank
    for i, d in enumerate(sorted(dims)):
        shape[d] = x.shape[i]
    return np.broadcast_to(x.reshape(shape), result.dims)


def handle_reshape(ev: Evaluator, inst: Instruction, ops: list):
    """Same elements in row-major order, new dims."""
    return ops[0].reshape(inst.array_shape.dims)


def handle_transpose(ev: Evaluator, inst: Instruction, ops: list):
    """Result dim i is operand dim dimensions[i]."""
    return np.transpose(ops[0], inst.attr("dimensions"))


def handle_copy(ev: Evaluator, inst: Instruction, ops: list):
    """A copy has the operand's logical value (it may change only the layout)."""
    return ops[0]


def handle_bitcast(ev: Evaluator, inst: Instruction, ops: list):
    """The operand's bytes, in its layout, read back in the result's layout.

    With default layouts on both sides this is a reshape; after layout assignment a bitcast
    can also be a transpose (e.g. f32[2,3]{0,1} -> f32[3,2]{1,0}).
    """
    x = ops[0]
    src = ev.operand_shape(inst, 0)
    dst = inst.array_shape
    src_layout = src.layout if isinstance(src, ArrayShape) else None
    flat = _memory_order(x, src_layout)
    if flat.dtype != dst.numpy_dtype:
        if flat.dtype.itemsize != dst.numpy_dtype.itemsize:
            raise NotSupportedError("not supported: bitcast between element types of different widths")
        flat = flat.view(dst.numpy_dtype)
    return _from_memory_order(flat, dst.dims, dst.layout)


def _memory_order(x: np.ndarray, layout) -> np.ndarray:
    """The elements as they lie in memory: the major-most dimension first."""
    if layout is None or len(layout) != x.ndim:
        return np.ascontiguousarray(x).reshape(-1)
    return np.ascontiguousarray(np.transpose(x, tuple(reversed(layout)))).reshape(-1)


def _from_memory_order(flat: np.ndarray, dims, layout) -> np.ndarray:
    major_to_minor = tuple(reversed(layout))
    physical = flat.reshape([dims[d] for d in major_to_minor])
    return np.transpose(physical, np.argsort(major_to_minor))


def handle_slice(ev: Evaluator, inst: Instruction, ops: list):
    """slice={[start:limit:stride], ...} per dimension."""
    index = tuple(slice(s.start, s.limit, s.stride) for s in inst.attr("slice"))
    return ops[0][index]


def _start_indices(ops: list) -> list[int]:
    """Start indices as Python ints: one scalar operand per dim, or (old form) one vector."""
    if len(ops) == 1 and ops[0].ndim == 1:
        return [int(v) for v in ops[0]]
    return [int(v) for v in ops]


def _clamped(starts: list[int], operand_dims, sizes) -> list[int]:
    """XLA clamps each start into [0, dim - size] so the window always fits."""
    return [min(max(s, 0), d - n) for s, d, n in zip(starts, operand_dims, sizes)]


def handle_dynamic_slice(ev: Evaluator, inst: Instruction, ops: list):
    """dynamic-slice(x, starts...), dynamic_slice_sizes; starts are clamped to fit."""
    x = ops[0]
    sizes = inst.attr("dynamic_slice_sizes") or inst.array_shape.dims
    starts = _clamped(_start_indices(ops[1:]), x.shape, sizes)
    return x[tuple(slice(s, s + n) for s, n in zip(starts, sizes))]


def handle_dynamic_update_slice(ev: Evaluator, inst: Instruction, ops: list):
    """dynamic-update-slice(x, update, starts...): a copy of x with `update` written at the
    (clamped) starts."""
    x, update = ops[0], ops[1]
    starts = _clamped(_start_indices(ops[2:]), x.shape, update.shape)
    out = x.copy()
    out[tuple(slice(s, s + n) for s, n in zip(starts, update.shape))] = update
    return out


def handle_concatenate(ev: Evaluator, inst: Instruction, ops: list):
    """Operands joined along dimensions={d}."""
    return np.concatenate(ops, axis=inst.attr("dimensions")[0])


def handle_pad(ev: Evaluator, inst: Instruction, ops: list):
    """pad(x, value), padding=lo_hi_interior per dim; negative lo/hi remove elements.

    Interior padding goes between elements; negative edge padding crops the already
    interior-padded array, so it is applied last.
    """
    x, value = ops
    pads = inst.attr("padding") or ()
    grown, placed, crop = [], [], []
    for n, p in zip(x.shape, pads):
        lo, hi = max(p.low, 0), max(p.high, 0)
        body = n + max(n - 1, 0) * p.interior
        grown.append(lo + body + hi)
        placed.append(slice(lo, lo + body, p.interior + 1))
        crop.append(slice(max(-p.low, 0), lo + body + hi - max(-p.high, 0)))
    out = np.full(grown, value, dtype=x.dtype)
    out[tuple(placed)] = x
    return out[tuple(crop)]


def handle_reverse(ev: Evaluator, inst: Instruction, ops: list):
    """Reverse the order of elements along each of dimensions={...}."""
    dims = tuple(inst.attr("dimensions", ()))
    return np.flip(ops[0], dims) if dims else ops[0]


HANDLERS = {
    "constant": handle_constant,
    "iota": handle_iota,
    "broadcast": handle_broadcast,
    "reshape": handle_reshape,
    "transpose": handle_transpose,
    "copy": handle_copy,
    "bitcast": handle_bitcast,
    "slice": handle_slice,
    "dynamic-slice": handle_dynamic_slice,
    "dynamic-update-slice": handle_dynamic_update_slice,
    "concatenate": handle_concatenate,
    "pad": handle_pad,
    "reverse": handle_reverse,
}
