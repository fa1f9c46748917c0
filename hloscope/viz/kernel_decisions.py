"""What each kernel runs as, and why: the kernel-strategy pass's decisions as the IR tab
shows them above the code ("reduce_max.7 and 2 more run as a row program: ...").

Only the decisions that depart from plain loops are listed; a row program's members are
one line. Where a kernel runs as a call of precompiled code, the line says that its plain
loops are what the IR views show by default (hloscope.plain_loops)."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..compilation.record import Compilation

STRATEGY_PASS = "kernel-strategy"


def strategy_decisions(report: "Compilation") -> list[tuple[str, list[str], str]]:
    """(what it runs as, the instructions, why) for each choice other than plain loops."""
    record = next((r for r in report.records if r.name == STRATEGY_PASS), None)
    if record is None:
        return []
    found: list[tuple[str, list[str], str]] = []
    for d in record.log:
        if not d.action.startswith("chose "):
            continue
        kind = d.action.removeprefix("chose ")
        if kind.startswith("row-program (of"):  # a later member of a program listed already
            program = kind.removeprefix("row-program (of ").rstrip(")")
            row = next((r for r in found if r[0] == "row-program" and r[1][0] == program), None)
            if row is not None:
                row[1].append(d.subject)
                continue
            kind = "row-program"
        found.append((kind, [d.subject], d.reason))
    return found


def decisions_html(report: "Compilation", lesson_shown: bool) -> str:
    """The decisions as a short list; '' when every kernel is plain loops."""
    rows = strategy_decisions(report)
    if not rows:
        return ""
    items = []
    for kind, names, reason in rows:
        who = ", ".join(html.escape(n) for n in names)
        items.append(f"<li><b>{who}</b> {'run' if len(names) > 1 else 'runs'} as <code>{html.escape(kind)}</code>: "
                     f"{html.escape(reason)}</li>")
    calls = any(kind == "row-program" or kind.startswith("library-") for kind, _, _ in rows)
    shown = ("The LLVM views below show every kernel as the plain loops it stands for; "
             "pick <i>as it runs</i> for the calls the executable makes.") if lesson_shown else (
             "The LLVM views below show the code as it runs; pick <i>plain loops</i> for the loops "
             "each call stands for.")
    return ("<div class='hloscope'><h4>What each kernel runs as, and why (the kernel-strategy pass)</h4>"
            f"<ul>{''.join(items)}</ul>" + (f"<p class='hs-note'>{shown}</p>" if calls else "") + "</div>")
