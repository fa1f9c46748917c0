"""Multi-output fusions whose root holds a tuple: a variadic reduce (argmax: values and
indices) next to an elementwise output, fusion shape ((f32[R], s32[R]), f32[R,C]). The
tuple-shaped element owns two consecutive output buffers; every kernel that takes such a
fusion (reduce-loop, row-reduce, column-reduce) must write each leaf to its own buffer.
On the CPU emulator, against the evaluator."""

import re

import pytest

from hlo_text import arg_reducer
from gpu_helpers import compile_gpu, data, emulated_check, needs_ptxas
from hloscope.errors import NotSupportedError

ARGMAX = arg_reducer("argmax", "GT")


def argmax_next_to_its_input(rows: int, columns: int, dim: int, index: int) -> str:
    """y = exp(x); the argmax of y along `dim`; ROOT (gte(argmax, index), y): the default
    pipeline's multi-output fusion makes the nested-tuple fusion of the two."""
    kept = columns if dim == 0 else rows
    out = f"f32[{kept}]" if index == 0 else f"s32[{kept}]"
    return f"""HloModule m
{ARGMAX}
ENTRY e {{
  x = f32[{rows},{columns}] parameter(0)
  y = f32[{rows},{columns}] exponential(x)
  io = s32[{rows},{columns}] iota(), iota_dimension={dim}
  ninf = f32[] constant(-inf)
  zero = s32[] constant(0)
  r = (f32[{kept}], s32[{kept}]) reduce(y, io, ninf, zero), dimensions={{{dim}}}, to_apply=argmax
  g = {out} get-tuple-element(r), index={index}
  ROOT out = ({out}, f32[{rows},{columns}]) tuple(g, y)
}}
"""


def fusion_shapes(exe) -> list[str]:
    """The optimized module's fusion shapes, layouts left out."""
    fusions = [i for i in exe.report.optimized_module.entry_computation.instructions if i.opcode == "fusion"]
    return [re.sub(r"\{[0-9,]*\}", "", str(f.shape)) for f in fusions]


@pytest.mark.parametrize("rows,columns,dim,kind", [(4, 8, 1, "reduce-loop"), (4, 64, 1, "row-reduce"),
                                                   (64, 40, 0, "column-reduce")])
@pytest.mark.parametrize("index", [0, 1])
def test_argmax_and_its_input_fused_by_the_default_pipeline(rows, columns, dim, kind, index):
    text = argmax_next_to_its_input(rows, columns, dim, index)
    exe = emulated_check(text, [data("f32", rows, columns)], pipeline="default")
    kept = columns if dim == 0 else rows
    assert f"((f32[{kept}], s32[{kept}]), f32[{rows},{columns}])" in fusion_shapes(exe)
    assert kind in [k.kind for k in exe.report.kernels]


def hand_fused(side_shape: str, side: str) -> str:
    """The nested-tuple fusion written out, for pipeline "none": ((argmax of exp(x)), side)."""
    return f"""HloModule m
{ARGMAX}
fused {{
  p = f32[4,8] parameter(0)
  y = f32[4,8] exponential(p)
  io = s32[4,8] iota(), iota_dimension=1
  ninf = f32[] constant(-inf)
  zero = s32[] constant(0)
  r = (f32[4], s32[4]) reduce(y, io, ninf, zero), dimensions={{1}}, to_apply=argmax
  {side}
  ROOT t = ((f32[4], s32[4]), {side_shape}) tuple(r, s)
}}
ENTRY e {{
  x = f32[4,8] parameter(0)
  f = ((f32[4], s32[4]), {side_shape}) fusion(x), kind=kInput, calls=fused
  r = (f32[4], s32[4]) get-tuple-element(f), index=0
  v = f32[4] get-tuple-element(r), index=0
  i = s32[4] get-tuple-element(r), index=1
  s = {side_shape} get-tuple-element(f), index=1
  ROOT out = (f32[4], s32[4], {side_shape}) tuple(v, i, s)
}}
"""


@pytest.mark.parametrize("side_shape,side", [
    ("f32[4,8]", "s = f32[4,8] negate(y)"),                       # the reduce's input's shape: a loop each
    ("f32[4]", "c = f32[4,1] slice(y), slice={[0:4], [0:1]}\n  s = f32[4] reshape(c)"),  # same shape as the reduce: one loop
])
def test_hand_written_nested_tuple_fusion(side_shape, side):
    text = hand_fused(side_shape, side)
    exe = emulated_check(text, [data("f32", 4, 8)], pipeline="none")
    assert [k.kind for k in exe.report.kernels] == ["reduce-loop"]


@needs_ptxas
@pytest.mark.parametrize("rows,columns,dim", [(4, 8, 1), (4, 64, 1), (64, 40, 0)])
def test_nested_tuple_fusion_ptx_assembles(rows, columns, dim):
    report = compile_gpu(argmax_next_to_its_input(rows, columns, dim, 1)).report
    assert report.ptxas.ok, report.ptxas.log


def test_nested_tuple_of_different_shapes_is_refused_by_name():
    """A loop runs over an element's first leaf: a nested tuple of an f32[4] and an f32[8]
    would leave half of the f32[8] unwritten, so it is refused, naming the element."""
    text = """HloModule m
fused {
  a = f32[4] parameter(0)
  b = f32[8] parameter(1)
  n = f32[4] negate(a)
  m = f32[8] negate(b)
  inner = (f32[4], f32[8]) tuple(n, m)
  c = f32[2] slice(a), slice={[0:2]}
  ROOT t = ((f32[4], f32[8]), f32[2]) tuple(inner, c)
}
ENTRY e {
  a = f32[4] parameter(0)
  b = f32[8] parameter(1)
  ROOT f = ((f32[4], f32[8]), f32[2]) fusion(a, b), kind=kLoop, calls=fused
}
"""
    with pytest.raises(NotSupportedError) as e:
        compile_gpu(text, pipeline="none", ptxas=False)
    assert str(e.value) == ("not supported on gpu: a fusion root element that is a tuple of differently shaped "
                            "arrays (instruction inner)")
