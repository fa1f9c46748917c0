"""The CPU's type rewrites are passes of the compile (backend/cpu/type_passes.py): recorded
after the pipeline, each with its before and after and a line for every instruction it
rewrote; the memory plan is made for the rewritten module, the one the code uses; a module
without such types passes through them unchanged, and one they cannot rewrite is kept, said
in the log, and refused by name by the code generator."""

import numpy as np

from hloscope import session

LOWERING = ["complex-as-pairs", "narrow-ints-as-bytes", "small-floats-as-bytes", "kernel-strategy"]

COMPLEX = """HloModule m
ENTRY e {
  a = c64[6] parameter(0)
  b = c64[6] parameter(1)
  m = c64[6] multiply(a, b)
  ROOT r = f32[6] abs(m)
}
"""

NARROW = """HloModule m
ENTRY e {
  a = s4[8] parameter(0)
  b = s4[8] add(a, a)
  ROOT r = s32[8] convert(b)
}
"""


def _compiled(text: str, inputs: list):
    c = session.run(session.new(text, inputs=inputs))
    assert all(s.status in ("done", "skipped") for s in c.stages), [(s.name, s.error) for s in c.stages]
    return c


def test_complex_values_become_pairs_in_a_recorded_pass_the_plan_follows():
    rng = np.random.default_rng(0)
    a = (rng.standard_normal(6) + 1j * rng.standard_normal(6)).astype(np.complex64)
    b = (rng.standard_normal(6) + 1j * rng.standard_normal(6)).astype(np.complex64)
    c = _compiled(COMPLEX, [a, b])
    assert [r.name for r in c.records][-4:] == LOWERING
    pairs = next(r for r in c.records if r.name == "complex-as-pairs")
    assert pairs.changed and "c64" in pairs.before.to_text() and "c64" not in pairs.after.to_text()
    said = {d.subject: d.reason for d in pairs.log}
    assert "m" in said and "c64[6] -> f32[6,2]" in said["m"]
    assert c.optimized_module.to_text() == c.records[-1].after.to_text()
    # the plan is the rewritten module's: the product lives as pairs of f32
    product = c.memory_plan.by_instruction("a")
    assert product is not None and product.size == 6 * 2 * 4
    np.testing.assert_allclose(c.outputs, np.abs(a * b), rtol=1e-6)


def test_sub_byte_integers_are_rewritten_one_value_a_byte():
    import ml_dtypes

    a = np.array([-8, -3, 0, 1, 3, 7, -1, 5], dtype=ml_dtypes.int4)
    c = _compiled(NARROW, [a])
    narrow = next(r for r in c.records if r.name == "narrow-ints-as-bytes")
    assert narrow.changed and {d.subject for d in narrow.log} >= {"a", "b"}
    wrapped = (a.astype(np.int32) * 2 + 8) % 16 - 8  # s4 addition wraps
    np.testing.assert_array_equal(c.outputs, wrapped)


def test_a_module_without_those_types_passes_through_unchanged():
    c = _compiled("HloModule m\nENTRY e {\n  a = f32[4] parameter(0)\n  ROOT r = f32[4] add(a, a)\n}\n",
                  [np.arange(4, dtype=np.float32)])
    tail = c.records[-4:]
    assert [r.name for r in tail] == LOWERING
    assert not any(r.changed or r.log for r in tail)  # a plain loop is what every kernel is unannotated


def test_what_a_rewrite_cannot_handle_is_kept_and_said_and_lowering_names_it():
    text = """HloModule m, replica_count=2
ENTRY e {
  a = c64[4] parameter(0)
  ROOT g = c64[8] all-gather(a), dimensions={0}, replica_groups={{0,1}}
}
"""
    c = session.run(session.new(text))
    status = {s.name: s.status for s in c.stages}
    assert status["optimize"] == status["plan"] == "done"
    pairs = next(r for r in c.records if r.name == "complex-as-pairs")
    assert not pairs.changed and any(not d.accepted and "all-gather" in d.reason for d in pairs.log)
    refused = next(s for s in c.stages if s.status == "failed")
    assert "all-gather" in str(refused.error)
