"""A row program before its values have storage: values, and the ops that make them.

A value is a vector along the row or one value per row, and either moves from row to row or
stays the same for every row (a column vector, a constant). Values read from a buffer or a
constant have their storage (`home`) from the start; a result gets its buffer's row when
the op computing it can write there, and the others share the block's scratch (storage.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .program import Slot


@dataclass
class Value:
    vector: bool  # a vector along the row (else one value per row)
    moves: bool  # differs from row to row (else the same for every row)
    home: Slot | None = None  # fixed storage (a buffer's row, a constant); None: scratch
    uses: list[int] = field(default_factory=list)  # the ops reading it (by position, once placed)

    @property
    def scratch_class(self) -> tuple[bool, bool]:
        return self.vector, self.moves


@dataclass
class Draft:
    """An op: `outs` are the values it makes (one; two for exp-minus-and-sum), `ins` what it reads."""

    kind: str
    op: str
    outs: tuple[int, ...]
    ins: tuple[int, ...]
    source: str = ""  # the HLO instruction it computes
    member: int = 0  # which instruction of the program it is part of
