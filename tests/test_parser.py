"""HLO text: the parser reads XLA's syntax, the printer writes it, and the two agree."""

from pathlib import Path

import numpy as np
import pytest

import hloscope as hs
from hloscope.ir import ArrayShape, PadDim, Raw, SliceDim, TupleShape, WindowDim, parse_shape

HERE = Path(__file__).parent
CORPUS = sorted((HERE / "corpus").glob("*.hlo"))
DUMPS = [p for p in sorted((HERE / "xla_dumps" / "gelu_mlp").glob("*.txt"))
         if not p.name.endswith(("-buffer-assignment.txt", "-memory-usage-report.txt", "-live-range.txt"))]  # XLA's reports, not HLO


def roundtrip(text: str) -> str:
    first = hs.parse_hlo(text).to_text()
    assert hs.parse_hlo(first).to_text() == first
    return first


@pytest.mark.parametrize("path", CORPUS + DUMPS, ids=lambda p: p.name)
def test_real_xla_text_round_trips(path):
    module = hs.parse_hlo(path.read_text())
    module.verify()
    text = module.to_text()
    again = hs.parse_hlo(text)
    assert again.to_text() == text
    assert again.instruction_count() == module.instruction_count()


def test_corpus_is_all_there():
    assert len([p for p in CORPUS if p.name.endswith(".opt.hlo")]) == 19
    assert len(CORPUS) == 38


def test_module_structure_of_softmax():
    m = hs.parse_hlo((HERE / "corpus" / "softmax.hlo").read_text())
    assert m.name == "jit__lambda"
    assert m.entry == "main.3"
    assert [c.name for c in m.computations] == ["region_0.1", "region_1.2", "main.3"]
    entry = m.entry_computation
    assert entry.root == "div.7"
    assert entry["reduce_max.7"].attrs == {"dimensions": (1,), "to_apply": "region_0.1"}
    assert entry["reduce_max.7"].shape == ArrayShape("f32", (128,))
    assert entry.users("exp.1") == ("reduce_sum.7", "div.7")
    assert str(m.entry_layout) == "{(f32[128,256]{1,0})->f32[128,256]{1,0}}"


def test_printed_text_is_xla_syntax():
    text = hs.parse_hlo((HERE / "corpus" / "softmax.hlo").read_text()).to_text()
    assert text.startswith("HloModule jit__lambda, entry_computation_layout={(f32[128,256]{1,0})->f32[128,256]{1,0}}")
    assert "%region_0.1 (reduce_max.3: f32[], reduce_max.4: f32[]) -> f32[] {" in text
    assert "ENTRY %main.3 (x.1: f32[128,256]{1,0}) -> f32[128,256]{1,0} {" in text
    assert "  %reduce_max.7 = f32[128]{0} reduce(%x.1, %constant.5), dimensions={1}, to_apply=%region_0.1" in text
    assert "  ROOT %div.7 = f32[128,256]{1,0} divide(%exp.1, %div.6)" in text
    assert "  %constant.5 = f32[] constant(-inf)" in text


def test_operand_shapes_style_is_optional_both_ways():
    m = hs.parse_hlo((HERE / "corpus" / "axpy_broadcast.hlo").read_text())
    with_shapes = m.to_text(operand_shapes=True)
    assert "f32[" in with_shapes.split("add(")[1].split(")")[0]
    assert hs.parse_hlo(with_shapes).to_text() == m.to_text()


def test_stack_frames_map_back_to_source():
    m = hs.parse_hlo((HERE / "corpus" / "softmax.opt.hlo").read_text())
    inst = m.entry_computation["broadcast_multiply_fusion"]
    assert inst.metadata.get("stack_frame_id") == 5
    assert m.source_of(inst) == ("research/make_corpus.py", 202, "<lambda>")


def test_metadata_backend_config_and_unknown_attributes_survive():
    text = """HloModule m, is_scheduled=true, input_output_alias={ {}: (0, {}, may-alias) }

ENTRY %e (p: f32[4]) -> f32[4] {
  %p = f32[4]{0} parameter(0), sharding={replicated}
  ROOT %n = f32[4]{0} negate(%p), frontend_attributes={xla_cpu_small_call="true"}, some_future_attr={1 2 {3}}, metadata={op_name="jit(f)/neg" source_file="f.py" source_line=7}, backend_config={"outer_dimension_partitions":["2"]}
}
"""
    with pytest.raises(hs.HloParseError, match="negate takes no attribute 'some_future_attr'") as e:
        hs.parse_hlo(text)  # as XLA's parser: "unexpected attribute"
    assert (e.value.line, e.value.column) == (5, 84)
    m = hs.parse_hlo(text, allow_unknown_attributes=True)
    n = m.entry_computation["n"]
    assert n.attrs["frontend_attributes"] == Raw('{xla_cpu_small_call="true"}')
    assert n.attrs["some_future_attr"] == Raw("{1 2 {3}}")
    assert n.attrs["backend_config"].json() == {"outer_dimension_partitions": ["2"]}
    assert n.metadata.source_line == 7 and n.metadata.source_file == "f.py"
    assert m.is_scheduled
    out = m.to_text()
    assert hs.parse_hlo(out, allow_unknown_attributes=True).to_text() == out
    for piece in ("input_output_alias={ {}: (0, {}, may-alias) }", "sharding={replicated}",
                  'some_future_attr={1 2 {3}}', 'backend_config={"outer_dimension_partitions":["2"]}'):
        assert piece in out


def test_opcode_specific_attributes():
    text = """HloModule m

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

ENTRY e {
  x = f32[8,12]{1,0} parameter(0)
  c = f32[] constant(0)
  s = f32[4,4]{1,0} slice(x), slice={[1:5:2], [0:8]}
  p = f32[11,9]{1,0} pad(x, c), padding=1_2x0_1_0
  w = f32[4,6]{1,0} reduce-window(x, c), window={size=2x2 stride=2x2 pad=0_0x0_0}, to_apply=add
  t = f32[12,8]{0,1} transpose(x), dimensions={1,0}
  d = f32[8,8]{1,0} dot(x, t), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  i = s32[5,3]{1,0} iota(), iota_dimension=1
  ROOT r = (f32[4,4], f32[8,8]) tuple(s, d)
}
"""
    m = hs.parse_hlo(text)
    e = m.entry_computation
    assert e["s"].attrs["slice"] == (SliceDim(1, 5, 2), SliceDim(0, 8, 1))
    assert e["p"].attrs["padding"] == (PadDim(1, 2), PadDim(0, 1, 0))
    assert e["w"].attrs["window"] == (WindowDim(2, 2), WindowDim(2, 2))
    assert e["t"].shape.layout == (0, 1)
    assert e["d"].attrs["lhs_contracting_dims"] == (1,)
    assert e["i"].attrs["iota_dimension"] == 1
    assert isinstance(e["r"].shape, TupleShape)
    out = roundtrip(text)
    assert "slice={[1:5:2], [0:8:1]}" in out
    assert "padding=1_2x0_1" in out
    assert "window={size=2x2 stride=2x2}" in out


@pytest.mark.parametrize(
    "shape_text, literal, expected",
    [
        ("f32[]", "1.5", np.float32(1.5)),
        ("f32[]", "-inf", np.float32(-np.inf)),
        ("f32[3]", "{1, 2.5, 1e-05}", np.array([1, 2.5, 1e-05], np.float32)),
        ("s32[2,2]", "{ {1, 2}, {3, -4} }", np.array([[1, 2], [3, -4]], np.int32)),
        ("pred[2]", "{true, false}", np.array([True, False])),
        ("u8[]", "255", np.uint8(255)),
        ("f64[]", "0.1", np.float64(0.1)),
        ("bf16[2]", "{1, 0.5}", np.array([1, 0.5], np.float32)),
    ],
)
def test_constant_literals(shape_text, literal, expected):
    text = f"HloModule m\nENTRY e {{\n  ROOT c = {shape_text} constant({literal})\n}}\n"
    lit = hs.parse_hlo(text).entry_computation["c"].literal
    np.testing.assert_array_equal(np.asarray(lit.value, np.float64), np.asarray(expected, np.float64))
    assert lit.value.dtype == parse_shape(shape_text).numpy_dtype
    roundtrip(text)


def test_nan_and_elided_literals_round_trip():
    text = "HloModule m\nENTRY e {\n  a = f32[2] constant({nan, -nan})\n  ROOT b = f32[20] constant({...})\n}\n"
    m = hs.parse_hlo(text)
    assert np.isnan(m.entry_computation["a"].literal.value).all()
    assert m.entry_computation["b"].literal.elided
    out = roundtrip(text)
    assert "constant({nan, -nan})" in out and "constant({...})" in out


def test_float_constants_print_shortest_round_trip_text():
    text = "HloModule m\nENTRY e {\n  ROOT a = f32[4] constant({0.9, 0.1, 3, 1e+20})\n}\n"
    assert "constant({0.9, 0.1, 3, 1e+20})" in roundtrip(text)


def test_shapes():
    assert str(parse_shape("f32[8,128]")) == "f32[8,128]{1,0}"
    assert str(parse_shape("f32[8,128]{0,1}")) == "f32[8,128]{0,1}"
    assert str(parse_shape("f32[8,128]{1,0:T(8,128)}")) == "f32[8,128]{1,0:T(8,128)}"
    assert str(parse_shape("(f32[], (s32[2], pred[]))")) == "(f32[], (s32[2]{0}, pred[]))"
    assert str(parse_shape("f32[<=10,3]")) == "f32[<=10,3]{1,0}"
    assert parse_shape("bf16[2]").numpy_dtype.name == "bfloat16"


def test_missing_header_root_and_entry_markers_use_xla_defaults():
    m = hs.parse_hlo("c {\n a = f32[] parameter(0)\n b = f32[] negate(a)\n}\n")
    assert m.name == "module_c" and m.entry == "c" and m.entry_computation.root == "b"


def test_comments_are_skipped():
    text = "HloModule m // a module\nENTRY e {\n  /* first */ a = f32[] parameter(0)\n  ROOT b = f32[] negate(a) // done\n}\n"
    assert hs.parse_hlo(text).entry_computation.root == "b"


def test_parsing_never_evaluates_code():
    text = 'HloModule m\nENTRY e {\n  ROOT a = f32[] constant(__import__("os"))\n}\n'
    with pytest.raises(hs.HloParseError, match="expected a f32 value"):
        hs.parse_hlo(text)
