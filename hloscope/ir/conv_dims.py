"""A convolution's dimension numbers, `dim_labels=b01f_01io->b01f` in XLA's text.

Three label strings, one letter per dimension of the input (lhs), the kernel (rhs) and the
output: `b` batch, `f` feature, `i`/`o` the kernel's input/output feature, and the digits
0, 1, 2, ... the spatial dimensions in order. `b01f_01io->b01f` is NHWC input, HWIO kernel,
NHWC output; `bf01_oi01->bf01` is NCHW/OIHW. Any order is allowed, as in XLA.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ConvDimLabels:
    """Which dimension of each operand plays which part (XLA's ConvolutionDimensionNumbers)."""

    input_batch: int
    input_feature: int
    input_spatial: tuple[int, ...]
    kernel_input_feature: int
    kernel_output_feature: int
    kernel_spatial: tuple[int, ...]
    output_batch: int
    output_feature: int
    output_spatial: tuple[int, ...]

    @property
    def spatial_rank(self) -> int:
        return len(self.input_spatial)

    def __str__(self) -> str:
        lhs = _labels(self.input_batch, self.input_feature, self.input_spatial, "bf")
        rhs = _labels(self.kernel_input_feature, self.kernel_output_feature, self.kernel_spatial, "io")
        out = _labels(self.output_batch, self.output_feature, self.output_spatial, "bf")
        return f"{lhs}_{rhs}->{out}"


def _labels(first: int, second: int, spatial: tuple[int, ...], letters: str) -> str:
    chars = [""] * (2 + len(spatial))
    chars[first], chars[second] = letters[0], letters[1]
    for k, d in enumerate(spatial):
        chars[d] = str(k)
    return "".join(chars)


def parse_dim_labels(text: str) -> ConvDimLabels:
    """`b01f_01io->b01f` -> ConvDimLabels. Raises ValueError saying what is wrong."""
    left, arrow, out = text.partition("->")
    lhs, underscore, rhs = left.partition("_")
    if not arrow or not underscore:
        raise ValueError(f"dim_labels {text!r} must look like b01f_01io->b01f")
    b, f, ls = _parse_one(lhs, "bf", "input")
    i, o, ks = _parse_one(rhs, "io", "kernel")
    ob, of, os_ = _parse_one(out, "bf", "output")
    if not len(ls) == len(ks) == len(os_):
        raise ValueError(f"dim_labels {text!r}: input, kernel and output need the same spatial dimensions")
    return ConvDimLabels(b, f, ls, i, o, ks, ob, of, os_)


def _parse_one(labels: str, letters: str, what: str) -> tuple[int, int, tuple[int, ...]]:
    """Positions of the two letters and of the spatial digits 0..n-1 in one label string."""
    n = len(labels) - 2
    expected = sorted(letters + "".join(str(k) for k in range(max(n, 0))))
    if n < 0 or n > 10 or sorted(labels) != expected:
        digits = f"the spatial digits 0..{n - 1} once each" if n > 0 else "nothing else"
        raise ValueError(f"{what} dim_labels {labels!r} must hold {letters[0]!r} and {letters[1]!r} once each, "
                         f"and {digits}")
    return labels.index(letters[0]), labels.index(letters[1]), tuple(labels.index(str(k)) for k in range(n))
