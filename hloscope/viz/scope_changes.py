"""Which name scopes a pass changed: the stepper's answer to "where in my model did this happen".

    changes = scope_changes(record.before, record.after)
    changes.marks()          # {"added": [scope keys], ...}: every scope holding a change, parents too
    scope_changes_html(changes)

Instructions are placed by their op_name scopes (hloscope.viz.name_scopes) in the ENTRY of the
module they are in: added ones in the after module, removed ones in the before module, changed
ones in the after module. A change inside a fusion is counted at the fusion (graph_diff marks
a fusion whose fused computation changed as changed).
"""

from __future__ import annotations

import html
from collections import Counter
from dataclasses import dataclass, field

from .diff import graph_diff
from .graph_scopes import drawing_tree
from .name_scopes import TOP, scope_key

KINDS = ("added", "removed", "changed")
SIGNS = {"added": "+", "removed": "-", "changed": "~"}
MAX_LISTED = 12


@dataclass(frozen=True)
class ScopeChanges:
    """Per kind: innermost scope key -> how many instructions of that kind it holds itself."""

    counts: dict[str, Counter] = field(default_factory=dict)

    def marks(self) -> dict[str, list[str]]:
        """Per kind, every scope key holding such a change (parents included, top level not)."""
        out = {}
        for kind in KINDS:
            keys: dict[str, None] = {}
            for key in self.counts.get(kind, Counter()):
                parts = key.split("/") if key else []
                keys.update({"/".join(parts[:i]): None for i in range(1, len(parts) + 1)})
            out[kind] = list(keys)
        return out

    def __bool__(self) -> bool:
        return any(self.counts.get(k) for k in KINDS)


def scope_changes(before, after, diff=None) -> ScopeChanges:
    """Where `before` -> `after` changed, by scope (`diff`: a graph_diff already made)."""
    d = diff if diff is not None else graph_diff(before, after)
    trees = {"before": drawing_tree(before, before.entry_computation),
             "after": drawing_tree(after, after.entry_computation)}
    counts = {}
    for kind, names, side in (("added", d.added, "after"), ("removed", d.removed, "before"),
                              ("changed", d.changed, "after")):
        path_of = trees[side].path_of
        counts[kind] = Counter(scope_key(path_of[n]) for n in names if n in path_of)
    return ScopeChanges(counts)


def scope_changes_html(changes: ScopeChanges) -> str:
    """One line: the scopes that changed most, each with +added -removed ~changed."""
    if not changes:
        return ""
    per_scope: dict[str, Counter] = {}
    for kind in KINDS:
        for key, n in changes.counts.get(kind, Counter()).items():
            per_scope.setdefault(key, Counter())[kind] += n
    ranked = sorted(per_scope.items(), key=lambda kv: -sum(kv[1].values()))
    items = [_item(key, c) for key, c in ranked[:MAX_LISTED]]
    more = f" and {len(ranked) - MAX_LISTED} more" if len(ranked) > MAX_LISTED else ""
    return f"<div class='hs-scope-changes'>scopes changed: {', '.join(items)}{more}</div>"


def _item(key: str, counts: Counter) -> str:
    signs = " ".join(f"{SIGNS[k]}{counts[k]}" for k in KINDS if counts[k])
    name = html.escape(key) if key != scope_key(TOP) else "(top level)"
    return f"<b>{name}</b> {signs}"
