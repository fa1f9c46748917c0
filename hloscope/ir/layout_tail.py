"""What may follow ':' in a layout, checked as XLA's parser checks it (jaxlib 0.10.2):

    f32[8,128]{1,0:T(8,128)L(1024)E(32)S(1)}

Each item is optional, appears at most once and in this order: `D(...)` dimension level
types, `T(...)(...)` tiles, `L(n)` tail padding, `E(n)` element size in bits, `#(type)` and
`*(type)` sparse index and pointer types, `S(n)` memory space, `SC(...)` split configs,
`P(shape)` a physical shape, `M(n)` dynamic-shape metadata bytes. Anything else, or an item
out of order, is where XLA stops ("expects layout to end with kRbrace"). The text stays as
written (the printer prints it back); this module only decides whether it is valid.
"""

from __future__ import annotations

import re
from typing import Callable, NoReturn

from .dtypes import ELEMENT_TYPES

ORDER = ("D", "T", "L", "E", "#", "*", "S", "SC", "P", "M")
_ITEM = re.compile(r"(SC|[DTLE#*SPM])\(")
_LEVEL = re.compile(r"[DCSH]\+?~?$")
_INT = re.compile(r"-?\d+$")
_SPLIT = re.compile(r"\d+:\d+(,\d+)*$")

Fail = Callable[[str, int], NoReturn]


def check_layout_tail(tail: str, start: int, fail: Fail) -> None:
    """Reject `tail` (the text after ':' at offset `start`) where XLA's parser would."""
    i, last = 0, -1
    while i < len(tail) and not tail[i:].isspace():
        while tail[i].isspace():
            i += 1
        m = _ITEM.match(tail, i)
        item = m.group(1) if m else None
        if m is None or item is None or ORDER.index(item) <= last:
            got = f"{item}(...) again or out of order" if item else repr(tail[i:i + 8])
            fail(f"layout: unexpected {got}; after ':' come D(..) T(..) L(..) E(..) #(..) *(..) S(..) "
                 "SC(..) M(..), each at most once and in this order", start + i)
        last = ORDER.index(item)
        i = m.end()
        while True:
            close = _close(tail, i, start, fail)
            _check_item(item, tail[i:close], start + i, fail)
            i = close + 1
            if item != "T" or not tail.startswith("(", i):  # only T takes several groups
                break
            i += 1


def _close(tail: str, i: int, start: int, fail: Fail) -> int:
    depth = 0
    for j in range(i, len(tail)):
        if tail[j] == "(":
            depth += 1
        elif tail[j] == ")":
            if depth == 0:
                return j
            depth -= 1
    fail("layout: this '(' is never closed", start + i - 1)


def _check_item(item: str, body: str, pos: int, fail: Fail) -> None:
    parts = [p.strip() for p in body.split(",")] if body.strip() else []
    if item == "D":
        for p in parts:
            if not _LEVEL.match(p):
                fail(f"layout: dimension level type {p!r} is not D, C, S or H (XLA: 'expected a DimLevelType "
                     "abbreviation')", pos)
    elif item == "T":
        for p in parts:
            if p != "*" and not (_INT.match(p) and int(p) >= 1):
                fail(f"layout: tile dimension {p!r} must be a positive integer or *", pos)
    elif item in ("#", "*"):
        if body.strip() not in ELEMENT_TYPES:
            fail(f"layout: {item}({body}) needs an element type", pos)
    elif item == "SC":
        if not _SPLIT.match(body.replace(" ", "")):
            fail(f"layout: split config SC({body}) must read dimension:index,index...", pos)
    elif item == "P":
        # jaxlib 0.10.2 keeps no sparse dimension level types, so no layout is sparse.
        fail("layout: a physical shape P(...) is only for a sparse array (XLA: 'Layout has physical shape, "
             "but is not for a sparse array')", pos - 2)
    elif not _INT.match(body.strip()) or (item == "L" and int(body) < 1):
        fail(f"layout: {item}({body}) needs {'a positive' if item == 'L' else 'an'} integer", pos)
