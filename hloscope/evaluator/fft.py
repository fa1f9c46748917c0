"""`fft` in the evaluator: numpy.fft over the last len(fft_length) axes, in the result's type."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..ir.instruction import Instruction

if TYPE_CHECKING:  # annotations only: core imports the handler table, which imports this file
    from .core import Evaluator


def handle_fft(ev: Evaluator, inst: Instruction, ops: list):
    """fft(x), fft_type=FFT|IFFT|RFFT|IRFFT, fft_length={...}."""
    x = ops[0]
    lengths = tuple(inst.attr("fft_length"))
    axes = tuple(range(x.ndim - len(lengths), x.ndim))
    kind = inst.attr("fft_type")
    if kind == "FFT":
        out = np.fft.fftn(x, s=lengths, axes=axes)
    elif kind == "IFFT":
        out = np.fft.ifftn(x, s=lengths, axes=axes)
    elif kind == "RFFT":
        out = np.fft.rfftn(x, s=lengths, axes=axes)
    else:
        out = np.fft.irfftn(x, s=lengths, axes=axes)
    return out.astype(inst.array_shape.numpy_dtype)


HANDLERS = {"fft": handle_fft}
