"""add-dependency-remover: a value ordered after a token compiles natively as the value itself
(XLA's CPU emitter gives add-dependency its operand's buffer); tokens something else needs stay."""

from __future__ import annotations

import numpy as np

import hloscope
from hloscope.passes.add_dependency_remover import AddDependencyRemover
from hloscope.passes.record import DecisionLog

ORDERED = """HloModule ordered
ENTRY e {
  p = f32[4] parameter(0)
  q = f32[4] parameter(1)
  t0 = token[] after-all()
  t1 = token[] after-all(t0)
  d = f32[4] add-dependency(p, t1)
  e = f32[4] add-dependency(q, t0)
  ROOT r = f32[4] add(d, e)
}"""


def test_ordered_values_compile_to_the_values_themselves():
    module = hloscope.parse_hlo(ORDERED)
    x, y = np.arange(4, dtype=np.float32), np.ones(4, np.float32)
    exe = hloscope.compile(module)
    np.testing.assert_array_equal(exe(x, y), hloscope.evaluate(module, x, y))
    log = DecisionLog()
    out = AddDependencyRemover().run(module, log)
    assert [i.opcode for i in out.entry_computation.instructions] == ["parameter", "parameter", "add"]
    assert sum(1 for e in log.entries if e.action == "removed") == 4


def test_a_token_the_root_returns_stays():
    module = hloscope.parse_hlo("""HloModule keeps
ENTRY e {
  p = f32[2] parameter(0)
  t = token[] after-all()
  d = f32[2] add-dependency(p, t)
  ROOT r = (f32[2], token[]) tuple(d, t)
}""")
    out = AddDependencyRemover().run(module, DecisionLog())
    assert [i.opcode for i in out.entry_computation.instructions] == ["parameter", "after-all", "tuple"]
