"""What a pass changed: a structural diff of two modules and a highlighted text diff.

Instructions are matched by name (passes keep names of what they do not replace), so

    d = graph_diff(record.before, record.after)
    d.highlight()        # {"added": [...], "removed": [...], "changed": [...]} for module_to_dot
    d.computations["main.3"].changed

`changed` means same name, different opcode, operands, shape or attributes (metadata is
ignored); in the module-wide view an instruction that moved into a fused computation is
"changed" too, and so is a fusion whose fused computation changed.
"""

from __future__ import annotations

import difflib
import html
from dataclasses import dataclass, field

from ..ir.printer import format_instruction
from .hlo_html import CSS as HLO_CSS
from .hlo_html import highlight_hlo

MAX_DIFF_LINES = 4000

DIFF_CSS = """
.hs-diff pre { max-height: 36em; }
.hs-diff .da { background: #dafbe1; display: block; }
.hs-diff .dd { background: #ffebe9; display: block; }
.hs-diff .dk { color: #6e7781; background: #ddf4ff; display: block; }
.hs-diff .dh { color: #57606a; font-weight: 600; display: block; }
.hs-diff .stat { font-size: 12px; color: #57606a; padding: 2px 0 4px 0; }
"""


@dataclass(frozen=True)
class ComputationDiff:
    """Instruction names added, removed and changed within one computation."""

    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.added or self.removed or self.changed)


@dataclass(frozen=True)
class GraphDiff:
    """Per-computation diffs (only computations that differ), and the module-wide view."""

    computations: dict = field(default_factory=dict)  # name -> ComputationDiff
    added_computations: tuple[str, ...] = ()
    removed_computations: tuple[str, ...] = ()
    added: tuple[str, ...] = ()  # module-wide, by instruction name
    removed: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.computations or self.added or self.removed or self.changed)

    def highlight(self) -> dict[str, list[str]]:
        """The module-wide sets in the form `module_to_dot(highlight=...)` takes."""
        return {"added": list(self.added), "removed": list(self.removed), "changed": list(self.changed)}


def _signature(inst) -> str:
    """Everything that matters about an instruction except its metadata."""
    return format_instruction(inst, metadata=False)


def _diff_computation(before, after) -> ComputationDiff:
    if before is after:
        return ComputationDiff()
    a = {i.name: i for i in before} if before is not None else {}
    b = {i.name: i for i in after} if after is not None else {}
    changed = [n for n in b if n in a and a[n] is not b[n] and _signature(a[n]) != _signature(b[n])]
    return ComputationDiff(tuple(n for n in b if n not in a), tuple(n for n in a if n not in b), tuple(changed))


def graph_diff(before, after) -> GraphDiff:
    """Added/removed/changed instruction names per computation and module-wide."""
    comps_a = {c.name: c for c in before.computations}
    comps_b = {c.name: c for c in after.computations}
    per = {}
    for name in list(comps_b) + [n for n in comps_a if n not in comps_b]:
        d = _diff_computation(comps_a.get(name), comps_b.get(name))
        if d:
            per[name] = d
    added, removed, changed = _module_wide(before, after, comps_a, comps_b, per)
    return GraphDiff(
        per,
        tuple(n for n in comps_b if n not in comps_a),
        tuple(n for n in comps_a if n not in comps_b),
        added,
        removed,
        changed,
    )


def _module_wide(before, after, comps_a, comps_b, per) -> tuple:
    """Match names across the whole module, so moving into a fusion reads as "changed"."""
    where_a = {i.name: (c.name, i) for c in before.computations for i in c}
    where_b = {i.name: (c.name, i) for c in after.computations for i in c}
    added = tuple(n for n in where_b if n not in where_a)
    removed = tuple(n for n in where_a if n not in where_b)
    changed = []
    for name, (comp_b, inst_b) in where_b.items():
        if name not in where_a:
            continue
        comp_a, inst_a = where_a[name]
        calls_changed = any(c in per or c not in comps_a for c in inst_b.called_computations())
        differs = inst_a is not inst_b and _signature(inst_a) != _signature(inst_b)
        if comp_a != comp_b or differs or calls_changed:
            changed.append(name)
    return added, removed, tuple(changed)


def text_diff_lines(before_text: str, after_text: str, context: int = 3) -> list[str]:
    """A unified diff of two HLO texts, as lines without newlines."""
    return list(
        difflib.unified_diff(
            before_text.splitlines(), after_text.splitlines(), "before", "after", lineterm="", n=context
        )
    )


def _line_html(line: str) -> str:
    if line.startswith(("---", "+++")):
        return f'<span class="dh">{html.escape(line)}</span>'
    if line.startswith("@@"):
        return f'<span class="dk">{html.escape(line)}</span>'
    cls = {"+": "da", "-": "dd"}.get(line[:1])
    body = html.escape(line[:1]) + highlight_hlo(line[1:])
    return f'<span class="{cls}">{body}</span>' if cls else body + "\n"


def text_diff_html(before_text: str, after_text: str, context: int = 3, max_lines: int = MAX_DIFF_LINES) -> str:
    """A self-contained HTML block: the unified diff, syntax-highlighted, +/- lines coloured."""
    lines = text_diff_lines(before_text, after_text, context)
    if not lines:
        return '<div class="hloscope-hlo hs-diff"><div class="stat">no textual change</div></div>'
    plus = sum(1 for ln in lines if ln.startswith("+") and not ln.startswith("+++"))
    minus = sum(1 for ln in lines if ln.startswith("-") and not ln.startswith("---"))
    shown = lines[:max_lines]
    body = "".join(_line_html(ln) for ln in shown)
    more = f'<div class="note">... {len(lines) - max_lines} more diff lines</div>' if len(lines) > max_lines else ""
    return (
        f'<div class="hloscope-hlo hs-diff"><style>{HLO_CSS}{DIFF_CSS}</style>'
        f'<div class="stat">+{plus} -{minus} lines</div><pre>{body}</pre>{more}</div>'
    )
