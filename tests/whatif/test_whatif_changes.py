"""hloscope.whatif: each kind of change does what it says, reruns only what it affects, and
the changed program still computes the same values (checked against the reference evaluator)."""

from __future__ import annotations

import numpy as np
import pytest
from whatif_helpers import ADD_ZERO_HLO, compiled_softmax, opcodes

import hloscope
from hloscope.whatif import WhatIfError, whatif

FRONT_AND_LOWER = ("parse", "verify", "optimize", "plan", "lower")


@pytest.fixture(scope="module")
def add_zero_exe():
    return hloscope.compile(ADD_ZERO_HLO)


@pytest.fixture(scope="module")
def small_softmax():
    return compiled_softmax((64, 128))


def test_disabling_add_zero_keeps_the_add_of_zero(add_zero_exe):
    assert "add" not in opcodes(add_zero_exe.report.module)  # the rule removed it
    w = whatif(add_zero_exe, disable_rules=["add_zero"], run=False)
    assert opcodes(w.changed.module).count("add") == 1  # the only add of the program: x + 0
    fired = [d.rule for r in w.changed.records for d in r.log if r.name == "algsimp"]
    assert "add_zero" not in fired
    assert any("add_zero" in line for line in w.decisions_changed.gone)
    x = np.linspace(-2, 2, 64, dtype=np.float32)
    np.testing.assert_allclose(w.executables[1](x), hloscope.evaluate(hloscope.parse_hlo(ADD_ZERO_HLO), x), rtol=1e-6)
    assert w.reused == ("parse", "verify")


def test_only_the_llvm_level_reruns_no_pass(small_softmax):
    exe, x = small_softmax
    w = whatif(exe, opt_level=0, run=False)
    status = {s.name: s.status for s in w.changed.stages}
    assert all(status[name] == "reused" for name in FRONT_AND_LOWER), status
    assert status["llvm-opt"] == "done" and status["codegen"] == "done"
    assert w.changed.records is exe.report.records  # the pass records are the original's, not new runs
    assert "-O0" in w.changed.stage("llvm-opt").note
    assert w.delta("kernels")[0] == w.delta("kernels")[1]
    np.testing.assert_allclose(w.executables[1](x), exe(x), rtol=1e-6)
    assert "reused from the original: parse, verify, optimize, plan, lower" in str(w)


def test_vector_width_reruns_from_the_lowering(small_softmax):
    """Another CPU than this host's: its program is generated whole (the library and the row
    interpreter are this host's code), so the kernels are lowered again."""
    exe, x = small_softmax
    assert {k.kind for k in exe.report.kernels} == {"row-program"}
    w = whatif(exe, vector_width=128, run=False)
    assert w.changed.options["cpu"] == "x86-64-v2"
    assert w.reused == ("parse", "verify")  # the kernel-strategy pass decides again (optimize's last)
    assert "row-program" not in {k.kind for k in w.changed.kernels}
    assert "xmm" in w.changed.assembly and "ymm" not in w.changed.assembly  # 128-bit vectors only
    np.testing.assert_allclose(w.executables[1](x), exe(x), rtol=1e-5)


def test_without_the_library_every_kernel_is_generated(small_softmax):
    exe, x = small_softmax
    w = whatif(exe, library=False, run=False)
    assert w.reused == ("parse", "verify")  # the kernel-strategy pass decides again (optimize's last)
    assert {k.kind for k in w.changed.kernels} == {"reduce", "loop"}
    assert any("every kernel generated" in line for line in w.why())
    np.testing.assert_allclose(w.executables[1](x), exe(x), rtol=1e-5)


def test_program_order_drops_the_scheduler(small_softmax):
    exe, _ = small_softmax
    w = whatif(exe, scheduler="program", run=False)
    assert "hlo-memory-scheduler" in [r.name for r in exe.report.records]
    assert "hlo-memory-scheduler" not in [r.name for r in w.changed.records]
    assert not w.changed.module.is_scheduled


def test_fusion_heuristics_change_the_fusions(small_softmax):
    exe, x = small_softmax
    w = whatif(exe, duplicate_expensive=True, multi_output=False, run=False)
    # exp(x - max) has two users (the sum and the divide): duplicated now, so the two
    # fusions each compute it and no kernel writes it out
    fused = w.changed.records[[r.name for r in w.changed.records].index("fusion")]
    assert any(d.subject.startswith("exponential") and d.action == "fused" for d in fused.log)
    assert "multi_output_fusion" not in [r.name for r in w.changed.records]
    assert w.delta("bytes moved")[1] < w.delta("bytes moved")[0]
    np.testing.assert_allclose(w.executables[1](x), exe(x), rtol=1e-5)


def test_operand_limit_one_refuses_fusions(small_softmax):
    exe, _ = small_softmax
    w = whatif(exe, max_operands=1, run=False)
    refused = [d for r in w.changed.records for d in r.log if d.rule == "too_many_operands"]
    assert refused and "limit 1" in refused[0].reason


def test_a_fusion_rule_can_be_switched_off(small_softmax):
    exe, _ = small_softmax
    w = whatif(exe, disable_rules=["expensive_duplicate"], run=False)
    assert [d for r in exe.report.records for d in r.log if d.rule == "expensive_duplicate"]
    assert any("expensive (exponential), would be duplicated" in line for line in w.decisions_changed.gone)
    assert not [d for r in w.changed.records for d in r.log if d.rule == "expensive_duplicate"]


def test_bad_changes_are_named(small_softmax):
    exe, _ = small_softmax
    with pytest.raises(WhatIfError, match="no_such_rule"):
        whatif(exe, disable_rules=["no_such_rule"])
    with pytest.raises(WhatIfError, match="runs no pass.*'fusoin'"):
        whatif(exe, disable=["fusoin"])
    with pytest.raises(WhatIfError, match="unknown change"):
        whatif(exe, fusion=False)
    with pytest.raises(WhatIfError, match="no change"):
        whatif(exe)
    with pytest.raises(WhatIfError, match="vector_width"):
        whatif(exe, vector_width=100)
    with pytest.raises(WhatIfError, match="library must be True or False"):
        whatif(exe, library="no")


def test_a_whatif_of_a_whatif_starts_from_the_changed_record(small_softmax):
    exe, _ = small_softmax
    first = whatif(exe, disable=["fusion"], run=False)
    second = whatif(first, opt_level=1, run=False)
    assert second.original is first.changed
    assert second.reused == FRONT_AND_LOWER
    assert "fusion" not in [r.name for r in second.changed.records]


def test_gpu_llvm_level_reruns_from_lower(small_softmax):
    """The GPU's rows pass state from lower to ptx, so an LLVM change lowers again; the HLO
    passes are still reused. No GPU here: the runs are not measured, and the table says why."""
    exe, _ = small_softmax
    gpu = hloscope.compile(exe.report.input_module, backend="gpu", ptxas=False)
    w = whatif(gpu, opt_level=1)
    assert w.reused == ("parse", "verify", "optimize", "plan")
    assert w.changed.stage("ptx").status == "done" and ".entry" in w.changed.ptx
    if w.after.run_seconds is None:
        assert "measured run: " in str(w) and w.after.run_note
