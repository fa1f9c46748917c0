"""What the CPU cannot lower is refused before any code is emitted, in a message that names
the target, the op and (where the emitter knows it) the instruction."""

from pathlib import Path

import pytest

import hloscope
from backend_helpers import compile_text, module

CUSTOM_CALL = module("""
    p = f32[4] parameter(0)
    r = f32[4] custom-call(p), custom_call_target="foo"
""")
FUSED_CUSTOM_CALL = module("""
    p = f32[4] parameter(0)
    e = f32[4] exponential(p)
    r = f32[4] custom-call(e), custom_call_target="foo"
    a = f32[4] add(r, p)
""")
WIDENING_BITCAST = module("""
    p = f32[4] parameter(0)
    r = f16[4,2] bitcast-convert(p)
""")


@pytest.mark.parametrize("pipeline", ["none", "default"])
@pytest.mark.parametrize("text, message", [
    (CUSTOM_CALL, 'not supported on cpu: custom-call target "foo" (instruction r); hloscope understands: TopK'),
    (FUSED_CUSTOM_CALL, 'not supported on cpu: custom-call target "foo" (instruction r); hloscope understands: TopK'),
    (WIDENING_BITCAST, "not supported on cpu: bitcast-convert f32 -> f16 (widths differ)"),
], ids=["custom-call", "custom-call-among-fusions", "widening-bitcast-convert"])
def test_message_names_the_cpu_and_the_op(text, message, pipeline):
    with pytest.raises(hloscope.NotSupportedError) as caught:
        compile_text(text, pipeline=pipeline)
    assert str(caught.value) == message


def test_scatter_compiles_for_the_cpu():
    """JAX's scatter-add gets the CPU's scatter kernel (the GPU's: tests/gpu/test_gpu_scatter.py)."""
    text = (Path(__file__).resolve().parents[1] / "hlo_samples" / "jax_scatter_add.hlo").read_text()
    assert "scatter" in [k.kind for k in compile_text(text).report.kernels]


ELIDED_READ = module("""
    p = f32[4] parameter(0)
    c = f32[4] constant({...})
    r = f32[4] add(p, c)
""")
ELIDED_RETURNED = module("""
    p = f32[4] parameter(0)
    c = f32[4] constant({...})
    n = f32[4] negate(p)
    r = (f32[4], f32[4]) tuple(n, c)
""")


@pytest.mark.parametrize("pipeline", ["none", "default"])
@pytest.mark.parametrize("text", [ELIDED_READ, ELIDED_RETURNED], ids=["read-by-a-kernel", "returned"])
def test_elided_constants_are_refused(text, pipeline):
    """A dump's `{...}` constant has no values: it used to compile, its bytes the 8 that
    numpy makes of None (a pointer), and a run returned them as data."""
    with pytest.raises(hloscope.NotSupportedError) as caught:
        compile_text(text, pipeline=pipeline)
    assert isinstance(caught.value, hloscope.ElidedValuesError)
    assert str(caught.value).startswith("constant c (f32[4]{0}) has no values: the text shows {...}")
    assert "Making cpu code needs them" in str(caught.value)
