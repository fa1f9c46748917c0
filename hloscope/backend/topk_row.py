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

`better` is strict, so an element equal to a held one goes after it: ties keep their row
order, as XLA's stable sort does. Floats compare by total order (-NaN < -inf < -0 < +0 <
inf < NaN), as XLA's TopK comparator does: the bits as a signed integer, the magnitude bits
flipped when the sign is set. O(n) comparisons for random rows and small k, O(n k) at
worst (an ascending row); the only state is the output itself.
"""

from __future__ import annotations

from llvmlite import ir

from ..ir.dtypes import element_type
from ..ir.instruction import Instruction
from ..ir.shape import ArrayShape
from .buffers import Buffer
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


class TopkRow:
    """Emits the row loop above for `topk` (reading x through the elemental emitter `em`,
    writing through `pointer(buffer)`)."""

    def __init__(self, em, pointer, inst: Instruction, outputs: list[Buffer], k: int, largest: bool):
        self.em, self.b, self.pointer = em, em.b, pointer
        self.x = inst.operands[0]
        self.shape: ArrayShape = em.comp[self.x].array_shape
        self.values_out, self.indices_out = outputs
        self.k, self.largest = k, largest

    def emit(self, base: list) -> None:
        """The top k of the row whose first element's multi-index is `base`."""
        if self.k == 0:
            return
        b, k = self.b, self.k
        held = self.em.ctx.alloca(I64, "held")
        j_slot = self.em.ctx.alloca(I64, "slot")
        b.store(I64(0), held)
        with for_range(b, 0, self.shape.dims[-1], "element") as i:
            key = self._key_at(base, i)
            count = b.load(held)
            full = b.icmp_unsigned("==", count, I64(k))
            # slots past `held` hold no position yet: read x[0] instead (compared, never used)
            last = self._key_at(base, b.select(full, self._held_at(base, I64(k - 1)), I64(0)))
            with b.if_then(b.or_(b.not_(full), self._better(key, last))):
                b.store(b.select(full, I64(k - 1), count), j_slot)
                self._shift_worse_down(base, key, j_slot)
                self._set_held(base, b.load(j_slot), b.trunc(i, I32))
                b.store(b.select(full, count, b.add(count, I64(1))), held)
        self._gather_values(base)

    def _shift_worse_down(self, base: list, key: tuple[ir.Value, bool], j_slot: ir.Value) -> None:
        """while j > 0 and better(key, x[idx[j-1]]): idx[j] = idx[j-1]; j -= 1."""
        b = self.b
        test, body, done = (b.append_basic_block(f"topk.shift.{s}") for s in ("test", "body", "done"))
        b.branch(test)
        b.position_at_end(test)
        j = b.load(j_slot)
        positive = b.icmp_unsigned(">", j, I64(0))
        above = b.select(positive, b.sub(j, I64(1)), I64(0))
        above_index = b.select(positive, self._held_at(base, above), I64(0))  # j = 0: x[0], unused
        b.cbranch(b.and_(positive, self._better(key, self._key_at(base, above_index))), body, done)
        b.position_at_end(body)
        self._set_held(base, j, b.trunc(above_index, I32))
        b.store(above, j_slot)
        b.branch(test)
        b.position_at_end(done)

    def _better(self, a: tuple[ir.Value, bool], c: tuple[ir.Value, bool]) -> ir.Value:
        (x, signed), (y, _) = a, c
        op = ">" if self.largest else "<"
        return self.b.icmp_signed(op, x, y) if signed else self.b.icmp_unsigned(op, x, y)

    def _at(self, base: list, shape: ArrayShape, pos: ir.Value) -> Index:
        multi = list(base)
        multi[-1] = pos
        return Index(shape, multi=multi)

    def _key_at(self, base: list, pos: ir.Value) -> tuple[ir.Value, bool]:
        with self.em.scope():
            value = self.em.value(self.x, self._at(base, self.shape, pos))
        return order_key(self.b, value, self.shape.dtype)

    def _slot_pointer(self, out: Buffer, base: list, slot: ir.Value) -> ir.Value:
        linear = self._at(base, out.shape, slot).linear_for(self.b, out.shape)
        return self.b.gep(self.pointer(out), [linear], inbounds=True, source_etype=storage_type(out.shape.dtype))

    def _held_at(self, base: list, slot: ir.Value) -> ir.Value:
        """The row position held in `slot` of the indices output, as i64."""
        ptr = self._slot_pointer(self.indices_out, base, slot)
        return emitted(self.b.zext(self.b.load(ptr, typ=I32), I64))

    def _set_held(self, base: list, slot: ir.Value, position: ir.Value) -> None:
        self.b.store(position, self._slot_pointer(self.indices_out, base, slot))

    def _gather_values(self, base: list) -> None:
        with for_range(self.b, 0, self.k, "slot") as j:
            self._copy_value(base, j)

    def _copy_value(self, base: list, slot: ir.Value) -> None:
        with self.em.scope():
            value = self.em.value(self.x, self._at(base, self.shape, self._held_at(base, slot)))
        store(self.b, value, self._slot_pointer(self.values_out, base, slot), self.values_out.shape.dtype)
