"""`convolution` with XLA's full semantics (dim_labels, window, group counts).

The operands are brought to a canonical layout, lhs (N, C, spatial...) and rhs
(O, I, spatial...), converted to the accumulation type (the result's type; 16-bit floats
in f32, as for dot). The kernel is flipped where `rhs_reversal` says so, and the input is
lhs-dilated (holes between elements: a transposed convolution) and padded with zeros
(negative padding crops). Then, for every kernel tap, the strided slice of the input that
tap sees (taps rhs_dilate apart: an atrous convolution) is contracted with the tap's
weights over the features of its group:

    feature_group_count G: input features in G blocks, output features in G blocks,
        block g of the output sees only block g of the input (G = C: depthwise).
    batch_group_count B:   the input batch in B blocks, output features in B blocks,
        block g of the output sees only batch block g (the weight-gradient form).

The canonical result (N', O, spatial...) is finally moved to the output's dim_labels.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

import numpy as np

from ..ir.attributes import WindowDim
from ..ir.conv_dims import ConvDimLabels
from ..ir.instruction import Instruction
from .dot import _accumulator

if TYPE_CHECKING:  # annotations only: core imports the handler table, which imports this file
    from .core import Evaluator


def handle_convolution(ev: Evaluator, inst: Instruction, ops: list):
    """convolution(lhs, rhs), window, dim_labels, feature_group_count, batch_group_count."""
    lhs, rhs = ops
    out = inst.array_shape.numpy_dtype
    result = convolve(lhs, rhs, inst.attr("dim_labels"), tuple(inst.attr("window", ())),
                      inst.attr("feature_group_count", 1), inst.attr("batch_group_count", 1),
                      _accumulator(out))
    return result.astype(out)


def convolve(lhs: np.ndarray, rhs: np.ndarray, labels: ConvDimLabels, window: tuple[WindowDim, ...],
             feature_groups: int, batch_groups: int, acc: np.dtype) -> np.ndarray:
    """The convolution in type `acc`, laid out as the output's dim_labels say."""
    x = np.transpose(lhs, (labels.input_batch, labels.input_feature, *labels.input_spatial)).astype(acc)
    k = np.transpose(rhs, (labels.kernel_output_feature, labels.kernel_input_feature,
                           *labels.kernel_spatial)).astype(acc)
    flips = tuple(2 + d for d, w in enumerate(window) if w.reversal)
    k = np.flip(k, flips) if flips else k
    x = padded_input(x, window)
    sizes = tuple(output_size(x.shape[2 + d], w) for d, w in enumerate(window))
    canon = _contract(x, k, window, sizes, feature_groups, batch_groups)
    axes = (labels.output_batch, labels.output_feature, *labels.output_spatial)
    return np.moveaxis(canon, tuple(range(canon.ndim)), axes)


def padded_input(x: np.ndarray, window: tuple[WindowDim, ...]) -> np.ndarray:
    """x (N, C, spatial...) lhs-dilated (zeros between elements) and padded (negative: cropped)."""
    for d, w in enumerate(window):
        axis, n = 2 + d, x.shape[2 + d]
        if w.lhs_dilate > 1 and n > 1:
            shape = list(x.shape)
            shape[axis] = (n - 1) * w.lhs_dilate + 1
            dilated = np.zeros(shape, x.dtype)
            _set_along(dilated, axis, slice(None, None, w.lhs_dilate), x)
            x = dilated
        pad = [(0, 0)] * x.ndim
        pad[axis] = (max(w.pad_low, 0), max(w.pad_high, 0))
        x = np.pad(x, pad)
        start, stop = max(-w.pad_low, 0), x.shape[axis] - max(-w.pad_high, 0)
        x = _take_along(x, axis, slice(start, max(start, stop)))
    return x


def output_size(padded: int, w: WindowDim) -> int:
    """How many strided positions of the rhs-dilated window fit in `padded` elements."""
    span = (w.size - 1) * w.rhs_dilate + 1
    return 0 if span > padded else (padded - span) // w.stride + 1


def _contract(x, k, window, sizes, feature_groups: int, batch_groups: int) -> np.ndarray:
    """Sum over kernel taps of the tap's input slice times its weights, group by group."""
    n, c = x.shape[:2]
    o, i = k.shape[:2]
    if batch_groups > 1:  # batch block g meets output-feature block g; no feature groups then
        out = np.zeros((n // batch_groups, batch_groups, o // batch_groups, *sizes), x.dtype)
        spec = "gbc...,goc->bgo..."
        x = x.reshape(batch_groups, n // batch_groups, c, *x.shape[2:])
        shape_k = (batch_groups, o // batch_groups, i)
    else:
        out = np.zeros((n, feature_groups, o // feature_groups, *sizes), x.dtype)
        spec = "ngc...,goc->ngo..."
        x = x.reshape(n, feature_groups, i, *x.shape[2:])
        shape_k = (feature_groups, o // feature_groups, i)
    if 0 in sizes or out.size == 0:
        return out.reshape(out.shape[0], o, *sizes)
    for tap in itertools.product(*(range(w.size) for w in window)):
        view = x[(slice(None),) * 3 + _tap_slices(tap, window, sizes)]
        out += np.einsum(spec, view, k[(slice(None), slice(None), *tap)].reshape(shape_k))
    return out.reshape(out.shape[0], o, *sizes)


def _tap_slices(tap, window, sizes) -> tuple[slice, ...]:
    """The input positions kernel tap `tap` meets, one per output position."""
    return tuple(slice(t * w.rhs_dilate, t * w.rhs_dilate + (s - 1) * w.stride + 1, w.stride)
                 for t, w, s in zip(tap, window, sizes))


def _set_along(x: np.ndarray, axis: int, index: slice, value: np.ndarray) -> None:
    x[(slice(None),) * axis + (index,)] = value


def _take_along(x: np.ndarray, axis: int, index: slice) -> np.ndarray:
    return x[(slice(None),) * axis + (index,)]


HANDLERS = {"convolution": handle_convolution}
