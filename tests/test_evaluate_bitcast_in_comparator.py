"""A scalar bitcast that changes the element type inside a computation the evaluator lifts
over arrays (a sort comparator): XLA's algsimp makes one from bitcast-convert (seen in XLA's
own snapshots of topk_sampling and moe_layer). The bits are read as the new type."""

import numpy as np

from hloscope import evaluate, parse_hlo

# XLA's total order on floats, as its TopK decomposition writes it: flip the non-sign bits of negatives
SORT = """HloModule m

greater {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  zero = s32[] constant(0)
  max = s32[] constant(2147483647)
  ai = s32[] bitcast(a)
  bi = s32[] bitcast(b)
  an = pred[] compare(ai, zero), direction=LT
  bn = pred[] compare(bi, zero), direction=LT
  ax = s32[] xor(max, ai)
  bx = s32[] xor(max, bi)
  ak = s32[] select(an, ax, ai)
  bk = s32[] select(bn, bx, bi)
  ROOT gt = pred[] compare(ak, bk), direction=GT
}

ENTRY main {
  p = f32[7] parameter(0)
  ROOT s = f32[7] sort(p), dimensions={0}, to_apply=greater
}
"""


def test_sort_by_the_bits_of_floats():
    x = np.array([0.5, -2.0, 3.25, -0.0, 0.0, -7.5, 1e-3], np.float32)
    got = np.asarray(evaluate(parse_hlo(SORT), x))
    want = np.array(sorted(x.tolist(), reverse=True), np.float32)
    np.testing.assert_array_equal(got, want)
    assert np.signbit(got[list(got).index(0.0) + 1])  # -0.0 after +0.0: the total order, not float compare
