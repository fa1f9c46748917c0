"""Names unique in one module, in XLA's `opcode.N` style: the one NameUniquer the builder,
the passes and the fusion builder all use.

It reads every name it is given once, remembers the highest `.N` suffix per prefix, and
hands out the next number, so new names never clash with old ones (even ones a pass
removes) and numbers only grow:

    module holds add.3, add.7, multiply.2
    names.next("add") -> add.8;  names.next("add") -> add.9;  names.next("tuple") -> tuple.1
    names.keep_or_rename("param_0") -> param_0 if free, else param_0.1
    names.keep_or_rename("add.3") -> add.10 (taken: the next number of its prefix)
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Iterable

if TYPE_CHECKING:
    from ..module import HloModule

_SUFFIX = re.compile(r"^(.*)\.(\d+)$")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*\Z")  # what the HLO parser reads as a name


def split_name(name: str) -> tuple[str, int | None]:
    """`add.12` -> ("add", 12); `x` -> ("x", None)."""
    m = _SUFFIX.match(name)
    return (m.group(1), int(m.group(2))) if m else (name, None)


def base_name(name: str) -> str:
    """The name without its `.N` suffix (`add.12` -> `add`): the prefix for a copy's new name."""
    return split_name(name)[0]


class NameUniquer:
    """Hands out names unique within one namespace of a module: its instructions, or its
    computations (XLA's NameUniquer)."""

    def __init__(self, names: Iterable[str] = ()):
        self._used: set[str] = set()
        self._next: dict[str, int] = {}
        self._pending = names  # read on first use: most pass runs never need a new name

    @classmethod
    def for_module(cls, module: HloModule) -> NameUniquer:
        """A uniquer that knows every instruction name in `module`."""
        return cls(inst.name for comp in module.computations for inst in comp.instructions)

    def next(self, prefix: str) -> str:
        """A new name `prefix.N`, with N one more than any number seen with this prefix."""
        self._load()
        n = self._next.get(prefix, 1)
        while f"{prefix}.{n}" in self._used:
            n += 1
        name = f"{prefix}.{n}"
        self.reserve(name)
        return name

    # frontend/staging.py still says `fresh`; everything else says `next`.
    fresh = next

    def keep_or_rename(self, name: str) -> str:
        """`name` itself if it is free (now taken), else a new name with its prefix (`add.3` -> `add.8`)."""
        self._load()
        if name in self._used:
            return self.next(base_name(name))
        self.reserve(name)
        return name

    def reserve(self, name: str) -> None:
        """Mark `name` as taken, so it is never handed out; a ValueError if HLO cannot spell it."""
        if not _NAME.match(name):
            raise ValueError(f"{name!r} is not a valid HLO name")
        self._load()
        self._add(name)

    def __contains__(self, name: str) -> bool:
        self._load()
        return name in self._used

    def _load(self) -> None:
        pending, self._pending = self._pending, ()
        for name in pending:
            self._add(name)

    def _add(self, name: str) -> None:
        self._used.add(name)
        prefix, n = split_name(name)
        if n is not None and n >= self._next.get(prefix, 1):
            self._next[prefix] = n + 1
