"""A convolution in words, for the explorer's instruction details:

    2-D convolution, NHWC input, HWIO kernel 3x3, stride 2, padding 1 on each side,
    64 -> 128 features, groups 1

Layout letters are the usual ones: N batch, C feature, O/I the kernel's output/input
features, and W, HW, DHW for 1-, 2- and 3-D spatial dimensions (digits beyond that).
"""

from __future__ import annotations

from ..ir.attributes import WindowDim
from ..ir.computation import Computation
from ..ir.conv_dims import ConvDimLabels
from ..ir.instruction import Instruction

_SPATIAL = {1: "W", 2: "HW", 3: "DHW"}


def describe_convolution(inst: Instruction, comp: Computation) -> str:
    """One sentence about a convolution instruction of `comp`."""
    labels = inst.attr("dim_labels")
    if not isinstance(labels, ConvDimLabels):
        return "convolution (no dim_labels)"
    window: tuple[WindowDim, ...] = tuple(inst.attr("window", ()))
    rank = labels.spatial_rank
    lhs = comp[inst.operands[0]].array_shape
    features_in, features_out = lhs.dims[labels.input_feature], inst.array_shape.dims[labels.output_feature]
    sizes = "x".join(str(w.size) for w in window) or "1x1"
    words = [f"{rank}-D convolution",
             f"{letters(labels, 'input')} input",
             f"{letters(labels, 'kernel')} kernel {sizes}",
             _stride(window), _padding(window)]
    words += _dilations(window)
    words.append(f"{features_in} -> {features_out} features")
    words.append(_groups(inst, features_in))
    if labels_out := letters(labels, "output"):
        if labels_out != letters(labels, "input"):
            words.append(f"{labels_out} output")
    return ", ".join(w for w in words if w)


def letters(labels: ConvDimLabels, which: str) -> str:
    """NHWC, HWIO, NCHW... for the input, kernel or output."""
    spatial_letters = _SPATIAL.get(labels.spatial_rank, "".join(str(k) for k in range(labels.spatial_rank)))
    if which == "input":
        parts = {labels.input_batch: "N", labels.input_feature: "C"}
        spatial = labels.input_spatial
    elif which == "kernel":
        parts = {labels.kernel_output_feature: "O", labels.kernel_input_feature: "I"}
        spatial = labels.kernel_spatial
    else:
        parts = {labels.output_batch: "N", labels.output_feature: "C"}
        spatial = labels.output_spatial
    parts.update({d: spatial_letters[k] for k, d in enumerate(spatial)})
    return "".join(parts[d] for d in range(labels.spatial_rank + 2))


def _same_or_x(values: list[int]) -> str:
    return str(values[0]) if len(set(values)) == 1 else "x".join(map(str, values))


def _stride(window: tuple[WindowDim, ...]) -> str:
    return f"stride {_same_or_x([w.stride for w in window])}" if window else "stride 1"


def _padding(window: tuple[WindowDim, ...]) -> str:
    if all(w.pad_low == w.pad_high == 0 for w in window):
        return "no padding"
    if len({(w.pad_low, w.pad_high) for w in window}) == 1 and window[0].pad_low == window[0].pad_high:
        return f"padding {window[0].pad_low} on each side"
    return "padding " + "x".join(f"{w.pad_low}_{w.pad_high}" for w in window) + " (low_high per dimension)"


def _dilations(window: tuple[WindowDim, ...]) -> list[str]:
    words = []
    if any(w.lhs_dilate != 1 for w in window):
        words.append(f"input dilated by {_same_or_x([w.lhs_dilate for w in window])} (a transposed convolution)")
    if any(w.rhs_dilate != 1 for w in window):
        words.append(f"kernel dilated by {_same_or_x([w.rhs_dilate for w in window])} (atrous)")
    if any(w.reversal for w in window):
        words.append("kernel reversed")
    return words


def _groups(inst: Instruction, features_in: int) -> str:
    batch_groups = inst.attr("batch_group_count", 1)
    if batch_groups > 1:
        return f"batch groups {batch_groups} (the weight-gradient form)"
    groups = inst.attr("feature_group_count", 1)
    if groups > 1 and groups == features_in:
        return f"groups {groups} (depthwise)"
    return f"groups {groups}"
