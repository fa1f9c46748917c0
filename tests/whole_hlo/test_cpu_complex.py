"""Complex numbers on the CPU backend (backend/cpu/complex_as_pairs.py): every lowered op
gives what the reference evaluator (numpy) gives, for c64 and c128, alone and fused; a jax
program's recorded output; fft as DFT matrix products, against numpy and jax's recorded
outputs; the executable keeps complex arguments and results."""

from pathlib import Path

import numpy as np
import pytest

import hloscope as hs

pytestmark = pytest.mark.hosts  # results that depend on the vector width and FMA (tests/hosts.py)

DUMPS = Path(__file__).parent / "dumps"
BODIES = {
    "add": "ROOT r = {c}[6] add(a, b)",
    "subtract": "ROOT r = {c}[6] subtract(a, b)",
    "negate": "ROOT r = {c}[6] negate(a)",
    "multiply": "ROOT r = {c}[6] multiply(a, b)",
    "divide": "ROOT r = {c}[6] divide(a, b)",
    "abs": "ROOT r = {f}[6] abs(a)",
    "exponential": "ROOT r = {c}[6] exponential(a)",
    "real": "ROOT r = {f}[6] real(a)",
    "imag": "ROOT r = {f}[6] imag(b)",
    "complex": "x = {f}[6] real(a)\n  y = {f}[6] imag(b)\n  ROOT r = {c}[6] complex(x, y)",
    "convert from real": "x = {f}[6] imag(a)\n  ROOT r = {c}[6] convert(x)",
    "convert c64/c128": "ROOT r = {other}[6] convert(a)",
    "select": "x = {f}[6] real(a)\n  y = {f}[6] real(b)\n  p = pred[6] compare(x, y), direction=LT\n"
              "  ROOT r = {c}[6] select(p, a, b)",
    "constant": "k = {c}[6] constant({{(1, 2), (3, -4), (0, 0), (-1, 0.5), (inf, 1), (2, nan)}})\n"
                "  ROOT r = {c}[6] multiply(a, k)",
    "moving data": "t = {c}[2,3] reshape(a)\n  u = {c}[3,2] transpose(t), dimensions={{1,0}}\n"
                   "  v = {c}[3,1] slice(u), slice={{[0:3], [1:2]}}\n  bs = {c}[1] slice(b), slice={{[0:1]}}\n"
                   "  b0 = {c}[] reshape(bs)\n  w = {c}[3,2] broadcast(b0), dimensions={{}}\n"
                   "  x = {c}[3,5] concatenate(v, u, w), dimensions={{1}}\n  y = {c}[3,5] reverse(x), dimensions={{0}}\n"
                   "  ROOT r = {c}[15] reshape(y)",
    "dynamic-slice": "i = s32[] constant(2)\n  ROOT r = {c}[3] dynamic-slice(a, i), dynamic_slice_sizes={{3}}",
    "fused chain": "m = {c}[6] multiply(a, b)\n  e = {c}[6] exponential(m)\n  d = {c}[6] divide(e, b)\n"
                   "  s = {c}[6] subtract(d, a)\n  ab = {f}[6] abs(s)\n  ROOT r = ({f}[6], {c}[6]) tuple(ab, s)",
}
FLOAT_OF = {"c64": "f32", "c128": "f64"}


def _module(body: str, c: str) -> str:
    other = "c128" if c == "c64" else "c64"
    b = body.format(c=c, f=FLOAT_OF[c], other=other)
    return f"HloModule m\nENTRY e {{\n  a = {c}[6] parameter(0)\n  b = {c}[6] parameter(1)\n  {b}\n}}\n"


def _inputs(c: str):
    rng = np.random.default_rng(7)
    dtype = np.complex64 if c == "c64" else np.complex128
    a = (rng.normal(size=6) * 3 + 1j * rng.normal(size=6) * 3).astype(dtype)
    b = (rng.normal(size=6) + 1j * rng.normal(size=6) * 100).astype(dtype)
    return a, b


@pytest.mark.parametrize("c", ["c64", "c128"])
@pytest.mark.parametrize("name", list(BODIES))
def test_compiled_complex_ops_give_the_evaluators_values(name, c):
    m = hs.parse_hlo(_module(BODIES[name], c))
    a, b = _inputs(c)
    want = hs.evaluate(m, a, b)
    got = hs.compile(m)(a, b)
    rtol = 1e-5 if c == "c64" else 1e-12
    wants, gots = (want, got) if isinstance(want, tuple) else ((want,), (got,))
    for w, g in zip(wants, gots, strict=True):
        assert np.asarray(g).dtype == np.asarray(w).dtype
        np.testing.assert_allclose(g, w, rtol=rtol, atol=rtol)


def test_abs_does_not_overflow_where_the_parts_square_past_the_range():
    m = hs.parse_hlo("HloModule m\nENTRY e {\n  a = c64[3] parameter(0)\n  ROOT r = f32[3] abs(a)\n}\n")
    a = np.array([3e30 + 4e30j, 0, complex(np.inf, np.nan)], np.complex64)
    np.testing.assert_allclose(hs.compile(m)(a), np.abs(a), rtol=1e-6)


@pytest.mark.parametrize("stage", ["lowered", "compiled"])
def test_a_jax_complex_program_gives_jax_recorded_output(stage):
    m = hs.parse_hlo((DUMPS / f"jax_complex_math.{stage}.hlo").read_text())
    x = np.ones(5, np.float32)
    np.testing.assert_allclose(hs.compile(m)(x), np.load(DUMPS / "jax_outputs.npz")["complex_math"], rtol=1e-6)


FFTS = [("FFT", "c64[3,8]", "c64[3,8]", "{8}"), ("IFFT", "c64[3,8]", "c64[3,8]", "{8}"),
        ("FFT", "c64[2,4,6]", "c64[2,4,6]", "{4,6}"), ("IFFT", "c128[2,3,5]", "c128[2,3,5]", "{2,3,5}"),
        ("RFFT", "f32[3,8]", "c64[3,5]", "{8}"), ("RFFT", "f32[4,7]", "c64[4,4]", "{7}"),
        ("RFFT", "f32[2,4,6]", "c64[2,4,4]", "{4,6}"), ("IRFFT", "c64[3,5]", "f32[3,8]", "{8}"),
        ("IRFFT", "c64[3,4]", "f32[3,7]", "{7}"), ("IRFFT", "c128[2,4,4]", "f64[2,4,6]", "{4,6}")]


@pytest.mark.parametrize("kind, operand, result, lengths", FFTS, ids=[f"{f[0]} {f[1]}" for f in FFTS])
def test_fft_as_dft_products_gives_numpys_fft(kind, operand, result, lengths):
    m = hs.parse_hlo(f"HloModule m\nENTRY e {{\n  a = {operand} parameter(0)\n"
                     f"  ROOT r = {result} fft(a), fft_type={kind}, fft_length={lengths}\n}}\n")
    shape = m.entry_computation.parameters[0].shape
    rng = np.random.default_rng(3)
    x = rng.normal(size=shape.dims) + (1j * rng.normal(size=shape.dims) if "c" in operand[:1] else 0)
    x = x.astype(shape.numpy_dtype)
    want, got = hs.evaluate(m, x), hs.compile(m)(x)
    assert got.dtype == want.dtype
    single = "64" in operand or "f32" in operand
    np.testing.assert_allclose(got, want, rtol=0, atol=(2e-6 if single else 1e-13) * np.max(np.abs(want)))


@pytest.mark.parametrize("name", ["fft2", "rfft_irfft"])
@pytest.mark.parametrize("stage", ["lowered", "compiled"])
def test_jax_fft_programs_give_jax_recorded_outputs(name, stage):
    m = hs.parse_hlo((DUMPS / f"jax_{name}.{stage}.hlo").read_text())
    got = hs.compile(m)(*[np.ones(p.shape.dims, p.shape.numpy_dtype) for p in m.entry_computation.parameters])
    np.testing.assert_allclose(np.asarray(got), np.load(DUMPS / "jax_outputs.npz")[name], rtol=1e-5, atol=1e-5)
