"""Shape rule for `fft(x), fft_type=T, fft_length={...}` (XLA's ShapeInference::InferFftShape).

The transform runs over the last len(fft_length) (1 to 3) dimensions. FFT and IFFT map
complex to the same complex shape; RFFT takes f32/f64 to c64/c128 keeping n/2+1 values of
the last dimension; IRFFT goes back, its last dimension becoming fft_length's last.
"""

from __future__ import annotations

from ..dtypes import complex_of, element_type, real_part_type
from ..opcodes import FFT_TYPES
from ..shape import Shape
from .common import OpCall, check, fmt



def fft(op: OpCall) -> Shape:
    x = op.array(0, "fft operand")
    kind = op.attr("fft_type")
    lengths = tuple(op.attr("fft_length"))
    check(kind in FFT_TYPES, f"fft_type {kind} is not one of {', '.join(FFT_TYPES)}")
    check(1 <= len(lengths) <= 3, f"fft_length {{{','.join(map(str, lengths))}}} must have 1 to 3 dimensions")
    check(x.rank >= len(lengths), f"fft of rank {len(lengths)} needs an operand of rank >= {len(lengths)}, got {fmt(x)}")
    et = element_type(x.dtype)
    n = len(lengths)
    trailing = x.dims[x.rank - n:]
    if kind in ("FFT", "IFFT"):
        check(et.is_complex, f"{kind} needs a complex operand, got {fmt(x)}")
        check(trailing == lengths, f"{kind} fft_length {list(lengths)} must equal the last dimensions of {fmt(x)}")
        return x
    if kind == "RFFT":
        made = complex_of(et)
        check(made is not None, f"RFFT needs an f32 or f64 operand, got {fmt(x)}")
        check(trailing == lengths, f"RFFT fft_length {list(lengths)} must equal the last dimensions of {fmt(x)}")
        dims = (*x.dims[:-1], lengths[-1] // 2 + 1 if lengths[-1] else 0)
        return x.with_dims(dims).with_dtype(made.name if made else x.dtype)
    check(et.is_complex, f"IRFFT needs a complex operand, got {fmt(x)}")
    want = (*lengths[:-1], lengths[-1] // 2 + 1 if lengths[-1] else 0)
    check(trailing == want, f"IRFFT of fft_length {list(lengths)} needs last dimensions {list(want)}, got {fmt(x)}")
    return x.with_dims((*x.dims[:-1], lengths[-1])).with_dtype(real_part_type(et).name)


RULES = {"fft": fft}
