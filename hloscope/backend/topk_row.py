"""One row of a top-k, for every target's kernel: a sorted insertion into the k slots of the
indices output (a partial insertion sort), then the values gathered by those indices.

    held = 0
    for i in 0..n:                                      (one pass over the row)
        if held < k or better(x[i], x[idx[k-1]]):       (most elements stop here when n >> k)
            j = min(held, k-1)
            while j > 0 and better(x[i], x[idx[j-1]]):  (shift the worse ones down a slot)
                idx[j] = idx[j-1]; j -= 1
            idx[j] = i; held = min(held+1, k)
    values[j] = x[idx[j]]  for j < k

`better` orders by key, then by row position, so ties come out in row order (XLA's stable
sort) whatever order the candidates arrive in: the GPU merges per-thread candidates with it. Floats compare by total order (-NaN < -inf < -0 < +0 <
inf < NaN), as XLA's TopK comparator does: the bits as a signed integer, the magnitude bits
flipped when the sign is set. O(n) comparisons for random rows and small k, O(n k) at
worst (an ascending row). The k slots are the indices output itself (OutputSlots) or, for
the GPU's per-thread candidates, a stretch of shared memory (ArraySlots).
"""

from __future__ import annotations

from llvmlite import ir

from ..ir.dtypes import element_type
from ..ir.instruction import Instruction
from ..ir.shape import ArrayShape
from .buffers import ArrayStorage
from .index import Index
from .llvm_types import I1, I8, I32, I64, emitted, storage_type, store, type_of
from .loops import for_range


def order_key(b: ir.IRBuilder, value: ir.Value, dtype: str) -> tuple[ir.Value, bool]:
    """(an integer whose order is `dtype`'s top-k order, compared signed?)."""
    kind = element_type(dtype).kind
    if kind == "float":  # value is f32 or f64 (16-bit floats are carried in f32: order kept)
        bits_type = ir.IntType(64 if dtype == "f64" else 32)
        bits = b.bitcast(value, bits_type)
        negative = b.icmp_signed("<", bits, ir.Constant(bits_type, 0))
        magnitude_flipped = b.xor(bits, ir.Constant(bits_type, (1 << (bits_type.width - 1)) - 1))
        return b.select(negative, magnitude_flipped, bits), True
    if kind == "pred":
        return (emitted(b.zext(value, I8)) if type_of(value) == I1 else value), False
    return value, kind == "signed"


class OutputSlots:
    """The k slots of one row of the indices output (s32)."""

    def __init__(self, b: ir.IRBuilder, pointer, indices_out: ArrayStorage, base: list):
        self.b, self.pointer, self.out, self.base = b, pointer, indices_out, base

    def slot_pointer(self, slot: ir.Value) -> ir.Value:
        multi = list(self.base)
        multi[-1] = slot
        linear = Index(self.out.shape, multi=multi).linear_for(self.b, self.out.shape)
        return self.b.gep(self.pointer(self.out), [linear], inbounds=True, source_etype=I32)


class ArraySlots:
    """k slots at `offset` of an i32 array (the GPU's shared memory)."""

    def __init__(self, b: ir.IRBuilder, array: ir.Value, offset: ir.Value):
        self.b, self.array, self.offset = b, array, offset

    def slot_pointer(self, slot: ir.Value) -> ir.Value:
        return self.b.gep(self.array, [self.b.add(self.offset, slot)], source_etype=I32)


Slots = OutputSlots | ArraySlots


class TopkRow:
    """Emits the loops above for one `topk` instruction, reading x through the elemental
    emitter `em` (so any operand layout works)."""

    def __init__(self, em, inst: Instruction, k: int, largest: bool):
        self.em, self.b = em, em.b
        self.x = inst.operands[0]
        self.shape: ArrayShape = em.comp[self.x].array_shape
        self.k, self.largest = k, largest

    def select(self, base: list, slots: Slots, start, step: int) -> ir.Value:
        """The best k of row positions start, start + step, ... < n into `slots`; returns the
        stack slot holding how many were filled (k unless the positions were fewer)."""
        b, n = self.b, self.shape.dims[-1]
        held = self.em.ctx.alloca(I64, "held")
        b.store(I64(0), held)
        start = start if isinstance(start, ir.Value) else I64(start)
        count = b.sdiv(b.add(b.sub(I64(n), start), I64(step - 1)), I64(step))  # start <= n: callers see to it
        with for_range(b, 0, count, "element") as t:
            self.insert(base, slots, held, b.add(start, b.mul(t, I64(step))))
        return held

    def insert(self, base: list, slots: Slots, held: ir.Value, position: ir.Value) -> None:
        """Row position `position` into the sorted `slots` (`held` of them filled), if it is
        among the k best so far."""
        b, k = self.b, self.k
        key = self._key_at(base, position)
        count = b.load(held)
        full = b.icmp_unsigned("==", count, I64(k))
        # slots past `held` hold no position yet: read x[0] instead (compared, never used)
        last = b.select(full, self._held_at(slots, I64(k - 1)), I64(0))
        with b.if_then(b.or_(b.not_(full), self._better(key, position, self._key_at(base, last), last))):
            j_slot = self.em.ctx.alloca(I64, "slot")
            b.store(b.select(full, I64(k - 1), count), j_slot)
            self._shift_worse_down(base, slots, key, position, j_slot)
            b.store(b.trunc(position, I32), slots.slot_pointer(b.load(j_slot)))
            b.store(b.select(full, count, b.add(count, I64(1))), held)

    def copy_values(self, base: list, slots: Slots, pointer, values_out: ArrayStorage) -> None:
        """values[row, j] = x[row, slots[j]] for j < k."""
        b = self.b
        with for_range(b, 0, self.k, "slot") as j:
            with self.em.scope():
                value = self.em.value(self.x, self._at(base, self.shape, self._held_at(slots, j)))
            multi = list(base)
            multi[-1] = j
            linear = Index(values_out.shape, multi=multi).linear_for(b, values_out.shape)
            ptr = b.gep(pointer(values_out), [linear], inbounds=True,
                        source_etype=storage_type(values_out.shape.dtype))
            store(b, value, ptr, values_out.shape.dtype)

    def _shift_worse_down(self, base: list, slots: Slots, key: tuple[ir.Value, bool], position: ir.Value,
                          j_slot: ir.Value) -> None:
        """while j > 0 and better(x[position], x[slots[j-1]]): slots[j] = slots[j-1]; j -= 1."""
        b = self.b
        test, body, done = (b.append_basic_block(f"topk.shift.{s}") for s in ("test", "body", "done"))
        b.branch(test)
        b.position_at_end(test)
        j = b.load(j_slot)
        positive = b.icmp_unsigned(">", j, I64(0))
        above = b.select(positive, b.sub(j, I64(1)), I64(0))
        above_position = b.select(positive, self._held_at(slots, above), I64(0))  # j = 0: x[0], unused
        better = self._better(key, position, self._key_at(base, above_position), above_position)
        b.cbranch(b.and_(positive, better), body, done)
        b.position_at_end(body)
        b.store(b.trunc(above_position, I32), slots.slot_pointer(j))
        b.store(above, j_slot)
        b.branch(test)
        b.position_at_end(done)

    def _better(self, a: tuple[ir.Value, bool], a_position: ir.Value, c: tuple[ir.Value, bool],
                c_position: ir.Value) -> ir.Value:
        """a before c: a better key, or an equal key at an earlier position."""
        b = self.b
        (x, signed), (y, _) = a, c
        op = ">" if self.largest else "<"
        strictly = b.icmp_signed(op, x, y) if signed else b.icmp_unsigned(op, x, y)
        tie = b.and_(b.icmp_unsigned("==", x, y), b.icmp_unsigned("<", a_position, c_position))
        return b.or_(strictly, tie)

    def _at(self, base: list, shape: ArrayShape, pos: ir.Value) -> Index:
        multi = list(base)
        multi[-1] = pos
        return Index(shape, multi=multi)

    def _key_at(self, base: list, pos: ir.Value) -> tuple[ir.Value, bool]:
        with self.em.scope():
            value = self.em.value(self.x, self._at(base, self.shape, pos))
        return order_key(self.b, value, self.shape.dtype)

    def _held_at(self, slots: Slots, slot: ir.Value) -> ir.Value:
        """The row position held in `slot`, as i64."""
        return emitted(self.b.zext(self.b.load(slots.slot_pointer(slot), typ=I32), I64))
