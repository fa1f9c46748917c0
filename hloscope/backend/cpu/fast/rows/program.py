"""A row program as data: its slots, its ops, the words the interpreter reads, its listing.

A slot is where an operand lives for the block of rows being run: a buffer of the kernel
(moving by `advance` bytes per row), the block's scratch, or a constant. Within the block
its rows are `row_stride` elements apart, and it holds either a vector of `width` elements
per row or one value per row. An op names its destination and operands by slot.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .ops import FUSED_SUMS, HEADER, OP_FIELDS, SCRATCH, SLOT_FIELDS, code, mnemonic

ELEMENT_BYTES = {"f32": 4, "f64": 8}


@dataclass(frozen=True)
class Slot:
    where: int  # an index into the kernel's pointer table, or SCRATCH
    offset: int  # bytes from there
    advance: int  # bytes per row of the program
    row_stride: int  # elements between the block's rows
    vector: bool  # a vector of `width` elements per row (else one value per row)
    label: str  # how the listing names it


@dataclass(frozen=True)
class Op:
    kind: str  # broadcast, copy, unary, binary, reduce, fused
    op: str
    outs: tuple[int, ...]  # slots: what it writes (one; the fused exp-minus-and-sum: the exponentials, the sum)
    ins: tuple[int, ...]  # slots: what it reads (a reduction's initial value last)
    source: str = ""  # the HLO instruction it computes
    member: int = 0  # the program's instruction it is part of

    def operands(self) -> list[int]:
        """The op's words after its code: dst, a, b, c, d (ops.py); unused ones 0."""
        fields = [self.outs[0], *self.ins, *self.outs[1:]]
        return fields + [0] * (len(OP_FIELDS) - 1 - len(fields))

    def text(self, slots: list[Slot]) -> str:
        args = [slots[k].label for k in self.ins]
        if self.kind == "reduce" or self.op in FUSED_SUMS:
            args[-1] = f"from {args[-1]}"
        line = f"{', '.join(slots[k].label for k in self.outs)} = {mnemonic(self.kind, self.op)} {', '.join(args)}"
        return f"{line:<48} ; {self.source}" if self.source else line


@dataclass
class RowProgram:
    """`ops` run over `rows` rows of `width` elements, `block` rows at a time."""

    dtype: str
    rows: int
    width: int
    block: int = 1
    slots: list[Slot] = field(default_factory=list)
    ops: list[Op] = field(default_factory=list)
    scratch: int = 0  # elements of scratch per block
    constants: list[float] = field(default_factory=list)

    def words(self) -> list[int]:
        """What the interpreter reads (library/rows.py's layout)."""
        head = {"width": self.width, "block": self.block, "slots": len(self.slots), "ops": len(self.ops),
                "scratch": self.scratch}
        words = [head[name] for name in HEADER]
        for s in self.slots:
            fields = {"where": s.where, "offset": s.offset, "advance": s.advance, "row_stride": s.row_stride,
                      "col_stride": int(s.vector)}
            words += [fields[name] for name in SLOT_FIELDS]
        for op in self.ops:
            words += [code(op.kind, op.op), *op.operands()]
        return words

    @property
    def scratch_bytes(self) -> int:
        return self.scratch * ELEMENT_BYTES[self.dtype]

    def listing(self) -> str:
        """The program as text: one line per op, each naming the HLO instruction it computes."""
        head = (f"row program: {self.rows} rows of {self.width} {self.dtype}, {self.block} rows per block, "
                f"{len(self.ops)} ops, {self.scratch_bytes:,} B of scratch per block")
        return "\n".join([head, *(f"  {op.text(self.slots)}" for op in self.ops)])


def scratch_slot(offset_bytes: int, row_stride: int, vector: bool, label: str) -> Slot:
    return Slot(SCRATCH, offset_bytes, 0, row_stride, vector, label)
