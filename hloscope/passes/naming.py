"""Fresh instruction names for passes, in XLA's `opcode.N` style.

A pass that creates instructions asks a `NameUniquer` for names. It reads every name in the
module once, remembers the highest `.N` suffix per prefix, and hands out the next number, so
new names never clash with old ones (even ones the pass removes) and numbers only grow:

    module holds add.3, add.7, multiply.2
    uniquer.next("add") -> add.8;  uniquer.next("add") -> add.9;  uniquer.next("tuple") -> tuple.1
"""

from __future__ import annotations

import re

from ..ir.module import HloModule

_SUFFIX = re.compile(r"^(.*)\.(\d+)$")


def split_name(name: str) -> tuple[str, int | None]:
    """`add.12` -> ("add", 12); `x` -> ("x", None)."""
    m = _SUFFIX.match(name)
    return (m.group(1), int(m.group(2))) if m else (name, None)


def base_name(name: str) -> str:
    """The name without its `.N` suffix (`add.12` -> `add`): the prefix for a copy's new name."""
    return split_name(name)[0]


class NameUniquer:
    """Hands out instruction names unique within one module (XLA's NameUniquer)."""

    def __init__(self, names=()):
        self._used: set[str] = set()
        self._next: dict[str, int] = {}
        self._pending = names  # read on first use: most pass runs never need a new name

    @classmethod
    def for_module(cls, module: HloModule) -> NameUniquer:
        """A uniquer that knows every instruction name in `module`."""
        return cls(inst.name for comp in module.computations for inst in comp.instructions)

    def _load(self) -> None:
        pending, self._pending = self._pending, ()
        for name in pending:
            self._add(name)

    def reserve(self, name: str) -> None:
        """Mark `name` as taken, so it is never handed out."""
        self._load()
        self._add(name)

    def _add(self, name: str) -> None:
        self._used.add(name)
        prefix, n = split_name(name)
        if n is not None and n >= self._next.get(prefix, 1):
            self._next[prefix] = n + 1

    def next(self, prefix: str) -> str:
        """A new name `prefix.N`, with N one more than any number seen with this prefix."""
        self._load()
        n = self._next.get(prefix, 1)
        while f"{prefix}.{n}" in self._used:
            n += 1
        name = f"{prefix}.{n}"
        self.reserve(name)
        return name

    def __contains__(self, name: str) -> bool:
        self._load()
        return name in self._used
