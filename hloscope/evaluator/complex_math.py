"""c64/c128 in the evaluator: the complex functions XLA defines, and real, imag, complex.

numpy's complex ufuncs follow C99 Annex G, as XLA's evaluator (std::complex) does; the few
XLA defines differently are here: sign is x/|x| (0 at 0), rsqrt is 1/sqrt.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..ir.instruction import Instruction

if TYPE_CHECKING:  # annotations only: core imports the handler table, which imports this file
    from .core import Evaluator


def sign(x: np.ndarray) -> np.ndarray:
    """x / |x|, and 0 where x is 0 (XLA's complex sign)."""
    magnitude = np.abs(x)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(magnitude == 0, x.dtype.type(0), x / magnitude).astype(x.dtype)


def rsqrt(x: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return (1 / np.sqrt(x)).astype(x.dtype)


def logistic(x: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore", invalid="ignore"):
        return (1 / (1 + np.exp(-x))).astype(x.dtype)


def handle_real(ev: Evaluator, inst: Instruction, ops: list):
    """real(x): the real part (a real operand is its own real part)."""
    return np.real(ops[0]).astype(inst.array_shape.numpy_dtype)


def handle_imag(ev: Evaluator, inst: Instruction, ops: list):
    """imag(x): the imaginary part (0 for a real operand)."""
    return np.imag(ops[0]).astype(inst.array_shape.numpy_dtype)


def handle_complex(ev: Evaluator, inst: Instruction, ops: list):
    """complex(re, im) -> c64 from f32 parts, c128 from f64."""
    out = np.empty(ops[0].shape, inst.array_shape.numpy_dtype)
    out.real, out.imag = ops  # not re + 1j*im: an infinite im would make the real part nan
    return out


HANDLERS = {"real": handle_real, "imag": handle_imag, "complex": handle_complex}
