"""What the GPU cannot lower is refused in a message that names the GPU (never the CPU,
whose emitters the GPU shares), the op and (where the emitter knows it) the instruction."""


import pytest

import hloscope
from gpu_helpers import compile_gpu, module

CUSTOM_CALL = module("""
    p = f32[4] parameter(0)
    r = f32[4] custom-call(p), custom_call_target="foo"
""")
WIDENING_BITCAST = module("""
    p = f32[4] parameter(0)
    r = f16[4,2] bitcast-convert(p)
""")


@pytest.mark.parametrize("pipeline", ["none", "default"])
@pytest.mark.parametrize("text, message", [
    (CUSTOM_CALL, 'not supported on gpu: custom-call target "foo" (instruction r); hloscope understands: TopK'),
    (WIDENING_BITCAST, "not supported on gpu: bitcast-convert f32 -> f16 (widths differ)"),
], ids=["custom-call", "widening-bitcast-convert"])
def test_message_names_the_gpu_and_the_op(text, message, pipeline):
    with pytest.raises(hloscope.NotSupportedError) as caught:
        compile_gpu(text, pipeline=pipeline, ptxas=False)
    assert str(caught.value) == message



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
    """A dump's `{...}` constant has no values: it used to be lowered as the 8 bytes numpy
    makes of None (a pointer), in the PTX and in the executable's output copies."""
    with pytest.raises(hloscope.NotSupportedError) as caught:
        compile_gpu(text, pipeline=pipeline, ptxas=False)
    assert isinstance(caught.value, hloscope.ElidedValuesError)
    assert str(caught.value).startswith("constant c (f32[4]{0}) has no values: the text shows {...}")
    assert "Making gpu code needs them" in str(caught.value)
