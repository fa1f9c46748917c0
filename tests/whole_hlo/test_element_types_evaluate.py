"""The evaluator on complex, f8/f4 and sub-byte integer types, against numpy, ml_dtypes and
(when installed) JAX; the code-generating backends refuse these types by name."""

import ml_dtypes
import numpy as np
import pytest

import hloscope as hs
from hloscope.errors import NotSupportedError
from hloscope.evaluator import evaluate
from hloscope.ir.parser import parse_hlo
from hloscope.ir.verifier import verify_module


def run(body: str, *args):
    m = parse_hlo(f"HloModule m\nENTRY e {{\n{body}\n}}\n")
    verify_module(m)
    return evaluate(m, *args)


A = np.array([1 + 2j, 3 - 1j, 0.5j, -2, 1e-3 + 4j, 0], np.complex64)
B = np.array([1.5 - 1j, -2, 3.25 + 2j, 100j, 1, -0.5], np.complex64)


@pytest.mark.parametrize("opcode, numpy_fn", [
    ("add", np.add), ("subtract", np.subtract), ("multiply", np.multiply), ("divide", np.divide),
])
def test_complex_binary_ops_match_numpy(opcode, numpy_fn):
    got = run(f"  a = c64[6] parameter(0)\n  b = c64[6] parameter(1)\n  ROOT r = c64[6] {opcode}(a, b)", A, B)
    assert got.dtype == np.complex64
    np.testing.assert_allclose(got, numpy_fn(A, B), rtol=1e-6)


@pytest.mark.parametrize("opcode, numpy_fn", [
    ("exponential", np.exp), ("log", np.log), ("sqrt", np.sqrt), ("negate", np.negative),
    ("tanh", np.tanh), ("sine", np.sin), ("cosine", np.cos),
])
def test_complex_unary_ops_match_numpy(opcode, numpy_fn):
    x = A[A != 0]
    got = run(f"  a = c64[5] parameter(0)\n  ROOT r = c64[5] {opcode}(a)", x)
    np.testing.assert_allclose(got, numpy_fn(x), rtol=2e-6)


def test_abs_real_imag_complex_and_compare():
    got = run("  a = c64[6] parameter(0)\n  b = c64[6] parameter(1)\n"
              "  ab = f32[6] abs(a)\n  re = f32[6] real(a)\n  im = f32[6] imag(a)\n  c = c64[6] complex(re, im)\n"
              "  eq = pred[6] compare(a, c), direction=EQ\n  ne = pred[6] compare(a, b), direction=NE\n"
              "  sg = c64[6] sign(a)\n"
              "  ROOT t = (f32[6], f32[6], f32[6], pred[6], pred[6], c64[6]) tuple(ab, re, im, eq, ne, sg)", A, B)
    ab, re, im, eq, ne, sg = got
    assert ab.dtype == re.dtype == im.dtype == np.float32
    np.testing.assert_allclose(ab, np.abs(A), rtol=1e-6)
    np.testing.assert_array_equal(re, A.real)
    np.testing.assert_array_equal(im, A.imag)
    assert eq.all() and ne.tolist() == (A != B).tolist()
    np.testing.assert_allclose(sg, np.where(A == 0, 0, A / np.where(A == 0, 1, np.abs(A))), rtol=1e-6)


def test_complex_with_an_infinite_imaginary_part_keeps_its_real_part():
    got = run("  re = f64[1] parameter(0)\n  im = f64[1] parameter(1)\n  ROOT c = c128[1] complex(re, im)",
              np.array([2.0]), np.array([np.inf]))
    assert got[0].real == 2.0 and got[0].imag == np.inf


FFTS = [
    ("c64[3,8]", "c64[3,8]", "FFT", "{8}", lambda x: np.fft.fft(x)),
    ("c64[3,8]", "c64[3,8]", "IFFT", "{3,8}", lambda x: np.fft.ifft2(x)),
    ("f32[3,8]", "c64[3,5]", "RFFT", "{8}", lambda x: np.fft.rfft(x)),
    ("c64[3,5]", "f32[3,8]", "IRFFT", "{8}", lambda x: np.fft.irfft(x, 8)),
]


@pytest.mark.parametrize("operand, result, kind, lengths, reference", FFTS, ids=[f[2] for f in FFTS])
def test_fft_matches_numpy_fft(operand, result, kind, lengths, reference):
    rng = np.random.default_rng(0)
    shape = (3, 8) if "8" in operand else (3, 5)
    x = rng.standard_normal(shape).astype(np.float32)
    if operand.startswith("c64"):
        x = (x + 1j * rng.standard_normal(shape)).astype(np.complex64)
    got = run(f"  x = {operand} parameter(0)\n  ROOT f = {result} fft(x), fft_type={kind}, fft_length={lengths}", x)
    want = reference(x)
    assert got.dtype == (np.complex64 if result.startswith("c64") else np.float32)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


@pytest.mark.jax
def test_fft_matches_jax():
    jnp = pytest.importorskip("jax.numpy")
    x = (np.arange(16, dtype=np.float32).reshape(2, 8) ** 1.5).astype(np.float32)
    got = run("  x = f32[2,8] parameter(0)\n  ROOT f = c64[2,5] fft(x), fft_type=RFFT, fft_length={8}", x)
    np.testing.assert_allclose(got, np.asarray(jnp.fft.rfft(x)), rtol=1e-5, atol=1e-4)


F8_TYPES = ["f8e4m3fn", "f8e5m2", "f8e4m3fnuz", "f8e5m2fnuz", "f8e4m3b11fnuz", "f8e3m4", "f8e4m3", "f4e2m1fn"]


@pytest.mark.parametrize("name", F8_TYPES)
def test_f8_conversions_round_as_ml_dtypes(name):
    from hloscope.ir.dtypes import element_type

    dtype = element_type(name).numpy
    x = np.array([0.1, -1.7, 3.3, 0.0, 5.5, -0.3], np.float32)
    narrow, back, doubled = run(
        f"  x = f32[6] parameter(0)\n  n = {name}[6] convert(x)\n  b = f32[6] convert(n)\n"
        f"  d = {name}[6] add(n, n)\n  ROOT t = ({name}[6], f32[6], {name}[6]) tuple(n, b, d)", x)
    assert narrow.dtype == dtype
    np.testing.assert_array_equal(narrow.astype(np.float32), x.astype(dtype).astype(np.float32))
    np.testing.assert_array_equal(back, x.astype(dtype).astype(np.float32))
    # one rounding of the f32 sum, as XLA's evaluator computes small floats
    want = (x.astype(dtype).astype(np.float32) * 2).astype(dtype)
    np.testing.assert_array_equal(doubled.astype(np.float32), want.astype(np.float32))


@pytest.mark.parametrize("name, low, high", [("s4", -8, 7), ("u4", 0, 15), ("s2", -2, 1), ("u2", 0, 3)])
def test_sub_byte_integers_saturate_on_convert_and_wrap_on_add(name, low, high):
    x = np.array([-100.0, -1.5, 0.7, 2.9, 100.0], np.float32)
    converted, summed = run(f"  x = f32[5] parameter(0)\n  n = {name}[5] convert(x)\n  s = {name}[5] add(n, n)\n"
                            f"  ROOT t = ({name}[5], {name}[5]) tuple(n, s)", x)
    want = np.clip(np.trunc(x), low, high).astype(np.int64)
    assert converted.astype(np.int64).tolist() == want.tolist()
    width = high - low + 1
    wrapped = [((2 * int(v) - low) % width) + low for v in want]
    assert summed.astype(np.int64).tolist() == wrapped


def test_int4_compare_is_by_value():
    x = np.array([-8, -1, 0, 7], ml_dtypes.int4)
    y = np.array([7, -1, 1, -8], ml_dtypes.int4)
    got = run("  x = s4[4] parameter(0)\n  y = s4[4] parameter(1)\n  ROOT r = pred[4] compare(x, y), direction=LT", x, y)
    assert got.tolist() == [True, False, True, False]


def test_gpu_refuses_complex_by_name():
    text = "HloModule m\nENTRY e {\n  a = c64[4] parameter(0)\n  ROOT r = c64[4] multiply(a, a)\n}\n"
    with pytest.raises(NotSupportedError, match="not supported on gpu: c64 element type in parameter"):
        hs.compile(text, backend="gpu")


def test_cpu_refuses_a_complex_op_it_does_not_lower_by_name():
    """(complex elementwise ops compile on the CPU: tests/whole_hlo/test_cpu_complex.py)"""
    text = "HloModule m\nENTRY e {\n  a = c64[4,4] parameter(0)\n  ROOT r = c64[4,4] dot(a, a), " \
           "lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n"
    with pytest.raises(NotSupportedError, match=r"not supported on cpu: dot on c64 \(instruction r\)"):
        hs.compile(text, backend="cpu")


def test_backend_refuses_f8_arithmetic_by_name():
    """(f8 converts compile on the CPU: tests/whole_hlo/test_cpu_small_floats.py)"""
    text = ("HloModule m\nENTRY e {\n  a = f32[4] parameter(0)\n  n = f8e4m3fn[4] convert(a)\n"
            "  ROOT r = f8e4m3fn[4] add(n, n)\n}\n")
    with pytest.raises(NotSupportedError, match=r"not supported on cpu: add on f8e4m3fn \(instruction r"):
        hs.compile(text, backend="cpu")
    with pytest.raises(NotSupportedError, match="not supported on gpu: f8e4m3fn element type in convert"):
        hs.compile(text, backend="gpu")
