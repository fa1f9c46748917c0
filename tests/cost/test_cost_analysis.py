"""Flop and byte counts on hand-checked modules (XLA's HloCostAnalysis conventions)."""

from hloscope.cost import analyze, module_totals
from hloscope.ir.parser import parse_hlo

REDUCER = "add { x = f32[] parameter(0)  y = f32[] parameter(1)  ROOT s = f32[] add(x, y) }"


def test_elementwise_is_one_flop_per_element_and_transcendentals_apart():
    costs = analyze(parse_hlo("""
HloModule m
ENTRY e {
  a = f32[8,16] parameter(0)
  b = f32[8,16] parameter(1)
  m = f32[8,16] multiply(a, b)
  ROOT t = f32[8,16] tanh(m)
}"""))
    m, t = costs["m"], costs["t"]
    assert (m.flops, m.transcendentals, m.bytes_read, m.bytes_written) == (128, 0, 2 * 512, 512)
    assert (t.flops, t.transcendentals, t.bytes_read, t.bytes_written) == (0, 128, 512, 512)
    assert costs["a"].bytes_accessed == 0  # a parameter moves nothing by itself


def test_reduce_counts_one_op_per_element_combined():
    costs = analyze(parse_hlo(f"""
HloModule m
{REDUCER}
ENTRY e {{
  a = f32[32,100] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[32] reduce(a, z), dimensions={{1}}, to_apply=add
}}"""))
    r = costs["r"]
    assert r.flops == 32 * 100 - 32  # 99 adds per row
    assert (r.bytes_read, r.bytes_written) == (32 * 100 * 4 + 4, 32 * 4)


def test_dot_is_two_m_n_k():
    costs = analyze(parse_hlo("""
HloModule m
ENTRY e {
  a = f32[4,64,128] parameter(0)
  b = f32[4,128,32] parameter(1)
  ROOT d = f32[4,64,32] dot(a, b), lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={1}
}"""))
    d = costs["d"]
    assert d.flops == 2 * 4 * 64 * 32 * 128
    assert (d.bytes_read, d.bytes_written) == ((4 * 64 * 128 + 4 * 128 * 32) * 4, 4 * 64 * 32 * 4)


FUSED = """
HloModule m
fused { p0 = f32[1024] parameter(0)  p1 = f32[2048] parameter(1)
  s = f32[1024] slice(p1), slice={[0:1024]}
  e = f32[1024] exponential(p0)
  m = f32[1024] multiply(e, s)
  ROOT a = f32[1024] add(m, p0) }
ENTRY e {
  x = f32[1024] parameter(0)
  y = f32[2048] parameter(1)
  ROOT f = f32[1024] fusion(x, y), kind=kLoop, calls=fused
}"""


def test_fusion_counts_bytes_only_at_its_boundary():
    costs = analyze(parse_hlo(FUSED))
    f = costs["f"]
    assert (f.flops, f.transcendentals) == (2 * 1024, 1024)  # multiply + add; exponential apart
    # x is read once though two fused instructions use it; y only through the slice it keeps
    assert (f.bytes_read, f.bytes_written) == (4096 + 4096, 4096)
    inner = [costs[n] for n in ("s", "e", "m", "a")]
    assert all(c.fused_in == "f" for c in inner)
    unfused = sum(c.bytes_accessed for c in inner)
    assert unfused == (4096 + 4096) + (4096 + 4096) + (3 * 4096) + (3 * 4096)
    assert module_totals(parse_hlo(FUSED)).bytes_accessed == f.bytes_accessed


def test_the_cached_analysis_lets_the_module_go():
    import gc
    import weakref

    module = parse_hlo(FUSED)
    assert analyze(module) is analyze(module)  # made once per module
    gone = weakref.ref(module)
    del module
    gc.collect()
    assert gone() is None  # a notebook compiles hundreds: the cache must not keep them
