"""Reading text does not depend on allocating it: a module whose declared shapes are far past
memory (as in real gather/scatter dumps) parses, verifies and prints; the evaluator refuses it
by size before allocating anything."""

import tracemalloc

import numpy as np
import pytest

import hloscope as hs

GATHER = """HloModule big
ENTRY e {
  x = f32[100000,861876288] parameter(0)
  i = s32[5,1] parameter(1)
  ROOT g = f32[5,861876288] gather(x, i), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,861876288}
}
"""


def test_a_gather_of_86_billion_elements_reads_verifies_and_prints_without_allocating():
    tracemalloc.start()
    try:
        m = hs.parse_hlo(GATHER)
        m.verify()
        text = m.to_text()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert "f32[100000,861876288]" in text and hs.parse_hlo(text).to_text() == text
    assert peak < 2_000_000


def test_the_evaluator_refuses_a_result_past_its_limit_before_allocating():
    m = hs.parse_hlo("HloModule m\nENTRY e {\n  a = f32[] parameter(0)\n"
                     "  ROOT b = f32[1000000,1000000] broadcast(a), dimensions={}\n}\n")
    with pytest.raises(hs.EvaluationError, match=r"broadcast b gives f32\[1000000,1000000\]: 1000000000000 elements"):
        hs.evaluate(m, np.float32(1))
