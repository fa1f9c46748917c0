"""The compile driver: a table of stages, run in order, each reported to a callback.

    table = [Stage("parse", load_source), Stage("verify", verify, needs=("parse",)), ...]
    run_stages(compilation, table, on_update=explorer.refresh)

A stage is a name, a function that fills part of the Compilation and returns a one-line
note, the stages it needs, the record's fields it makes (`makes`) and the options it reads
(`reads`). Its StageRecord goes pending -> running -> done, and on_update(compilation) is
called at each change, so a front end can show each result as soon as it exists (xDSL's
PassPipeline callback, the Toy tutorial's --emit=<stage>).

The declarations are what everything else reads: what a compile-cache hit copies, what a
what-if experiment reuses and from which stage it reruns, and the check made after every
stage here, that it wrote no field of the record it did not declare (`UndeclaredWrite`).

When a stage raises, its record says failed with the error. With strict=True (what
`hloscope.compile` uses) the error is raised on; otherwise the stages that need the failed
one are skipped with the reason and the rest still run, so an explorer keeps everything
that worked. A stage whose input lacks what it needs (MissingInputError: a constant's
values left out of the text) is skipped with the message rather than failed. A stage that a cache hit already satisfied is "cached" and is not run again.
"""

from __future__ import annotations

import time
import traceback
from dataclasses import dataclass
from typing import Callable

from ..errors import HloscopeError, MissingInputError
from .record import STAGE_FIELDS, Compilation, StageRecord

Update = Callable[[Compilation], None]


@dataclass(frozen=True)
class Stage:
    """One row of the table. `run` returns the note shown next to the stage's time; it may
    write the record's fields `makes` names (and no other), and depends on the compile
    options `reads` names."""

    name: str
    run: Callable[[Compilation], str]
    needs: tuple[str, ...] = ()
    doc: str = ""
    makes: tuple[str, ...] = ()
    reads: tuple[str, ...] = ()


class UndeclaredWrite(RuntimeError):
    """A stage wrote a field of the record that its declaration (Stage.makes) does not name:
    the caches and what-if experiments would not know the field belongs to it."""


def made_by(stages: list[Stage], names: tuple[str, ...] | None = None) -> tuple[str, ...]:
    """The fields the stages (those called `names`, if given) make, each once, in order."""
    chosen = [s for s in stages if names is None or s.name in names]
    return tuple(dict.fromkeys(f for s in chosen for f in s.makes))


def first_reading(stages: list[Stage], options: set[str]) -> str | None:
    """The first stage that reads one of `options` (what changing them reruns from)."""
    return next((s.name for s in stages if options & set(s.reads)), None)


def _quiet(c: Compilation) -> None:
    return None


def plan_stages(c: Compilation, table: list[Stage]) -> None:
    """Give every stage of the table a pending record, after those the compilation has."""
    for stage in table:
        if not c.has_stage(stage.name):
            c.stages.append(StageRecord(stage.name))


def run_stages(c: Compilation, table: list[Stage], on_update: Update = _quiet, *, strict: bool = True,
               limit: int | None = None) -> Compilation:
    """Run the table's pending stages in order (at most `limit` of them)."""
    plan_stages(c, table)
    for stage in table:
        record = c.stage(stage.name)
        if record.status != "pending":
            continue
        if limit is not None:
            if limit <= 0:
                break
            limit -= 1
        blocker = _blocker(c, stage)
        if blocker:
            record.status, record.note = "skipped", blocker
            on_update(c)
            continue
        _run_one(c, stage, record, on_update, strict)
    return c


def _blocker(c: Compilation, stage: Stage) -> str:
    """Why `stage` cannot run ("" if it can): a stage it needs did not finish."""
    for name in stage.needs:
        if c.has_stage(name) and not c.stage(name).finished:
            record = c.stage(name)
            return f"needs {name}, which {'failed' if record.status == 'failed' else 'did not run'}"
    return ""


def _run_one(c: Compilation, stage: Stage, record: StageRecord, on_update: Update, strict: bool) -> None:
    record.status = "running"
    on_update(c)
    start = time.perf_counter()
    before = fingerprint(c)
    try:
        note = stage.run(c)
        _check_declared(c, stage, before)
    except MissingInputError as e:  # the input lacks what the stage needs: skipped, saying why
        record.status, record.note, record.error = "skipped", str(e), e
        record.seconds = time.perf_counter() - start
        on_update(c)
        if strict:
            raise
        return
    except Exception as e:  # noqa: BLE001 - recorded in the stage; raised on when strict
        record.status, record.note, record.error = "failed", failure_note(e), e
        record.seconds = time.perf_counter() - start
        on_update(c)
        if strict:
            raise
        return
    record.seconds = time.perf_counter() - start
    if record.status == "running":  # a stage may settle its own status (a skip it explains)
        record.status = "done"
    record.note = note or record.note
    on_update(c)


def fingerprint(c: Compilation) -> dict[str, object]:
    """What each stage-made field of the record holds, cheaply: its object, and a list's or
    dict's length (stages append pass records and checks to lists they made)."""
    return {name: (id(v), len(v)) if isinstance(v := getattr(c, name), (list, dict)) else id(v) for name in STAGE_FIELDS}


def _check_declared(c: Compilation, stage: Stage, before: dict[str, object]) -> None:
    after = fingerprint(c)
    wrote = [name for name in STAGE_FIELDS if after[name] != before[name] and name not in stage.makes]
    if wrote:
        raise UndeclaredWrite(f"stage {stage.name!r} wrote {', '.join(wrote)}, which it does not declare "
                              f"(makes={stage.makes})")


def failure_note(e: BaseException) -> str:
    """`ErrorType: first line of the message` (views show the whole message on request)."""
    text = str(e).strip().split("\n", 1)[0]
    if not isinstance(e, HloscopeError):
        where = traceback.extract_tb(e.__traceback__)[-1:] if e.__traceback__ else []
        text += f" (at {where[0].filename.rsplit('/', 1)[-1]}:{where[0].lineno})" if where else ""
    return f"{type(e).__name__}: {text}"
