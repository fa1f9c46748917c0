"""Which pass decisions a what-if changed, and why: the decisions only one side made (each
with its pass's reason), and a sentence per change saying what it switched and what the
original did there (how often a rule fired, how many decisions a pass made)."""

from __future__ import annotations

import html
from collections import Counter
from dataclasses import dataclass

from ..compilation.record import Compilation
from .changes import Changes

MAX_DECISIONS = 30  # lines of changed decisions shown per side (all are in `decisions_changed`)


@dataclass(frozen=True)
class DecisionChanges:
    """Decisions (as `pass: decision` lines) only the original made, and only the what-if made."""

    gone: tuple[str, ...] = ()
    new: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.gone or self.new)


def explain(original: Compilation, ch: Changes) -> list[str]:
    fired = Counter(d.rule for r in original.records for d in r.log if d.rule and d.accepted)
    refused = Counter(d.rule for r in original.records for d in r.log if d.rule and not d.accepted)
    runs = Counter(r.name for r in original.records)
    out = []
    for p in ch.disable:
        n = sum(len(r.log) for r in original.records if _same(r.name, p))
        out.append(f"{p} did not run (the original ran it {runs.get(_name(original, p), 0)} times, "
                   f"{n} decisions)")
    for rule in ch.disable_rules:
        out.append(f"rule {rule} switched off: in the original it fired {fired.get(rule, 0)} times "
                   f"and refused {refused.get(rule, 0)} fusions")
    for name, words in (("max_operands", "fusion's operand limit"), ("duplicate", "fusion duplicates cheap producers"),
                        ("duplicate_expensive", "fusion duplicates expensive producers"),
                        ("multi_output", "multi-output fusion runs")):
        value = getattr(ch, name)
        if value is not None:
            out.append(f"{words}: {value}")
    if ch.scheduler == "program":
        out.append("the memory scheduler did not run: the ENTRY runs in the order it was written")
    elif ch.scheduler == "memory":
        out.append("the memory scheduler ran (the list scheduler, least memory first)")
    if ch.opt_level is not None:
        out.append(f"LLVM -O{original.options.get('opt_level', '?')} -> -O{ch.opt_level}; the HLO passes were reused")
    if ch.vector_width is not None:
        out.append(f"vectors of at most {ch.vector_width} bits (LLVM CPU {ch.options({})['cpu']}); "
                   "the HLO passes were reused")
    if ch.library is False:
        out.append("no library: every kernel generated, row programs and library reductions included; "
                   "the HLO passes were reused")
    elif ch.library:
        out.append("the library's kernels and row programs where they fit; the HLO passes were reused")
    return out


def _same(a: str, b: str) -> bool:
    return a.replace("_", "-").lower() == b.strip().replace("_", "-").lower()


def _name(c: Compilation, p: str) -> str:
    return next((r.name for r in c.records if _same(r.name, p)), p)


def decision_changes(original: Compilation, changed: Compilation) -> DecisionChanges:
    a, b = _decisions(original), _decisions(changed)
    return DecisionChanges(tuple((a - b).elements()), tuple((b - a).elements()))


def _decisions(c: Compilation) -> Counter:
    return Counter(f"{r.name}: {d}" for r in c.records for d in r.log)


def decision_lines(dec: DecisionChanges) -> list[str]:
    if not dec:
        return ["decisions: the same"]
    out = []
    for title, lines in (("decisions only the original made", dec.gone), ("decisions only the what-if made", dec.new)):
        if lines:
            out.append(f"{title} ({len(lines)}):")
            out += [f"  {line}" for line in lines[:MAX_DECISIONS]]
            out += [f"  ... and {len(lines) - MAX_DECISIONS} more"] if len(lines) > MAX_DECISIONS else []
    return out


def decisions_html(dec: DecisionChanges) -> str:
    if not dec:
        return "<p>decisions: the same</p>"
    out = []
    for title, lines in (("only the original", dec.gone), ("only the what-if", dec.new)):
        items = "".join(f"<li><code>{html.escape(x)}</code></li>" for x in lines[:MAX_DECISIONS])
        more = f"<li>... and {len(lines) - MAX_DECISIONS} more</li>" if len(lines) > MAX_DECISIONS else ""
        out.append(f"<details><summary>decisions {title} made ({len(lines)})</summary><ul>{items}{more}</ul></details>")
    return "".join(out)
