"""Storage for a program's values, and the program that results (program.py).

Values that reach no buffer are dropped with the ops making them. Every other value without
a home gets a region of the block's scratch, by class: a vector per row (`width` elements
for each row of the block), a value per row, a fixed vector, a fixed value. A region is
free again after its value's last reader, and an op's destinations are placed before its
operands are freed, so an op never writes what it reads. The block is as many rows as fit
BLOCK_BYTES with the buffers' rows, so everything an op reads was written moments ago, in
the first-level cache.
"""

from __future__ import annotations

from .drafts import Draft, Value
from .forms import Split
from .program import ELEMENT_BYTES, Op, RowProgram, Slot, scratch_slot

# A block's rows and scratch in about this many bytes: a first-level cache (48 KB here) holds
# them with room to spare. (Softmax and layer norm at 4096 x 1024 ran alike at 8 and 32 KB,
# 10% slower at 128 KB.)
BLOCK_BYTES = 32 * 1024
# Scratch lives on the interpreter's stack (library/rows.py): at most this much, far below
# the smallest default thread stack (128 KB, musl).
SCRATCH_BYTES = 48 * 1024
CLASSES = ((True, True), (True, False), (False, True), (False, False))  # (vector?, moves?), in scratch order
NAMES = {(True, True): "v", (True, False): "c", (False, True): "s", (False, False): "k"}

Region = tuple[tuple[bool, bool], int]


def build_program(dtype: str, split: Split, drafts: list[Draft], values: list[Value], constants: list[float],
                  row_buffers: int) -> RowProgram | None:
    """The program, its values in slots; None when its scratch would not fit SCRATCH_BYTES.
    `row_buffers` counts the buffers it reads or writes a row of (for the block's size)."""
    live = _live(drafts, values)
    for k, d in enumerate(live):
        for v in d.ins:
            values[v].uses.append(k)
    counts, region_of = _allocate(live, values)
    block = _block(split, ELEMENT_BYTES[dtype], counts, row_buffers)
    if block is None:
        return None
    slots, scratch = _scratch_slots(split.width, ELEMENT_BYTES[dtype], counts, block)
    program = RowProgram(dtype, split.rows, split.width, block, scratch=scratch, constants=constants)
    number: dict[Slot, int] = {}

    def slot_of(v: int) -> int:
        home = values[v].home
        slot = home if home is not None else slots[region_of[v]]
        if slot not in number:
            number[slot] = len(program.slots)
            program.slots.append(slot)
        return number[slot]

    program.ops = [Op(d.kind, d.op, tuple(map(slot_of, d.outs)), tuple(map(slot_of, d.ins)), d.source, d.member)
                   for d in live]
    return program


def _live(drafts: list[Draft], values: list[Value]) -> list[Draft]:
    """The ops whose results reach a buffer, directly or through later ops."""
    needed = {v for d in drafts for v in d.outs if values[v].home is not None}
    for d in reversed(drafts):
        if any(v in needed for v in d.outs):
            needed.update(d.ins)
    return [d for d in drafts if any(v in needed for v in d.outs)]


def _allocate(live: list[Draft], values: list[Value]) -> tuple[dict[tuple[bool, bool], int], dict[int, Region]]:
    """Scratch regions by class, each reused once its value is dead: (regions per class,
    the region of each value)."""
    free: dict[tuple[bool, bool], list[int]] = {}
    count: dict[tuple[bool, bool], int] = {}
    region_of: dict[int, Region] = {}
    for k, d in enumerate(live):
        for v in d.outs:
            if values[v].home is None and v not in region_of:
                cls = values[v].scratch_class
                if free.get(cls):
                    region = free[cls].pop()
                else:
                    region = count.get(cls, 0)
                    count[cls] = region + 1
                region_of[v] = (cls, region)
        for v in set(d.ins):
            if v in region_of and max(values[v].uses) == k:
                cls, region = region_of[v]
                free.setdefault(cls, []).append(region)
    return count, region_of


def _per_block(width: int, block: int) -> dict[tuple[bool, bool], int]:
    """Elements of one region of each class."""
    return {(True, True): block * width, (False, True): block, (True, False): width, (False, False): 1}


def _scratch_elements(width: int, counts: dict[tuple[bool, bool], int], block: int) -> int:
    sizes = _per_block(width, block)
    return sum(sizes[cls] * n for cls, n in counts.items())


def _block(split: Split, size: int, counts: dict[tuple[bool, bool], int], row_buffers: int) -> int | None:
    """Rows per block: the rows of the buffers and of the scratch in about BLOCK_BYTES."""
    vectors = counts.get((True, True), 0) + row_buffers
    per_row = size * (split.width * max(1, vectors) + counts.get((False, True), 0))
    block = max(1, min(split.rows, BLOCK_BYTES // per_row))
    while block > 1 and _scratch_elements(split.width, counts, block) * size > SCRATCH_BYTES:
        block //= 2
    return block if _scratch_elements(split.width, counts, block) * size <= SCRATCH_BYTES else None


def _scratch_slots(width: int, size: int, counts: dict[tuple[bool, bool], int], block: int
                   ) -> tuple[dict[Region, Slot], int]:
    """A slot per region, one class after another: (slots, scratch elements per block)."""
    sizes = _per_block(width, block)
    row_stride = {(True, True): width, (False, True): 1, (True, False): 0, (False, False): 0}
    slots: dict[Region, Slot] = {}
    offset = 0
    for cls in CLASSES:
        for region in range(counts.get(cls, 0)):
            slots[(cls, region)] = scratch_slot(offset * size, row_stride[cls], cls[0], f"%{NAMES[cls]}{region}")
            offset += sizes[cls]
    return slots, offset
