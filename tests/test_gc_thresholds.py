"""The garbage collector runs less often while stages run (compilation/gc_thresholds.py), and
the process gets its own thresholds back afterwards, however compilations overlap or fail."""

from __future__ import annotations

import gc
import threading

import pytest

from hloscope.compilation.gc_thresholds import FIRST_THRESHOLD, fewer_collections
from hloscope.compilation.record import Compilation
from hloscope.compilation.stages import Stage, run_stages


@pytest.fixture(autouse=True)
def default_thresholds():
    saved = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield
    gc.set_threshold(*saved)


def _compilation() -> Compilation:
    return Compilation(source=None)  # type: ignore[arg-type]  # the stages here read no source


def test_stages_run_with_a_raised_first_threshold_and_restore_it():
    seen = []
    run_stages(_compilation(), [Stage("look", lambda c: seen.append(gc.get_threshold()) or "")])
    assert seen == [(FIRST_THRESHOLD, 10, 10)]
    assert gc.get_threshold() == (700, 10, 10)


def test_a_failing_stage_restores_the_thresholds():
    def fail(c):
        raise ValueError("boom")

    with pytest.raises(ValueError):
        run_stages(_compilation(), [Stage("fail", fail)])
    assert gc.get_threshold() == (700, 10, 10)


def test_a_higher_threshold_of_the_users_is_kept():
    gc.set_threshold(FIRST_THRESHOLD * 3, 5, 5)
    with fewer_collections():
        assert gc.get_threshold() == (FIRST_THRESHOLD * 3, 5, 5)
    assert gc.get_threshold() == (FIRST_THRESHOLD * 3, 5, 5)


def test_overlapping_compilations_restore_only_when_the_last_ends():
    first_in, second_in, first_out = threading.Event(), threading.Event(), threading.Event()
    during = []

    def first():
        with fewer_collections():
            first_in.set()
            second_in.wait(5)
        first_out.set()

    def second():
        first_in.wait(5)
        with fewer_collections():
            second_in.set()
            first_out.wait(5)
            during.append(gc.get_threshold())  # the first has ended; this one still runs

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert during == [(FIRST_THRESHOLD, 10, 10)]
    assert gc.get_threshold() == (700, 10, 10)
