"""Syntax XLA's parser accepts and hloscope now reads too: `HloModule m:`, inline
(anonymous) operands, commas between metadata fields, strings over several lines,
custom-call `literal=`; and the neighbouring forms both reject."""

import pytest

import hloscope as hs

ACCEPTED = {
    "trailing colon": "HloModule m:\nENTRY e {\n  ROOT p = f32[2] parameter(0)\n}\n",
    "inline operand": "HloModule m\nENTRY e {\n  p = f32[] parameter(0)\n  ROOT a = f32[] add(p, f32[] constant(1))\n}\n",
    "inline tuple operand": "HloModule m\nENTRY e {\n  p = f32[2] parameter(0)\n"
                            "  ROOT n = (f32[2]) opt-barrier((f32[2]) tuple(p))\n}\n",
    "two inline operands": "HloModule m\nENTRY e {\n"
                           "  ROOT a = f32[] add(f32[] constant(1), f32[] negate(f32[] constant(2)))\n}\n",
    "metadata with commas": "HloModule m\nENTRY e {\n  p = f32[2] parameter(0)\n"
                            "  ROOT n = f32[2] negate(p), metadata={op_type=\"a, b\", op_name=\"x,y{z}\"}\n}\n",
    "string over two lines": "HloModule m\nENTRY e {\n  p = f32[2] parameter(0)\n"
                             "  ROOT n = f32[2] negate(p), metadata={op_name=\"a\nb\"}\n}\n",
    "custom-call literal": "HloModule m\nENTRY e {\n  p = f32[2] parameter(0)\n"
                           "  ROOT c = f32[2] custom-call(p), custom_call_target=\"foo\", literal=s32[2]{0} {1, 2}\n}\n",
    "custom-call scalar literal": "HloModule m\nENTRY e {\n  p = f32[2] parameter(0)\n"
                                  "  ROOT c = f32[2] custom-call(p), custom_call_target=\"foo\", literal=s32[] 5\n}\n",
}


@pytest.mark.parametrize("name", list(ACCEPTED))
def test_reads_verifies_and_round_trips(name):
    m = hs.parse_hlo(ACCEPTED[name])
    m.verify()
    text = m.to_text()
    assert hs.parse_hlo(text).to_text() == text


def test_inline_operands_get_xla_names_and_come_first():
    m = hs.parse_hlo(ACCEPTED["two inline operands"])
    names = [i.name for i in m.entry_computation.instructions]
    assert names == ["constant.anon", "constant.anon.1", "negate.anon", "a"]
    assert m.entry_computation["negate.anon"].operands == ("constant.anon.1",)
    assert float(hs.evaluate(m)) == -1.0


def test_multi_line_string_keeps_its_newline():
    m = hs.parse_hlo(ACCEPTED["string over two lines"])
    meta = m.entry_computation["n"].metadata
    assert meta is not None and dict(meta.fields)["op_name"] == "a\nb"


# (text, line, column, message); XLA rejects each as well.
REJECTED = [
    ("HloModule m, is_scheduled=true:\nENTRY e {\n  ROOT p = f32[2] parameter(0)\n}\n", 1, 31, "expected a computation name"),
    ("HloModule m\nENTRY e {\n  p = f32[] parameter(0)\n  ROOT a = f32[] add(p, c = f32[] constant(1))\n}\n", 4, 27,
     "expected ',' or '\\)' in the operand list"),
    ("HloModule m\nENTRY e {\n  p = f32[2] parameter(0)\n"
     "  ROOT c = f32[2] custom-call(p), custom_call_target=\"foo\", literal=s32[2] {1, 2}\n}\n", 4, 77,
     r"layout \{1,2\} is not a permutation"),
    ("HloModule m\nENTRY e {\n  p = f32[2] parameter(0)\n"
     "  ROOT c = f32[2] custom-call(p), custom_call_target=\"foo\", literal=(s32[], f32[]) (1, 2)\n}\n", 4, 69,
     "a tuple literal writes each element after its own shape"),
    ("HloModule m\nENTRY e {\n  p = f32[2] parameter(0)\n  ROOT n = f32[2] negate(p), metadata={op_name=\"a}\n}\n",
     4, 48, "unterminated string"),
]


@pytest.mark.parametrize("text, line, column, message", REJECTED, ids=[r[3][:28] for r in REJECTED])
def test_rejected_at_the_defect(text, line, column, message):
    with pytest.raises(hs.HloParseError, match=message) as e:
        hs.parse_hlo(text)
    assert (e.value.line, e.value.column) == (line, column)


def _xla():
    pytest.importorskip("jax", reason="jax (the optional 'jax' extra) is not installed")
    from jax._src.lib import xla_client
    return xla_client.hlo


@pytest.mark.jax
@pytest.mark.parametrize("name", list(ACCEPTED))
def test_xla_accepts_the_text_and_reads_our_print_the_same(name):
    xla = _xla()
    xla.hlo_module_from_text(ACCEPTED[name])
    ours = hs.parse_hlo(ACCEPTED[name])
    theirs = hs.parse_hlo(xla.hlo_module_from_text(ours.to_text()).to_string())
    assert sorted((i.opcode, str(i.shape)) for i in theirs.entry_computation.instructions) == sorted(
        (i.opcode, str(i.shape)) for i in ours.entry_computation.instructions)


@pytest.mark.jax
@pytest.mark.parametrize("text", [r[0] for r in REJECTED])
def test_xla_rejects_them_too(text):
    with pytest.raises(Exception):
        _xla().hlo_module_from_text(text)


@pytest.mark.jax
def test_an_operand_written_with_another_shape_is_rejected_there():
    """XLA's parser checks an operand's written shape against the operand (layout aside)."""
    ok = "HloModule m\nENTRY e {\n  a = f32[2,3] parameter(0)\n  ROOT n = f32[2,3] negate(f32[2,3]{0,1} a)\n}\n"
    hs.parse_hlo(ok).verify()
    for written, column in (("f32[3]", 26), ("s32[2]", 26)):
        text = f"HloModule m\nENTRY e {{\n  a = f32[2] parameter(0)\n  ROOT n = f32[2] negate({written} a)\n}}\n"
        with pytest.raises(hs.HloParseError, match=rf"operand a is f32\[2\]\{{0\}}, but is written here as {written[:3]}") as e:
            hs.parse_hlo(text)
        assert (e.value.line, e.value.column) == (4, column)
        with pytest.raises(Exception):
            _xla().hlo_module_from_text(text)
