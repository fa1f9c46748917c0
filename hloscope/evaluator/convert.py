"""Type changes: `convert` (by value), `bitcast-convert` (by bits), `reduce-precision`.

convert follows XLA's literal conversion (xla/literal.cc, ConvertBetweenNativeTypes):
float -> int truncates toward zero, saturates to the int's range and maps NaN to 0;
anything -> pred is `x != 0`; float -> f16/bf16 rounds to nearest even.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..errors import NotSupportedError
from ..ir.dtypes import finfo, from_numpy, iinfo
from ..ir.instruction import Instruction

if TYPE_CHECKING:  # annotations only: core imports the handler table, which imports this file
    from .core import Evaluator


def convert(x: np.ndarray, to: np.dtype) -> np.ndarray:
    """x converted by value to dtype `to`, with XLA's rules."""
    to = np.dtype(to)
    if to == x.dtype:
        return x
    if to == np.bool_:
        return np.asarray(x != 0)
    src, dst = from_numpy(x.dtype), from_numpy(to)
    if src.is_float and dst.is_integer:
        return _float_to_int(x, to)
    if to.name == "bfloat16" and x.dtype == np.float64:
        # Eigen's bfloat16(double) goes through float: two roundings, as in XLA.
        return x.astype(np.float32).astype(to)
    return x.astype(to)


def _float_to_int(x: np.ndarray, to: np.dtype) -> np.ndarray:
    """Truncate toward zero; NaN -> 0; beyond the range -> the range's min or max."""
    info = iinfo(to)  # the sub-byte integers' too
    wide = x.astype(np.float64)  # exact for every float type up to f64
    t = np.trunc(wide)
    too_big = t >= 2.0 ** (info.bits - (1 if info.min < 0 else 0))
    too_small = t <= float(info.min)
    in_range = ~(np.isnan(t) | too_big | too_small)  # NaN compares false: it stays 0
    value = np.where(in_range, t, 0).astype(to)
    value = np.where(too_big, to.type(info.max), value)
    return np.where(too_small, to.type(info.min), value).astype(to)


def handle_convert(ev: Evaluator, inst: Instruction, ops: list):
    """convert(x): each element converted by value to the result's element type."""
    return convert(ops[0], inst.array_shape.numpy_dtype)


def handle_bitcast_convert(ev: Evaluator, inst: Instruction, ops: list):
    """bitcast-convert(x): the same bits read as another type (little-endian, as on the host).

    A narrower result gains a minor dimension (f32[2] -> u8[2,4]); a wider one consumes it.
    """
    x = np.asarray(ops[0], order="C")  # not ascontiguousarray: it makes a scalar 1-d
    shape = inst.array_shape
    to = shape.numpy_dtype
    if to.itemsize == x.dtype.itemsize:
        return x.view(to)
    if to.itemsize < x.dtype.itemsize:
        return x.reshape(x.shape + (1,)).view(to).reshape(shape.dims)  # numpy views no 0-d array narrower
    return x.reshape(x.shape[:-1] + (-1,)).view(to).reshape(shape.dims)


def reduce_precision(x: np.ndarray, exponent_bits: int, mantissa_bits: int) -> np.ndarray:
    """Round x to a float with the given exponent and mantissa widths, keeping its type.

    XLA's EmitReducePrecisionIR: round the mantissa to nearest even, then send exponents
    beyond the new range to +-inf (overflow) or +-0 (underflow, denormals included).
    """
    element = from_numpy(x.dtype)
    if not element.is_float:
        raise NotSupportedError(f"not supported: reduce-precision on {element.name}")
    nbits = element.bits
    src_mantissa = finfo(x.dtype).nmant
    src_exponent = nbits - 1 - src_mantissa
    u = np.dtype(f"u{x.dtype.itemsize}").type
    bits = np.array(x, order="C").view(u)  # (a copy; ascontiguousarray would make a scalar 1-d)
    sign_mask = u(1 << (nbits - 1))
    exp_mask = u(((1 << src_exponent) - 1) << src_mantissa)
    is_nan = (bits & ~sign_mask) > exp_mask
    if mantissa_bits < src_mantissa:
        bits = _round_mantissa(bits, u, src_mantissa - mantissa_bits)
    if exponent_bits < src_exponent:
        bits = _clamp_exponent(bits, u, src_exponent, src_mantissa, exponent_bits, sign_mask, exp_mask)
    result = bits.view(x.dtype)
    if mantissa_bits > 0:
        return np.where(is_nan, x, result)
    return np.where(is_nan, x.dtype.type(np.inf), result)


def _round_mantissa(bits, u, dropped: int):
    last = u(1 << dropped)
    bias = (last >> u(1)) - u(1) + ((bits & last) >> u(dropped))
    return (bits + bias) & ~(last - u(1))


def _clamp_exponent(bits, u, src_exponent, src_mantissa, exponent_bits, sign_mask, exp_mask):
    bias = (1 << (src_exponent - 1)) - 1
    reduced_bias = (1 << (exponent_bits - 1)) - 1
    exponent = bits & exp_mask
    overflow = exponent > u((bias + reduced_bias) << src_mantissa)
    underflow = exponent <= u((bias - reduced_bias) << src_mantissa)
    signed_zero = bits & sign_mask
    bits = np.where(overflow, signed_zero | exp_mask, bits)
    return np.where(underflow, signed_zero, bits)


def handle_reduce_precision(ev: Evaluator, inst: Instruction, ops: list):
    """reduce-precision(x), exponent_bits=E, mantissa_bits=M."""
    x = ops[0]
    return reduce_precision(x, inst.attr("exponent_bits"), inst.attr("mantissa_bits"))


HANDLERS = {
    "convert": handle_convert,
    "bitcast-convert": handle_bitcast_convert,
    "reduce-precision": handle_reduce_precision,
}
