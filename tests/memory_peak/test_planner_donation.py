"""plan_memory honours input_output_alias: an output written into a donated parameter's
buffer takes no arena bytes, where nothing reads the parameter after the output is written."""

from __future__ import annotations

from hloscope import parse_hlo
from hloscope.memory import plan_memory

STEP = """HloModule step, is_scheduled=true{alias}

ENTRY main {{
  p = f32[1024]{{0}} parameter(0)
  q = f32[1024]{{0}} parameter(1)
  a = f32[1024]{{0}} exponential(q)
  b = f32[1024]{{0}} add(p, a)
  c = f32[1024]{{0}} multiply(a, q)
  ROOT t = (f32[1024]{{0}}, f32[1024]{{0}}) tuple(b, c)
}}
"""
DONATE_P = ", input_output_alias={ {0}: (0, {}, may-alias) }"


def test_a_donated_output_takes_no_arena_bytes():
    plain, donated = plan_memory(parse_hlo(STEP.format(alias=""))), plan_memory(parse_hlo(STEP.format(alias=DONATE_P)))
    assert plain.peak_bytes == 8192  # a and b live together, then c takes a's bytes in place
    b = donated.by_instruction("b")
    assert b is not None and (b.donor, b.offset, b.kind) == ("p", None, "output")
    assert donated.peak_bytes == donated.min_bytes == 4096
    assert "written into parameter p's buffer: donated" in str(donated)
    p = donated.by_instruction("p")
    assert p is not None and (p.start, p.end) == (0, len(donated.schedule) - 1)  # the caller's array, whole call


def test_an_alias_is_not_honoured_while_the_parameter_is_still_read():
    # b is written at position 3, but c reads p later: writing b over p would change c
    text = STEP.format(alias=DONATE_P).replace("multiply(a, q)", "multiply(a, p)")
    plan = plan_memory(parse_hlo(text))
    b = plan.by_instruction("b")
    assert b is not None and b.donor is None and b.offset is not None
    assert plan.peak_bytes == 8192


def test_an_alias_whose_reader_is_not_elementwise_is_not_honoured():
    text = """HloModule t, is_scheduled=true, input_output_alias={ {}: (0, {}, may-alias) }

ENTRY main {
  p = f32[16,16]{1,0} parameter(0)
  ROOT t = f32[16,16]{1,0} transpose(p), dimensions={1,0}
}
"""
    plan = plan_memory(parse_hlo(text))
    t = plan.by_instruction("t")
    assert t is not None and t.donor is None and plan.peak_bytes == 1024


CHAIN_INTO_W = """HloModule chain, is_scheduled=true, input_output_alias={ {0}: (0, {}, may-alias) }

ENTRY main {
  w = f32[1024]{0} parameter(0)
  g = f32[1024]{0} parameter(1)
  t1 = f32[1024]{0} subtract(w, g)
  t2 = f32[1024]{0} multiply(t1, t1)
  e = f32[1024]{0} exponential(g)
  ROOT t = (f32[1024]{0}, f32[1024]{0}) tuple(t2, e)
}
"""


def test_a_donated_in_place_chain_compiles_and_runs_natively():
    import numpy as np

    import hloscope

    module = parse_hlo(CHAIN_INTO_W)
    plan = plan_memory(module)
    t2 = plan.by_instruction("t2")
    assert t2 is not None and t2.values == ("t1", "t2") and t2.donor == "w" and t2.offset is None
    exe = hloscope.compile(module, backend="cpu", cache=False)
    rng = np.random.default_rng(0)
    w, g = rng.standard_normal(1024).astype(np.float32), rng.standard_normal(1024).astype(np.float32)
    want = hloscope.evaluate(module, w, g)
    for got in (exe(w.copy(), g), exe.call_donating(w.copy(), g)):
        for a, b in zip(got, want):
            np.testing.assert_allclose(a, b, rtol=1e-6)
