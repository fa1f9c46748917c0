"""In-place parameter updates become `input_output_alias` in the step's HLO, XLA's parser
reads it, and the CPU runtime writes the new value into the old buffer where that is safe."""

from __future__ import annotations

import numpy as np
import pytest

import hloscope
import hloscope.lazy as lz
from hloscope.ir.aliasing import Alias, InputOutputAlias

from mlp_loops import data, lazy_loop


def _one_step():
    params, x, y = data()
    lazy_loop(params, [(x, y)])
    return lz.steps()[-1]


def test_the_step_module_aliases_each_updated_parameter():
    record = _one_step()
    module = record.module
    config = module.attrs["input_output_alias"]
    assert isinstance(config, InputOutputAlias) and len(config.aliases) == 3
    params = module.entry_computation.parameters
    root = module.entry_computation.root_instruction
    for alias in config.aliases:
        (out,) = alias.output_index
        assert alias.kind == "may-alias" and alias.parameter_index == ()
        assert params[alias.parameter].shape == root.shape.elements[out]  # pyright: ignore[reportAttributeAccessIssue]
    assert "input_output_alias={ {0}: (" in module.to_text()
    assert len(record.aliases) == 3


@pytest.mark.jax
def test_xla_parses_the_step_module_with_its_aliases():
    pytest.importorskip("jax", reason="jax (the optional 'jax' extra) is not installed")
    from jax._src.lib import xla_client

    module = _one_step().module
    theirs = xla_client.hlo.hlo_module_from_text(module.to_text()).to_string()
    back = hloscope.parse_hlo(theirs)
    assert back.attrs["input_output_alias"] == module.attrs["input_output_alias"]


def test_the_alias_attribute_round_trips():
    text = ("HloModule m, input_output_alias={ {0}: (1, {}, may-alias), {1}: (0, {}, must-alias) }\n\n"
            "ENTRY e {\n  a = f32[2] parameter(0)\n  b = f32[2] parameter(1)\n  c = f32[2] add(a, b)\n"
            "  ROOT t = (f32[2], f32[2]) tuple(c, a)\n}\n")
    module = hloscope.parse_hlo(text)
    assert module.attrs["input_output_alias"] == InputOutputAlias(
        (Alias((0,), 1, (), "may-alias"), Alias((1,), 0, (), "must-alias")))
    printed = module.to_text()
    assert hloscope.parse_hlo(printed).to_text() == printed
    with pytest.raises(hloscope.HloParseError, match="may-alias or must-alias"):
        hloscope.parse_hlo(text.replace("must-alias", "maybe"))


def test_the_parameter_buffer_is_updated_in_place():
    w = lz.tensor(np.ones((4, 4), np.float32), requires_grad=True)
    x = lz.tensor(np.full((4, 4), 2.0, np.float32))
    for expected in (0.0, -1.0):  # a first step (compile), then a cache hit
        before = w._ref.node.array
        np.sum(w * x).backward()
        with lz.no_grad():
            w -= 0.5 * w.grad
        w.grad = None
        lz.mark_step()
        assert w._ref.node.array is before  # the same buffer, written by the program
        np.testing.assert_array_equal(w.numpy(), np.full((4, 4), expected, np.float32))


SAFE = """HloModule safe, input_output_alias={ {0}: (0, {}, may-alias) }

add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT z = f32[] add(x, y)
}

ENTRY e {
  w = f32[8] parameter(0)
  g = f32[8] parameter(1)
  s = f32[] parameter(2)
  b = f32[8] broadcast(s), dimensions={}
  m = f32[8] multiply(b, g)
  n = f32[8] subtract(w, m)
  total = f32[] reduce(w, s), dimensions={0}, to_apply=add
  ROOT t = (f32[8], f32[]) tuple(n, total)
}
"""

UNSAFE = """HloModule unsafe, input_output_alias={ {0}: (0, {}, may-alias) }

ENTRY e {
  w = f32[8] parameter(0)
  r = f32[8] reverse(w), dimensions={0}
  ROOT t = (f32[8]) tuple(r)
}
"""


def test_call_donating_writes_into_the_parameter_only_when_safe():
    exe = hloscope.compile(hloscope.parse_hlo(UNSAFE))
    w = np.arange(8, dtype=np.float32)
    (out,) = exe.call_donating(w)  # reverse reads other positions: a fresh buffer
    assert out is not w
    np.testing.assert_array_equal(out, w[::-1])
    np.testing.assert_array_equal(w, np.arange(8, dtype=np.float32))


def test_call_donating_honours_a_safe_alias_and_refuses_a_shared_argument():
    exe = hloscope.compile(hloscope.parse_hlo(SAFE))
    assert exe.report.module.is_scheduled  # the reduce reading w is scheduled before the update
    from hloscope.runtime.donation import donatable
    assert donatable(exe.report.module) == {0: 0}
    w = np.arange(8, dtype=np.float32)
    g = np.ones(8, np.float32)
    new_w, total = exe.call_donating(w, g, np.float32(0.5))
    assert new_w is w  # written in place
    np.testing.assert_array_equal(w, np.arange(8, dtype=np.float32) - 0.5)
    assert float(total) == pytest.approx(np.arange(8).sum() + 0.5)  # read w before it was overwritten
    shared = np.arange(8, dtype=np.float32)
    new_w, _ = exe.call_donating(shared, shared, np.float32(1.0))  # the same array twice: never donated
    assert new_w is not shared
    np.testing.assert_array_equal(new_w, np.arange(8, dtype=np.float32) - np.arange(8, dtype=np.float32))
    plain = np.arange(8, dtype=np.float32)
    out, _ = exe(plain, g, np.float32(0.5))  # a plain call never writes its arguments
    assert out is not plain and plain[3] == 3.0


def test_an_alias_is_refused_when_a_later_instruction_still_reads_the_parameter():
    from hloscope.runtime.donation import donatable

    scheduled = SAFE.replace("HloModule safe,", "HloModule safe, is_scheduled=true,")
    assert donatable(hloscope.parse_hlo(scheduled)) == {}  # the reduce reads w after the update
    reader_first = scheduled.replace(
        "  n = f32[8] subtract(w, m)\n  total = f32[] reduce(w, s), dimensions={0}, to_apply=add\n",
        "  total = f32[] reduce(w, s), dimensions={0}, to_apply=add\n  n = f32[8] subtract(w, m)\n")
    assert reader_first != scheduled
    assert donatable(hloscope.parse_hlo(reader_first)) == {0: 0}
    assert donatable(hloscope.parse_hlo(SAFE)) == {}  # no schedule: nothing is known about order
