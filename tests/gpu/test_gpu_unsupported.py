"""What the GPU cannot lower is refused in a message that names the GPU (never the CPU,
whose emitters the GPU shares), the op and (where the emitter knows it) the instruction."""

from pathlib import Path

import pytest

import hloscope
from gpu_helpers import compile_gpu, module

CUSTOM_CALL = module("""
    p = f32[4] parameter(0)
    r = f32[4] custom-call(p), custom_call_target="foo"
""")
BATCHED_GATHER = module("""
    x = f32[2,5] parameter(0)
    i = s32[2,1] parameter(1)
    r = f32[2] gather(x, i), offset_dims={}, collapsed_slice_dims={1}, start_index_map={1}, operand_batching_dims={0}, start_indices_batching_dims={0}, index_vector_dim=1, slice_sizes={1,1}
""")
WIDENING_BITCAST = module("""
    p = f32[4] parameter(0)
    r = f16[4,2] bitcast-convert(p)
""")
JAX_SCATTER_ADD = (Path(__file__).resolve().parents[1] / "hlo_samples" / "jax_scatter_add.hlo").read_text()


@pytest.mark.parametrize("pipeline", ["none", "default"])
@pytest.mark.parametrize("text, message", [
    (CUSTOM_CALL, 'not supported on gpu: custom-call target "foo" (instruction r); hloscope understands: TopK'),
    (JAX_SCATTER_ADD, "not supported on gpu: scatter (instruction scatter-add.5)"),
    (BATCHED_GATHER, "not supported on gpu: gather with operand_batching_dims (instruction r)"),
    (WIDENING_BITCAST, "not supported on gpu: bitcast-convert f32 -> f16 (widths differ)"),
], ids=["custom-call", "scatter", "batched-gather", "widening-bitcast-convert"])
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
    assert str(caught.value) == "not supported on gpu: a constant with elided values {...} (instruction c)"
