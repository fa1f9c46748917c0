"""Notebook 11's exercise checks (hloscope.teaching.xla_dump) on XLA's recorded gelu_mlp dump:
`...` is not answered yet, a right answer gets ✓, and each likely mistake gets a ✗ line that
names it without giving the answer."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from hloscope.teaching.xla_dump import (allocations, check_biggest_entry_shrink, check_donated_parameters,
                                        check_first_fusion_step, check_fusion_kinds, check_temp_bytes, dump_path)
from hloscope.xla import load

DUMP = Path(__file__).resolve().parent / "xla_dumps" / "gelu_mlp"
ASSIGNMENT = "module_0000.jit__p_gelu_mlp.cpu_after_optimizations-buffer-assignment.txt"


@pytest.fixture(scope="module")
def c():
    return load(DUMP)


def verdict(capsys, check, c, answer) -> str:
    """The one line `check(c, answer)` prints."""
    check(c, answer)
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def wrong(capsys, check, c, answer, match: str, right) -> None:
    line = verdict(capsys, check, c, answer)
    assert line.startswith("\u2717 ") and re.search(match, line), line
    assert repr(right) not in line and (not isinstance(right, int) or not re.search(rf"\b{right}\b", line))


def test_every_check_says_not_answered_yet_for_ellipsis(c, capsys):
    for check in (check_first_fusion_step, check_biggest_entry_shrink, check_fusion_kinds, check_donated_parameters,
                  check_temp_bytes):
        assert verdict(capsys, check, c, ...).endswith(": not answered yet")


def test_first_fusion_is_the_dot_library_rewriters_snapshot(c, capsys):
    # 0014 dot-library-rewriter wraps the dots in kCustom __ynn_fusion; the fusion pass is 0017
    assert verdict(capsys, check_first_fusion_step, c, 14) == "\u2713 the first snapshot with a fusion"
    wrong(capsys, check_first_fusion_step, c, 17, "the pass named 'fusion' is not the first", 14)
    wrong(capsys, check_first_fusion_step, c, 15, "one too far", 14)
    wrong(capsys, check_first_fusion_step, c, 3, "too early", 14)


def test_biggest_entry_shrink_is_the_fusion_pass(c, capsys):
    right = ("fusion", 19)  # ENTRY 28 -> 9 instructions
    assert verdict(capsys, check_biggest_entry_shrink, c, right).startswith("\u2713")
    # 34 -> 28 in all; fusion adds computations
    wrong(capsys, check_biggest_entry_shrink, c, ("algsimp", 6), r"instruction_count\(\) counts every computation", right)
    wrong(capsys, check_biggest_entry_shrink, c, ("fusion", -19), "as a positive number", right)
    wrong(capsys, check_biggest_entry_shrink, c, None, "a pair", right)


def test_fusion_kinds_name_the_library(c, capsys):
    right = {"kLoop": 2, "__ynn_fusion": 2}
    assert verdict(capsys, check_fusion_kinds, c, right).startswith("\u2713")
    wrong(capsys, check_fusion_kinds, c, {"kLoop": 2, "kCustom": 2}, "name each kCustom fusion by the library", right)
    wrong(capsys, check_fusion_kinds, c, {"kLoop": 3, "__ynn_fusion": 2}, "has 4 fusion instructions in all", right)


def test_no_parameter_is_donated_in_gelu_mlp(c, capsys):
    assert verdict(capsys, check_donated_parameters, c, set()).startswith("\u2713")
    wrong(capsys, check_donated_parameters, c, {0, 1, 2, 3, 4}, "not every parameter", set())
    wrong(capsys, check_donated_parameters, c, [], "a set of parameter numbers", set())


def test_a_donated_parameter_is_found_in_the_buffer_assignment(tmp_path, capsys):
    # The same dump with parameter 0's allocation also holding an output, as a donated one does.
    folder = tmp_path / "dump"
    shutil.copytree(DUMP, folder)
    path = folder / ASSIGNMENT
    path.write_text(re.sub(r"^(allocation \d+: size \d+, parameter 0, .*?):$", r"\1, maybe-live-out:",
                           path.read_text(), count=1, flags=re.MULTILINE))
    donated = load(folder)
    assert verdict(capsys, check_donated_parameters, donated, {0}).startswith("\u2713")
    wrong(capsys, check_donated_parameters, donated, set(), "", {0})


def test_temp_arena_bytes(c, capsys):
    right = 32768  # the two f32[32,256] intermediates share one 32 KiB temp
    assert verdict(capsys, check_temp_bytes, c, right).startswith("\u2713")
    wrong(capsys, check_temp_bytes, c, c.xla_memory_total_bytes, "that is the total", right)
    wrong(capsys, check_temp_bytes, c, 16384, "not one value's", right)


def test_allocations_read_every_header(c):
    found = allocations(c)
    assert len(found) == 7 and sum(a.size for a in found) == c.xla_memory_total_bytes
    assert [a.parameter for a in found if a.parameter is not None] == [1, 3, 0, 2, 4]
    assert [a.index for a in found if a.live_out] == [3] and [a.index for a in found if a.kind == "temporary"] == [6]


def test_a_record_not_from_a_dump_is_refused():
    import hloscope

    c = hloscope.optimize(hloscope.parse_hlo("HloModule m\nENTRY e {\n  ROOT p = f32[2] parameter(0)\n}\n"))
    with pytest.raises(TypeError, match="not a record read from an XLA dump"):
        dump_path(c, "-buffer-assignment.txt")
