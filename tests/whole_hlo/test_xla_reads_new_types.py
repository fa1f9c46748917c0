"""XLA's own parser (jaxlib) reads hloscope's print of the new element types and of fft as
the same module: the same instructions, and XLA's print read back prints as ours."""

import pytest

import hloscope as hs

pytest.importorskip("jax", reason="jax (the optional 'jax' extra) is not installed")
from jax._src.lib import xla_client  # noqa: E402

pytestmark = pytest.mark.jax

MODULES = {
    "complex": """HloModule m
ENTRY e {
  a = c64[4] parameter(0)
  b = f32[4] parameter(1)
  c = c64[4] complex(b, b)
  d = c64[4] divide(a, c)
  k = c64[2] constant({(1, -2.5), (0, 3)})
  r = f32[4] real(d)
  ab = f32[4] abs(d)
  eq = pred[4] compare(a, c), direction=NE
  ROOT t = (f32[4], f32[4], pred[4], c64[2]) tuple(r, ab, eq, k)
}
""",
    "fft": """HloModule m
ENTRY e {
  x = f32[3,8] parameter(0)
  r = c64[3,5] fft(x), fft_type=RFFT, fft_length={8}
  f = c64[3,5] fft(r), fft_type=FFT, fft_length={3,5}
  i = c64[3,5] fft(f), fft_type=IFFT, fft_length={3,5}
  ROOT ir = f32[3,8] fft(i), fft_type=IRFFT, fft_length={8}
}
""",
    "small types": """HloModule m
ENTRY e {
  x = f32[4] parameter(0)
  a = f8e4m3fn[4] convert(x)
  b = f8e5m2fnuz[4] convert(x)
  c = s4[4] convert(x)
  d = u2[4] constant({0, 1, 2, 3})
  e = f4e2m1fn[4] convert(x)
  f = f8e8m0fnu[2] constant({1, 0.5})
  g = u64[] constant(-1)
  h = c128[] constant((1e300, -inf))
  ROOT t = (f8e4m3fn[4], f8e5m2fnuz[4], s4[4], u2[4], f4e2m1fn[4], f8e8m0fnu[2], u64[], c128[]) tuple(a, b, c, d, e, f, g, h)
}
""",
    "rng-bit-generator": """HloModule m
ENTRY e {
  s = u64[2] parameter(0)
  ROOT r = (u64[2], u32[4,4]) rng-bit-generator(s), algorithm=rng_default
}
""",
}


@pytest.mark.parametrize("name", list(MODULES))
def test_xla_reads_our_print_as_the_same_module(name):
    ours = hs.parse_hlo(MODULES[name])
    ours.verify()
    theirs = xla_client.hlo.hlo_module_from_text(ours.to_text()).to_string()
    back = hs.parse_hlo(theirs)
    back.verify()
    # XLA prints in its own post order: the same lines, perhaps in another order
    assert sorted(back.to_text().splitlines()) == sorted(ours.to_text().splitlines())


@pytest.mark.parametrize("constant", ["f8e4m3fn[] constant(1000)", "s4[] constant(8)", "c64[] constant(1)",
                                      "f32[] constant(1e39)", "u32[] constant(-1)"])
def test_both_parsers_reject_out_of_range_constants(constant):
    text = f"HloModule m\nENTRY e {{\n  ROOT p = {constant}\n}}\n"
    with pytest.raises(hs.HloParseError):
        hs.parse_hlo(text)
    with pytest.raises(Exception, match="out of range|unsupported primitive type"):
        xla_client.hlo.hlo_module_from_text(text)
