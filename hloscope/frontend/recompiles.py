"""Why a staged function traced and compiled again: each cache miss, with what changed.

A call's key is its arguments' structure, each array's shape, dtype and weakness, the values
of static arguments, the Python constants the function reads (python_constants.py), and the
compile options. A call whose key is new misses the cache. The miss is compared with the
program compiled before that differs least, and every difference is named in words:

    call 3 of f compiled again: argument x: dtype float32[8,16] -> float64[8,16]
        avoid: convert x to one dtype before calling (x.astype(np.float32)); ...

    f.cache_misses()       every miss, oldest first (the first call is one, with no change)
    miss.changes           [KeyChange(kind, what, before, after)]
    miss.advice            how a miss could have been avoided, when it could
    miss.module_diff()     the two programs' HLO, as a unified diff (the explorer draws it)
"""

from __future__ import annotations

import difflib
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..ir.module import HloModule
from .source import SourceInfo

# Kinds of change, in the order a reader wants them: what the caller passed first.
KINDS = ("structure", "shape", "dtype", "weak type", "static argument", "Python constant", "options")


@dataclass(frozen=True)
class KeyChange:
    """One difference between two calls' keys."""

    kind: str  # one of KINDS
    what: str  # "argument x", "static argument n", "global scale"
    before: str
    after: str

    def text(self) -> str:
        if self.kind == "structure":
            return f"{self.what}: {self.after}"
        return f"{self.what}: {self.kind} {self.before} -> {self.after}"


@dataclass(frozen=True)
class CallKey:
    """A call's key as the miss log reads it: per-leaf paths and values by name."""

    tree: Any
    leaves: tuple[tuple[str, Any], ...]  # (path, ShapedArray)
    statics: tuple[tuple[str, Any], ...]
    constants: tuple[tuple[str, Any], ...]
    options: tuple[tuple[str, Any], ...] = ()

    def describe(self) -> str:
        text = ", ".join(f"{p}: {a.short()}" for p, a in self.leaves)
        extra = [f"{k}={v!r}" for k, v in self.statics]
        return text + ("; " + ", ".join(extra) if extra else "")


@dataclass
class CacheMiss:
    """One trace-and-compile of a staged function, and why the cache could not serve it."""

    function: str
    call: int  # which call of the function (1 = the first)
    key: CallKey
    changes: list[KeyChange]  # empty for the first compile
    compared_with: CallKey | None  # the earlier key it differs least from
    advice: list[str]
    source: SourceInfo | None  # the user's line that made the call
    module: HloModule | None = None
    previous_module: HloModule | None = None
    seconds: float = 0.0  # trace and compile
    when: float = field(default_factory=time.time)

    @property
    def first(self) -> bool:
        return self.compared_with is None

    @property
    def causes(self) -> list[str]:
        """Each change in words (what `lz.metrics()` and the explorer list)."""
        return [c.text() for c in self.changes]

    @property
    def caller(self) -> str:
        """`call 3 of f`, or `f.compile() before any call`."""
        return f"call {self.call} of {self.function}" if self.call else f"{self.function}.compile() before any call"

    def text(self) -> str:
        where = f" at {self.source.short_file}:{self.source.line}" if self.source else ""
        if self.first:
            return f"{self.caller}{where}: first compile for ({self.key.describe()})"
        head = f"{self.caller}{where} compiled again: " + "; ".join(self.causes)
        return "\n".join([head, *(f"    avoid: {a}" for a in self.advice)])

    def __str__(self) -> str:
        return self.text()

    def module_diff(self, context: int = 2) -> list[str]:
        """The HLO of the program compiled before and of this one, as unified-diff lines."""
        if self.module is None or self.previous_module is None:
            return []
        before = self.previous_module.to_text().splitlines()
        after = self.module.to_text().splitlines()
        return list(difflib.unified_diff(before, after, "before", "after", n=context, lineterm=""))

    def _repr_html_(self) -> str:
        from ..viz.recompiles_html import miss_html

        return miss_html(self)


class CacheMisses(list):
    """The misses of a function, oldest first: a list that draws itself as a table and opens
    in the explorer (`hloscope.explore(f.cache_misses())`)."""

    def __str__(self) -> str:
        if not self:
            return "no cache misses"
        return "\n".join(m.text() for m in self)

    def counts(self) -> Counter:
        """{kind of change: misses it caused} over the log."""
        return Counter(c.kind for m in self for c in m.changes)

    def _repr_html_(self) -> str:
        from ..viz.recompiles_html import misses_html

        return misses_html(list(self))

    def _hloscope_explore_(self, *args: Any, run: bool = True, **options: Any) -> Any:
        from ..jupyter.panels.recompiles import RecompilesView

        return RecompilesView(list(self))


class MissLog:
    """What one function's cache missed (the keys it compiled, and each miss)."""

    LIMIT = 256  # the latest misses are kept; a function recompiling every call stays bounded

    def __init__(self, function: str):
        self.function = function
        self.calls = 0
        self.misses: list[CacheMiss] = []
        self._compiled: list[tuple[CallKey, HloModule | None]] = []

    def record(self, key: CallKey, source: SourceInfo | None, module: HloModule | None, seconds: float) -> CacheMiss:
        closest, previous_module, changes = None, None, []
        if self._compiled:
            scored = [(len(differences(k, key)), -i, k, m) for i, (k, m) in enumerate(self._compiled)]
            _, _, closest, previous_module = min(scored, key=lambda s: (s[0], s[1]))
            changes = differences(closest, key)
        miss = CacheMiss(self.function, self.calls, key, changes, closest, [], source, module, previous_module, seconds)
        miss.advice = advice(miss, self.misses)
        self._compiled.append((key, module))
        del self._compiled[: max(0, len(self._compiled) - self.LIMIT)]
        self.misses.append(miss)
        del self.misses[: max(0, len(self.misses) - self.LIMIT)]
        return miss

    def clear(self) -> None:
        self.misses.clear()
        self._compiled.clear()


def differences(a: CallKey, b: CallKey) -> list[KeyChange]:
    """What changed from key `a` to key `b`, argument by argument (see KINDS)."""
    changes: list[KeyChange] = []
    paths_a, paths_b = dict(a.leaves), dict(b.leaves)
    added = [p for p in paths_b if p not in paths_a]
    removed = [p for p in paths_a if p not in paths_b]
    if added or removed:
        words = ([f"added {', '.join(added)}"] if added else []) + ([f"removed {', '.join(removed)}"] if removed else [])
        changes.append(KeyChange("structure", "arguments", "", "; ".join(words)))
    elif a.tree != b.tree:
        changes.append(KeyChange("structure", "arguments", "", f"containers changed ({a.tree} -> {b.tree})"))
    for path, after in b.leaves:
        before = paths_a.get(path)
        if before is None:
            continue
        if before.shape != after.shape:
            changes.append(KeyChange("shape", f"argument {path}", before.short(), after.short()))
        if before.weak != after.weak:
            changes.append(KeyChange("weak type", f"argument {path}", _weakness(before), _weakness(after)))
        elif before.dtype != after.dtype:
            changes.append(KeyChange("dtype", f"argument {path}", before.short(), after.short()))
    changes += _named("static argument", "static argument ", a.statics, b.statics)
    changes += _named("Python constant", "", a.constants, b.constants)
    changes += _named("options", "option ", a.options, b.options)
    return changes


def _weakness(aval: Any) -> str:
    return f"a Python number ({aval.short()}, weakly typed)" if aval.weak else f"an array ({aval.short()})"


def _named(kind: str, prefix: str, a: tuple, b: tuple) -> list[KeyChange]:
    old, new = dict(a), dict(b)
    out = []
    for name in [*old, *(n for n in new if n not in old)]:
        if name not in new:
            out.append(KeyChange(kind, prefix + name, _short(old[name]), "(no longer a constant)"))
        elif name not in old:
            out.append(KeyChange(kind, prefix + name, "(not set)", _short(new[name])))
        elif not _same(old[name], new[name]):
            out.append(KeyChange(kind, prefix + name, _short(old[name]), _short(new[name])))
    return out


def _same(x: Any, y: Any) -> bool:
    try:
        return bool(x == y) and type(x) is type(y)
    except Exception:  # an odd __eq__ (an array in a tuple): different enough to recompile
        return x is y


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 48 else text[:45] + "..."


def advice(miss: CacheMiss, earlier: list[CacheMiss]) -> list[str]:
    """How the miss could have been avoided, one line per kind of change naming every argument
    it concerns (none for a change the program must see, such as new options)."""
    history = [m for m in earlier if not m.first] + [miss]
    subjects: dict[str, list[str]] = {}
    for change in miss.changes:
        if change.kind in _TIPS:
            subjects.setdefault(change.kind, []).append(_subject(change))
    out = []
    for kind, names in subjects.items():
        line = _TIPS[kind].format(what=", ".join(dict.fromkeys(names)))
        seen = max(sum(1 for m in history for c in m.changes if c.kind == kind and _subject(c) == name) for name in names)
        out.append(line + (f" ({names[0]} has changed {seen} times)" if seen > 1 else ""))
    return out


def _subject(change: KeyChange) -> str:
    """The name a tip talks about: `x` for "argument x", `scale` for "global scale"."""
    words = change.what.split()
    if change.kind == "Python constant":
        return words[2] if words[0] == "closure" else words[1]
    return words[-1]


_TIPS = {
    "shape": ("every new shape of {what} is a new program: if sizes vary from call to call, pad to a few "
              "bucket sizes (e.g. the next power of two) and mask the padding, so calls share programs"),
    "dtype": "convert {what} to one dtype before calling (a float64 numpy array is the usual surprise)",
    "weak type": ("{what} came once as a Python number and once as an array: pass it the same way each time "
                  "(np.float32(v) for both, or a Python number for both)"),
    "static argument": ("{what} is static, so each of its values compiles a program: if it takes many values, "
                        "pass it as an ordinary (traced) argument instead"),
    "Python constant": ("{what} is read from Python and baked into the program as a constant: pass it as an "
                        "argument (an input of one program) or, if it takes few values, as a static argument"),
    "structure": "pass the same containers with the same keys each call (None-valued or optional entries change it)",
}
