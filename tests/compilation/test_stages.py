"""The stage driver (compilation/stages.run_stages) on its own, with fake stages: the order,
what each callback sees, a failure raised (strict) or recorded with the stages that need it
skipped and the rest run, a stage limit, stages already done, and a stage that settles its
own status. The real tables (compile, the explorer's session) are tested through their users."""

from __future__ import annotations

import pytest

from hloscope.compilation.record import Compilation
from hloscope.compilation.sources import HloText
from hloscope.compilation.stages import Stage, failure_note, run_stages
from hloscope.errors import ElidedValuesError, HloscopeError


class Broken(HloscopeError):
    pass


def record() -> Compilation:
    """A record for the fake stages to fill (its source is never loaded)."""
    return Compilation(HloText("HloModule unused"))


def table(log: list[str], fail: str = "") -> list[Stage]:
    """parse -> verify -> optimize -> lower, and a `report` that needs only parse."""

    def step(name: str):
        def run(c: Compilation) -> str:
            log.append(name)
            if name == fail:
                raise Broken(f"{name} broke\nsecond line")
            return f"{name} note"
        return run

    return [Stage("parse", step("parse")), Stage("verify", step("verify"), needs=("parse",)),
            Stage("optimize", step("optimize"), needs=("verify",)), Stage("lower", step("lower"), needs=("optimize",)),
            Stage("report", step("report"), needs=("parse",))]


def statuses(c: Compilation) -> dict[str, str]:
    return {s.name: s.status for s in c.stages}


def test_stages_run_in_order_and_keep_their_notes_and_times():
    log = []
    c = run_stages(record(), table(log))
    assert log == ["parse", "verify", "optimize", "lower", "report"]
    assert set(statuses(c).values()) == {"done"}
    assert [s.note for s in c.stages] == [f"{n} note" for n in log]
    assert all(s.seconds >= 0 for s in c.stages)


def test_the_callback_sees_every_stage_pending_then_running_then_done():
    seen = []
    run_stages(record(), table([]), on_update=lambda c: seen.append(tuple(statuses(c).values())))
    assert seen[0] == ("running", "pending", "pending", "pending", "pending")
    assert seen[1] == ("done", "pending", "pending", "pending", "pending")
    assert seen[-1] == ("done",) * 5
    assert len(seen) == 10  # running and done, for each


def test_strict_raises_the_stage_error_with_the_stage_recorded_as_failed():
    log, c = [], record()
    with pytest.raises(Broken, match="optimize broke"):
        run_stages(c, table(log, fail="optimize"), strict=True)
    assert log == ["parse", "verify", "optimize"]
    assert statuses(c) == {"parse": "done", "verify": "done", "optimize": "failed", "lower": "pending", "report": "pending"}
    assert c.stage("optimize").note == "Broken: optimize broke"  # the first line; the error keeps the rest
    assert isinstance(c.stage("optimize").error, Broken)


def test_without_strict_what_needs_the_failure_is_skipped_and_the_rest_runs():
    log, updates = [], []
    c = run_stages(record(), table(log, fail="verify"), on_update=lambda c: updates.append(statuses(c)), strict=False)
    assert log == ["parse", "verify", "report"]
    assert statuses(c) == {"parse": "done", "verify": "failed", "optimize": "skipped", "lower": "skipped", "report": "done"}
    assert c.stage("optimize").note == "needs verify, which failed"
    assert c.stage("lower").note == "needs optimize, which did not run"
    assert updates[-1] == statuses(c)


def test_a_limit_runs_that_many_stages_and_the_next_call_goes_on():
    log, c = [], record()
    run_stages(c, table(log), strict=False, limit=1)
    assert log == ["parse"] and statuses(c)["verify"] == "pending"
    run_stages(c, table(log), strict=False)
    assert log == ["parse", "verify", "optimize", "lower", "report"]


def test_stages_already_finished_are_not_run_again():
    log, c = [], record()
    run_stages(c, table(log)[:2])
    c.stage("verify").status = "cached"  # as a compile-cache hit marks what it stands in for
    run_stages(c, table(log))
    assert log == ["parse", "verify", "optimize", "lower", "report"]  # parse and verify once


def test_a_stage_may_settle_its_own_status():
    def not_needed(c: Compilation) -> str:
        c.stage("gpu-run").status = "skipped"
        return "no GPU here"

    c = run_stages(record(), [Stage("gpu-run", not_needed), Stage("after", lambda c: "", needs=("gpu-run",))],
                   strict=False)
    assert c.stage("gpu-run").status == "skipped" and c.stage("gpu-run").note == "no GPU here"
    assert c.stage("after").status == "skipped" and c.stage("after").note == "needs gpu-run, which did not run"


def test_an_unexpected_error_is_named_with_where_it_happened():
    def crash(c: Compilation) -> str:
        return str({}["missing"])

    c = run_stages(record(), [Stage("lower", crash)], strict=False)
    note = c.stage("lower").note
    assert note.startswith("KeyError: 'missing' (at test_stages.py:") and note.endswith(")")
    assert failure_note(Broken("a clear message")) == "Broken: a clear message"  # hloscope's own: no location


def test_a_stage_the_input_cannot_feed_is_skipped_saying_why():
    """MissingInputError (a constant's values left out of the text): skipped, not failed;
    still raised where the compile must finish."""
    def needs_values(c: Compilation) -> str:
        raise ElidedValuesError("constant.5", "f32[256,256]", "Making cpu code")

    table = [Stage("lower", needs_values), Stage("load", lambda c: "", needs=("lower",))]
    c = run_stages(record(), table, strict=False)
    assert c.stage("lower").status == "skipped" and "constant.5 (f32[256,256]) has no values" in c.stage("lower").note
    assert c.stage("load").note == "needs lower, which did not run" and not c.failed
    with pytest.raises(ElidedValuesError):
        run_stages(record(), table, strict=True)
