"""parse_hlo(text, memo=ParseMemo()): a run of snapshots of one module shares what repeats
word for word (hloscope.xla.load parses XLA's per-pass dumps this way), and gives the same
modules as parsing each text alone."""

import re
from pathlib import Path

import pytest

from hloscope import parse_hlo
from hloscope.errors import HloParseError
from hloscope.ir.parser import ParseMemo

DUMP = Path(__file__).resolve().parent / "xla_dumps" / "gelu_mlp"
SNAPSHOTS = sorted(p for p in DUMP.iterdir() if re.match(r"module_\d+\.[^.]+\.\d{4}\.", p.name))

TWO = """HloModule two

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

ENTRY main {
  p = f32[4] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[] reduce(p, z), dimensions={0}, to_apply=add
}
"""


def test_memo_gives_the_same_modules_as_parsing_alone():
    memo = ParseMemo()
    for path in SNAPSHOTS:
        text = path.read_text()
        assert parse_hlo(text, memo=memo).to_text() == parse_hlo(text).to_text(), path.name
    assert memo.computations and memo.instructions


def test_an_identical_computation_is_the_same_value_and_a_changed_one_is_parsed_again():
    memo = ParseMemo()
    first = parse_hlo(TWO, memo=memo)
    changed = parse_hlo(TWO.replace("ROOT s = f32[] add(a, b)", "ROOT s = f32[] multiply(a, b)"), memo=memo)
    assert changed.entry_computation is first.entry_computation
    assert changed.computation("add") is not first.computation("add")
    assert changed.computation("add").root_instruction.opcode == "multiply"
    # the changed computation's other lines are reused, instruction by instruction
    assert changed.computation("add")["a"] is first.computation("add")["a"]


def _error(text: str, memo: ParseMemo | None) -> str:
    with pytest.raises(HloParseError) as caught:
        parse_hlo(text, memo=memo)
    return str(caught.value)


@pytest.mark.parametrize("broken, message", [
    # a remembered computation still needs the computations it calls
    (TWO[: TWO.index("add {")] + TWO[TWO.index("ENTRY"):], "computation 'add' does not exist"),
    # a new line, and a remembered line whose operand is gone
    (TWO.replace("reduce(p, z)", "reduce(q, z)"), "line 12, column 25: instruction 'q' does not exist"),
    (TWO.replace("  z = f32[] constant(0)\n", ""), "line 11, column 28: instruction 'z' does not exist"),
])
def test_with_a_memo_errors_are_the_same_as_without(broken, message):
    memo = ParseMemo()
    parse_hlo(TWO, memo=memo)
    assert message in _error(broken, memo)
    assert _error(broken, memo) == _error(broken, None)


def test_a_literal_over_several_lines_is_not_remembered_by_its_first_line():
    text = "HloModule m\n\nENTRY main {\n  ROOT c = f32[2,2] constant({\n  { 1, 2 },\n  { 3, 4 }\n})\n}\n"
    memo = ParseMemo()
    first = parse_hlo(text, memo=memo)
    again = parse_hlo(text.replace("3, 4", "5, 6"), memo=memo)
    assert "5, 6" in again.to_text().replace("5,6", "5, 6") and again.to_text() != first.to_text()


def _outcome(text: str, memo: ParseMemo | None) -> str:
    try:
        return parse_hlo(text, memo=memo).to_text()
    except HloParseError as e:
        return f"error: {e}"


def test_mutated_snapshots_parse_or_fail_the_same_with_a_warm_memo():
    """Cut, dropped, doubled or swapped lines and characters of real snapshots: a memo that has
    seen the originals gives the same module or the same error as parsing alone."""
    import random

    rng = random.Random(15)
    memo = ParseMemo()
    texts = [p.read_text() for p in SNAPSHOTS]
    for text in texts:
        parse_hlo(text, memo=memo)
    for _ in range(150):
        lines = rng.choice(texts).splitlines(keepends=True)
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        how = rng.randrange(5)
        if how == 0:
            del lines[i]
        elif how == 1:
            lines.insert(i, lines[j])
        elif how == 2:
            lines[i], lines[j] = lines[j], lines[i]
        elif how == 3:
            at = rng.randrange(len(lines[i]))
            lines[i] = lines[i][:at] + lines[i][at + 1:]
        else:
            lines = lines[:i]
        mutated = "".join(lines)
        assert _outcome(mutated, memo) == _outcome(mutated, None), (how, i, j)
