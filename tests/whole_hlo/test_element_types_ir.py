"""Complex, f8/f4 and sub-byte integer element types: constants read and print as XLA's
parser does (its printed forms recorded from jaxlib 0.10.2), shape rules, and refusals."""

import numpy as np
import pytest

from hloscope.errors import HloParseError, HloVerifierError
from hloscope.ir.parser import parse_hlo
from hloscope.ir.verifier import verify_module


def module(body: str) -> str:
    return f"HloModule m\nENTRY e {{\n{body}\n}}\n"


def root_line(text: str) -> str:
    return [line.strip() for line in text.splitlines() if "ROOT" in line][0]


# (our input, XLA's print of it: recorded from jaxlib 0.10.2's hlo_module_from_text(...).to_string())
CONSTANTS = [
    ("c64[] constant((1, 2))", "ROOT %p = c64[] constant((1, 2))"),
    ("c64[2] constant({(1, 2), (3.5, -4)})", "ROOT %p = c64[2]{0} constant({(1, 2), (3.5, -4)})"),
    ("c128[1] constant({(1e300, 2)})", "ROOT %p = c128[1]{0} constant({(1e+300, 2)})"),
    ("f8e4m3fn[3] constant({1, 448, -0.5})", "ROOT %p = f8e4m3fn[3]{0} constant({1, 448, -0.5})"),
    ("s4[3] constant({-8, 7, 0})", "ROOT %p = s4[3]{0} constant({-8, 7, 0})"),
    ("u2[2] constant({3, 0})", "ROOT %p = u2[2]{0} constant({3, 0})"),
    ("s1[2] constant({-1, 0})", "ROOT %p = s1[2]{0} constant({-1, 0})"),
    ("u1[2] constant({1, 0})", "ROOT %p = u1[2]{0} constant({1, 0})"),
    ("f4e2m1fn[2] constant({6, -0.5})", "ROOT %p = f4e2m1fn[2]{0} constant({6, -0.5})"),
    ("f8e8m0fnu[2] constant({1, 0.25})", "ROOT %p = f8e8m0fnu[2]{0} constant({1, 0.25})"),
    ("u64[] constant(-1)", "ROOT %p = u64[] constant(18446744073709551615)"),
    ("u64[2] constant({-1, 5})", "ROOT %p = u64[2]{0} constant({18446744073709551615, 5})"),
    ("s64[] constant(18446744073709551615)", "ROOT %p = s64[] constant(-1)"),
]


@pytest.mark.parametrize("given, xla_prints", CONSTANTS, ids=[c[0] for c in CONSTANTS])
def test_constants_print_as_xla_prints_them(given, xla_prints):
    m = parse_hlo(module(f"  ROOT p = {given}"))
    text = m.to_text()
    assert root_line(text) == xla_prints
    again = parse_hlo(text)  # our print reads back as the same module
    assert again.to_text() == text
    assert again.entry_computation["p"].literal == m.entry_computation["p"].literal


def test_constant_values_have_the_ml_dtypes_types():
    import ml_dtypes

    lit = parse_hlo(module("  ROOT p = s4[3] constant({-8, 7, 0})")).entry_computation["p"].literal
    assert lit is not None and isinstance(lit.value, np.ndarray)
    assert lit.value.dtype == ml_dtypes.int4 and lit.value.tolist() == [-8, 7, 0]
    c = parse_hlo(module("  ROOT p = c128[2] constant({(1, -2), (nan, inf)})")).entry_computation["p"].literal
    assert c is not None and isinstance(c.value, np.ndarray)
    assert c.value.dtype == np.complex128 and c.value[0] == 1 - 2j
    assert np.isnan(c.value[1].real) and c.value[1].imag == np.inf  # not nan + nan j


# (constant, column of the error, what the message says); XLA rejects each of these too.
BAD_CONSTANTS = [
    ("f8e4m3fn[] constant(1000)", 32, r"value 1000 is out of range for f8e4m3fn, namely \[-448, 448\]"),
    ("s4[] constant(8)", 26, r"value 8 is out of range for s4, namely \[-8, 7\]"),
    ("u32[] constant(-1)", 27, "value -1 is out of range for u32"),
    ("f32[] constant(1e39)", 27, "value 1e\\+39 is out of range for f32"),
    ("f16[] constant(1e10)", 27, "value 1e\\+10 is out of range for f16"),
    ("c64[] constant(1)", 27, r"expected a c64 value such as \(1, 2\)"),
    ("c64[] constant((1e39, 0))", 27, "real part value 1e\\+39 is out of range for f32"),
    ("f8e8m0fnu[] constant(-1)", 33, "value -1 is out of range for f8e8m0fnu"),
    ("c64[2] constant({(1, 2)})", 28, r"literal has 1 \(real, imag\) values but c64\[2\] needs 2"),
    ("f32[2,2] constant({1, 2, 3, 4})", 30, "expects nested array in rank 2, but sees 1"),
    ("f32[4] constant({{1, 2}, {3, 4}})", 28, "expects nested array in rank 1, but sees larger"),
    ("f32[2,2] constant({{1, 2, 3}, {4}})", 30, "expects 2 elements in dimension 1 of f32\\[2,2\\], but sees 3"),
]


@pytest.mark.parametrize("given, column, message", BAD_CONSTANTS, ids=[c[0] for c in BAD_CONSTANTS])
def test_bad_constants_are_rejected_where_xla_rejects_them(given, column, message):
    with pytest.raises(HloParseError, match=message) as e:
        parse_hlo(module(f"  ROOT p = {given}"))
    assert (e.value.line, e.value.column) == (3, column)


def test_complex_ops_have_xla_shapes():
    m = parse_hlo(module(
        "  a = c64[4] parameter(0)\n  b = f64[4] parameter(1)\n"
        "  re = f32[4] real(a)\n  im = f32[4] imag(a)\n  ab = f32[4] abs(a)\n"
        "  c = c128[4] complex(b, b)\n  e = c64[4] exponential(a)\n  eq = pred[4] compare(a, a), direction=NE\n"
        "  ROOT t = (f32[4], f32[4], f32[4], c128[4], c64[4], pred[4]) tuple(re, im, ab, c, e, eq)"))
    verify_module(m)


@pytest.mark.parametrize("line, message", [
    ("r = c64[4] real(a)", r"instruction r: declared shape c64\[4\] but inferred f32\[4\]"),
    ("r = pred[4] compare(a, a), direction=LT", "compare LT is not defined on complex"),
    ("r = f32[4] convert(a)", "convert from complex c64\\[4\\]"),
    ("r = c64[4] floor(a)", "floor is not defined on complex"),
    ("r = c64[4] maximum(a, a)", "maximum is not defined on complex"),
    ("r = c64[4] complex(a, a)", "complex needs f32 or f64 operands"),
])
def test_complex_misuse_is_rejected_naming_the_op(line, message):
    m = parse_hlo(module(f"  a = c64[4] parameter(0)\n  ROOT {line}"))
    with pytest.raises(HloVerifierError, match=message):
        verify_module(m)


def test_fft_shapes():
    m = parse_hlo(module(
        "  a = c64[2,8] parameter(0)\n  b = f32[2,8] parameter(1)\n"
        "  f = c64[2,8] fft(a), fft_type=FFT, fft_length={8}\n"
        "  i = c64[2,8] fft(a), fft_type=IFFT, fft_length={2,8}\n"
        "  r = c64[2,5] fft(b), fft_type=RFFT, fft_length={8}\n"
        "  ir = f32[2,8] fft(r), fft_type=IRFFT, fft_length={8}\n"
        "  ROOT t = (c64[2,8], c64[2,8], c64[2,5], f32[2,8]) tuple(f, i, r, ir)"))
    verify_module(m)
    assert "fft_type=RFFT, fft_length={8}" in m.to_text()


@pytest.mark.parametrize("line, message", [
    ("f = c64[2,8] fft(b), fft_type=FFT, fft_length={8}", "FFT needs a complex operand"),
    ("f = c64[2,8] fft(a), fft_type=FFT, fft_length={4}", "must equal the last dimensions"),
    ("f = c64[2,8] fft(a), fft_type=RFFT, fft_length={8}", "RFFT needs an f32 or f64 operand"),
    ("f = f32[2,8] fft(a), fft_type=IRFFT, fft_length={8}", r"IRFFT of fft_length \[8\] needs last dimensions \[5\]"),
    ("f = c64[2,8] fft(a), fft_type=FFT, fft_length={1,1,2,8}", "must have 1 to 3 dimensions"),
])
def test_bad_fft_is_rejected(line, message):
    m = parse_hlo(module(f"  a = c64[2,8] parameter(0)\n  b = f32[2,8] parameter(1)\n  ROOT {line}"))
    with pytest.raises(HloVerifierError, match=message):
        verify_module(m)


def test_unknown_fft_type_is_a_parse_error():
    with pytest.raises(HloParseError, match="unknown fft_type 'DFT'") as e:
        parse_hlo(module("  a = c64[8] parameter(0)\n  ROOT f = c64[8] fft(a), fft_type=DFT, fft_length={8}"))
    assert e.value.line == 4


def test_rng_bit_generator_takes_its_state_operand():
    """It was declared a 0-operand op: valid modules failed with "takes 0 operands, got 1"."""
    m = parse_hlo(module("  s = u64[2] parameter(0)\n"
                         "  ROOT r = (u64[2], u32[4,4]) rng-bit-generator(s), algorithm=rng_default"))
    verify_module(m)
    bad = parse_hlo(module("  ROOT r = (u64[2], u32[4,4]) rng-bit-generator(), algorithm=rng_default"))
    with pytest.raises(HloVerifierError, match="rng-bit-generator takes 1 operand, got 0"):
        verify_module(bad)
