"""Notebook 11's exercise checks (hloscope.teaching.xla_dump) on XLA's recorded gelu_mlp dump:
a right answer passes, and each likely mistake fails with the hint that names it."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from hloscope.teaching import CheckFailed
from hloscope.teaching.xla_dump import (allocations, check_biggest_entry_shrink, check_donated_parameters,
                                        check_first_fusion_step, check_fusion_kinds, check_temp_bytes, dump_path)
from hloscope.xla import load

DUMP = Path(__file__).resolve().parent / "xla_dumps" / "gelu_mlp"
ASSIGNMENT = "module_0000.jit__p_gelu_mlp.cpu_after_optimizations-buffer-assignment.txt"


@pytest.fixture(scope="module")
def c():
    return load(DUMP)


def test_first_fusion_is_the_dot_library_rewriters_snapshot(c, capsys):
    # 0014 dot-library-rewriter wraps the dots in kCustom __ynn_fusion; the fusion pass is 0017
    check_first_fusion_step(c, 14)
    assert "step 14 (dot-library-passes, after dot-library-rewriter)" in capsys.readouterr().out
    with pytest.raises(CheckFailed, match="the pass named 'fusion' is not the first"):
        check_first_fusion_step(c, 17)
    with pytest.raises(CheckFailed, match="one too far"):
        check_first_fusion_step(c, 15)


def test_biggest_entry_shrink_is_the_fusion_pass(c):
    check_biggest_entry_shrink(c, ("fusion", 19))  # ENTRY 28 -> 9 instructions
    with pytest.raises(CheckFailed, match="instruction_count\\(\\) counts every computation"):
        check_biggest_entry_shrink(c, ("algsimp", 6))  # 34 -> 28 in all; fusion adds computations
    with pytest.raises(CheckFailed, match="as a positive number"):
        check_biggest_entry_shrink(c, ("fusion", -19))
    with pytest.raises(CheckFailed):
        check_biggest_entry_shrink(c, None)  # type: ignore[arg-type]


def test_fusion_kinds_name_the_library(c):
    check_fusion_kinds(c, {"kLoop": 2, "__ynn_fusion": 2})
    with pytest.raises(CheckFailed, match="name each kCustom fusion by the library"):
        check_fusion_kinds(c, {"kLoop": 2, "kCustom": 2})
    with pytest.raises(CheckFailed, match="has 4 fusion instructions in all"):
        check_fusion_kinds(c, {"kLoop": 3, "__ynn_fusion": 2})


def test_no_parameter_is_donated_in_gelu_mlp(c):
    check_donated_parameters(c, set())
    with pytest.raises(CheckFailed, match="not every parameter"):
        check_donated_parameters(c, {0, 1, 2, 3, 4})
    with pytest.raises(CheckFailed, match="a set of parameter numbers"):
        check_donated_parameters(c, [])  # type: ignore[arg-type]


def test_a_donated_parameter_is_found_in_the_buffer_assignment(tmp_path):
    # The same dump with parameter 0's allocation also holding an output, as a donated one does.
    folder = tmp_path / "dump"
    shutil.copytree(DUMP, folder)
    path = folder / ASSIGNMENT
    path.write_text(re.sub(r"^(allocation \d+: size \d+, parameter 0, .*?):$", r"\1, maybe-live-out:",
                           path.read_text(), count=1, flags=re.MULTILINE))
    donated = load(folder)
    check_donated_parameters(donated, {0})
    with pytest.raises(CheckFailed):
        check_donated_parameters(donated, set())


def test_temp_arena_bytes(c):
    check_temp_bytes(c, 32768)  # the two f32[32,256] intermediates share one 32 KiB temp
    with pytest.raises(CheckFailed, match="that is the total"):
        check_temp_bytes(c, c.xla_memory_total_bytes)
    with pytest.raises(CheckFailed, match="not one value's"):
        check_temp_bytes(c, 16384)


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
