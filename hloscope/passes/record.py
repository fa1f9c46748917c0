"""What a pass run leaves behind: its decisions, and the record the pipeline keeps of it.

The record is the product: the explorer, the static export, the tests and the notebooks all
read these objects. A decision is phrased for a learner, e.g.
`fused multiply.3 into add.5: loop fusion, elementwise producer with one user`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, Iterator, Protocol

from ..ir.module import HloModule


class Rewritable(Protocol):
    """What a pass rewrites: an HloModule, or auto-clustering's ProgramGraph."""

    def instruction_count(self) -> int: ...

    def to_text(self) -> str: ...


if TYPE_CHECKING:  # a TypeVar's default is typing's from Python 3.13 on; the checker reads it here
    from typing_extensions import TypeVar

    Rewritten = TypeVar("Rewritten", bound=Rewritable, default=HloModule)
else:
    from typing import TypeVar

    Rewritten = TypeVar("Rewritten", bound=Rewritable)


@dataclass(frozen=True)
class Decision:
    """One thing a pass did or chose not to do, and why.

    action: a verb such as "fused", "kept", "removed", "rewrote", "folded", "merged".
    subject: the instruction acted on; target: the other instruction involved, if any.
    rule: the name of the rewrite rule or fusion rule (e.g. "add_zero", "loop_fusion").
    accepted: False for a rejected candidate (a fusion refused, a rule that did not apply).
    """

    action: str
    subject: str
    reason: str
    target: str | None = None
    rule: str | None = None
    computation: str | None = None
    accepted: bool = True

    def __str__(self) -> str:
        into = f" into {self.target}" if self.target and self.action == "fused" else (
            f" -> {self.target}" if self.target else "")
        return f"{self.action} {self.subject}{into}: {self.reason}"


@dataclass
class DecisionLog:
    """The structured log a pipeline hands to each pass run."""

    entries: list[Decision] = field(default_factory=list)

    def add(self, action: str, subject: str, reason: str, *, target: str | None = None,
            rule: str | None = None, computation: str | None = None, accepted: bool = True) -> Decision:
        decision = Decision(action, subject, reason, target, rule, computation, accepted)
        self.entries.append(decision)
        return decision

    def accepted(self) -> list[Decision]:
        return [d for d in self.entries if d.accepted]

    def rejected(self) -> list[Decision]:
        return [d for d in self.entries if not d.accepted]

    def __iter__(self) -> Iterator[Decision]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def lines(self) -> list[str]:
        return [str(d) for d in self.entries]


@dataclass(frozen=True)
class PassRecord(Generic[Rewritten]):
    """One pass run: its name, the module before and after, changed or not, time and log.
    (Auto-clustering's graph passes leave the same record, with its graph before and after.)"""

    name: str
    pipeline: str
    changed: bool
    seconds: float
    before: Rewritten
    after: Rewritten
    log: tuple[Decision, ...]
    doc: str = ""
    iteration: int = 0

    @property
    def instruction_delta(self) -> int:
        return self.after.instruction_count() - self.before.instruction_count()

    def __str__(self) -> str:
        mark = "*" if self.changed else " "
        return f"{mark} {self.pipeline}/{self.name}: {self.seconds * 1e3:.2f} ms, {len(self.log)} decisions"

    def _repr_html_(self) -> str:
        # viz imports this module (views read records) and sits above passes: imported
        # only when a notebook displays a record.
        from ..viz.records_html import pass_record_html

        return pass_record_html(self)
