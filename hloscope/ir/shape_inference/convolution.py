"""The shape rule of convolution (XLA's ShapeInference::InferConvolveShape).

    out[batch]   = lhs[batch] / batch_group_count
    out[feature] = rhs[kernel output feature]
    out[spatial] = how many strided window positions fit in the padded, lhs-dilated input

with the checks XLA makes: lhs features = rhs input features * feature_group_count, the
kernel's output features a multiple of both group counts, the batch a multiple of
batch_group_count, and the window the kernel's spatial size.
"""

from __future__ import annotations

from ..conv_dims import ConvDimLabels
from ..shape import ArrayShape, Shape
from .common import OpCall, check, fail, fmt
from .reduce import window_output_dims


def convolution(op: OpCall) -> Shape:
    lhs, rhs = op.array(0, "convolution lhs"), op.array(1, "convolution rhs")
    labels = op.attr("dim_labels")
    if not isinstance(labels, ConvDimLabels):
        fail("convolution needs dim_labels like b01f_01io->b01f")
    check(lhs.rank == rhs.rank, f"convolution lhs {fmt(lhs)} and rhs {fmt(rhs)} need equal ranks")
    check(lhs.rank == labels.spatial_rank + 2,
          f"convolution dim_labels {labels} describe rank {labels.spatial_rank + 2}, the operands have rank {lhs.rank}")
    fgc, bgc = op.attr("feature_group_count", 1), op.attr("batch_group_count", 1)
    _check_groups(lhs, rhs, labels, fgc, bgc)
    window = op.attr("window", ())
    check(len(window) == labels.spatial_rank,
          f"convolution window has {len(window)} dimensions but dim_labels {labels} have {labels.spatial_rank} spatial")
    for k, (w, d) in enumerate(zip(window, labels.kernel_spatial)):
        check(w.size == rhs.dims[d], f"convolution window size {w.size} in spatial dimension {k} differs from the "
                                     f"kernel's size {rhs.dims[d]} there (rhs {fmt(rhs)})")
    base = ArrayShape(lhs.dtype, tuple(lhs.dims[d] for d in labels.input_spatial))
    spatial = window_output_dims(base, window, "convolution")
    dims = [0] * lhs.rank
    dims[labels.output_batch] = lhs.dims[labels.input_batch] // bgc
    dims[labels.output_feature] = rhs.dims[labels.kernel_output_feature]
    for d, size in zip(labels.output_spatial, spatial):
        dims[d] = size
    return ArrayShape(_result_type(op, lhs, rhs), tuple(dims))


def _check_groups(lhs: ArrayShape, rhs: ArrayShape, labels: ConvDimLabels, fgc: int, bgc: int) -> None:
    check(fgc >= 1 and bgc >= 1, f"convolution group counts must be >= 1 (feature {fgc}, batch {bgc})")
    check(fgc == 1 or bgc == 1,
          f"convolution cannot have both feature_group_count ({fgc}) and batch_group_count ({bgc}) above 1")
    features, batch = lhs.dims[labels.input_feature], lhs.dims[labels.input_batch]
    kernel_in, kernel_out = rhs.dims[labels.kernel_input_feature], rhs.dims[labels.kernel_output_feature]
    check(features % fgc == 0,
          f"convolution lhs feature dimension ({features}) must be a multiple of feature_group_count ({fgc})")
    check(features // fgc == kernel_in,
          f"convolution lhs feature dimension ({features}) must equal the rhs input feature dimension "
          f"({kernel_in}) times feature_group_count ({fgc})")
    check(kernel_out % fgc == 0,
          f"convolution rhs output feature dimension ({kernel_out}) must be a multiple of "
          f"feature_group_count ({fgc})")
    check(batch % bgc == 0,
          f"convolution lhs batch dimension ({batch}) must be a multiple of batch_group_count ({bgc})")
    check(kernel_out % bgc == 0,
          f"convolution rhs output feature dimension ({kernel_out}) must be a multiple of "
          f"batch_group_count ({bgc})")


def _result_type(op: OpCall, lhs: ArrayShape, rhs: ArrayShape) -> str:
    """The declared type (XLA's preferred_element_type), else the common operand type."""
    if isinstance(op.declared, ArrayShape):
        return op.declared.dtype
    check(lhs.dtype == rhs.dtype, f"convolution operand types differ ({fmt(lhs)}, {fmt(rhs)}); give the result shape")
    return lhs.dtype


RULES = {"convolution": convolution}
