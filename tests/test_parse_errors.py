"""Malformed HLO gets an HloParseError with line, column, the offending line and a caret."""

import pytest

import hloscope as hs


def module(*lines: str) -> str:
    return "HloModule m\nENTRY e {\n" + "\n".join("  " + l for l in lines) + "\n}\n"


def error_of(text) -> hs.HloParseError:
    with pytest.raises(hs.HloParseError) as info:
        hs.parse_hlo(text)
    return info.value


def caret_column(err: hs.HloParseError) -> int:
    """The column the caret line points at (1-based, in the shown source line)."""
    lines = str(err).split("\n")
    return lines[2].index("^") - 2


@pytest.mark.parametrize(
    "text, line, token, message",
    [
        (module("a = f32[2] parameter(0)", "ROOT b = f32[2] foo(a)"), 4, "foo", "unknown opcode 'foo'"),
        (module("a = f32[2] parameter(0)", "ROOT b = f32[2] add(a, c)"), 4, "c)",
         "instruction 'c' does not exist in computation 'e'"),
        (module("a = f32[2] parameter(0)", "ROOT b = pred[2] compare(a, a), direction=XX"), 4, "XX",
         "unknown direction 'XX'"),
        (module("a = f33[2] parameter(0)"), 3, "f33", "unknown element type 'f33'"),
        (module("a = f32[2] constant({1,2,3})"), 3, "{1,2,3}", "literal has 3 values but f32[2] needs 2"),
        (module("a = s8[2] constant({1,300})"), 3, "{1,300}", "300 is out of range for s8"),
        (module("a = f32[2] parameter(0)", "a = f32[2] parameter(1)"), 4, "a = f32[2] parameter(1)",
         "instruction name 'a' is used twice"),
        (module("a = f32[2] parameter(0)", "ROOT r = f32[] reduce(a, a), dimensions={0}, to_apply=nope"), 4,
         "nope", "computation 'nope' does not exist"),
        (module("a = f32[-2] parameter(0)"), 3, "-2", "dimension size -2 is negative"),
        (module("a = f32[100000,100000,1000] constant({1})"), 3, "constant",
         "over the limit of 2147483648 for literal data"),
        (module("a = f32[2] parameter(0)", "ROOT b = f32[2] reverse(a), dimensions={0,}"), 4, "}",
         "expected an integer"),
        (module("ROOT a = f32[2] parameter(0)", "ROOT b = f32[2] negate(a)"), 4, "ROOT b",
         "more than one ROOT"),
        (module("a = f32[2]{1,0} parameter(0)"), 3, "1,0}", "not a permutation"),
        (module("a = f32[2] parameter(0)", "ROOT b = f32[2] negate(a), metadata={op_name=\"x}"), 4, '"x}',
         "unterminated string"),
        (module("a = f32[4] parameter(0)", "z = f32[] constant(0)", "ROOT p = f32[4] pad(a, z), padding=0_0_-1"),
         5, "-1", "interior padding must not be negative"),
    ],
)
def test_error_points_at_the_offending_token(text, line, token, message):
    err = error_of(text)
    assert message in str(err)
    assert err.line == line
    source = text.split("\n")[line - 1]
    assert err.source_line == source
    assert source[err.column - 1 :].startswith(token), (source, err.column)
    assert caret_column(err) == err.column - 1
    assert str(err).startswith(f"line {line}, column {err.column}: ")


def test_truncated_text():
    err = error_of("HloModule m\nENTRY e {\n  a = f32[2] parameter(0)\n")
    assert "is not closed" in str(err)
    err = error_of("HloModule m\nENTRY e {\n  a = f32[2] add(")
    assert err.line == 3


def test_empty_and_non_utf8_input():
    assert "at least one computation" in str(error_of(""))
    err = error_of(b"HloModule m\nENTRY e {\n  a = f32[2] par\xffameter(0)\n}")
    assert "not valid UTF-8" in str(err) and err.line == 3 and err.column == 17


def test_two_entries_and_duplicate_computations():
    two = "HloModule m\nENTRY a {\n  x = f32[] parameter(0)\n}\nENTRY b {\n  y = f32[] parameter(0)\n}\n"
    assert "only one ENTRY" in str(error_of(two))
    dup = "HloModule m\nc {\n  x = f32[] parameter(0)\n}\nc {\n  y = f32[] parameter(0)\n}\n"
    err = error_of(dup)
    assert "defined twice" in str(err) and err.line == 5


def test_very_long_line_is_shown_around_the_error():
    long_line = "a = f32[2] parameter(0), metadata={op_name=\"" + "x" * 5000 + "\"}, " + "bogus"
    err = error_of(module(long_line))
    shown = str(err).split("\n")[1]
    assert len(shown) < 300 and "bogus" in shown


def test_deeply_nested_tuple_shape_parses_without_recursion_error():
    shape = "(" * 60 + "f32[]" + ")" * 60
    m = hs.parse_hlo(module(f"ROOT a = {shape} parameter(0)"))
    assert m.entry_computation.root == "a"


def test_tuple_nesting_past_the_limit_is_a_parse_error_not_a_recursion_error():
    shape = "(" * 5000 + "f32[]" + ")" * 5000
    err = error_of(module(f"ROOT a = {shape} parameter(0)"))
    assert "nest more than" in str(err) and err.line == 3
