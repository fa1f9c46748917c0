"""The accumulators of a row reduction, and how threads combine them.

Each thread keeps one register value per reduce input (two for argmax: value and index),
per hero. Combining is always `reducer(mine, theirs)`, whatever brings "theirs":

    combine          the next element of this thread's stretch of the row
    warp_then_block  a lane of the same warp (shfl.sync.bfly, 16, 8, 4, 2, 1), then the other
                     warps' results, staged in shared memory as 32-bit words (thread 0 reads)
    to/from_scratch  a block's total, as words in global scratch memory, for the second
                     kernel of a split reduction
"""

from __future__ import annotations

from llvmlite import ir

from ..elemental_reduce import apply_reducer
from ..llvm_types import I32, I64, value_type
from .nvptx import WARP
from .warp import from_words, shuffle_xor, to_words, word_count


class Accumulators:
    """Stack slots (registers after mem2reg) of every hero's accumulators."""

    def __init__(self, em, heroes: list):
        self.em, self.b, self.heroes = em, em.b, heroes
        self.dtypes = [[em.comp[x].shape.dtype for x in h.operands[: len(h.operands) // 2]] for h in heroes]
        self.types = [[value_type(d) for d in dtypes] for dtypes in self.dtypes]
        self.slots: list[list] = []

    @staticmethod
    def word_counts(comp, heroes) -> list[int]:
        """Words of each accumulator (hero-major), for sizing scratch memory."""
        return [word_count(value_type(comp[x].shape.dtype)) for h, _ in heroes
                for x in h.operands[: len(h.operands) // 2]]

    def start(self, values: list[list]) -> None:
        """New slots holding `values` (per hero, per accumulator)."""
        for hero_values in values:
            slots = []
            for v in hero_values:
                slot = self.em.ctx.alloca(v.type)
                self.b.store(v, slot)
                slots.append(slot)
            self.slots.append(slots)

    def load(self, h: int) -> list[ir.Value]:
        return [self.b.load(s) for s in self.slots[h]]

    def store(self, h: int, values: list) -> None:
        for slot, v in zip(self.slots[h], values):
            self.b.store(v, slot)

    def apply(self, h: int, accs: list, values: list) -> list:
        return apply_reducer(self.em, self.heroes[h].attr("to_apply"), accs, values, self.dtypes[h])

    def flat(self) -> list[tuple[int, int]]:
        """(hero, accumulator) pairs in hero-major order."""
        return [(h, k) for h, types in enumerate(self.types) for k in range(len(types))]


def combine(em, accs: Accumulators, values: list[list]) -> None:
    """accs = reducer(accs, values) for every hero."""
    with em.scope():
        for h in range(len(accs.heroes)):
            accs.store(h, accs.apply(h, accs.load(h), values[h]))


def warp_then_block(em, kf, accs: Accumulators, tid: ir.Value, block: int) -> None:
    """Leave the block's total in thread 0's accumulators (block: a multiple of 32)."""
    b = em.b
    for mask in (16, 8, 4, 2, 1):
        theirs = [[shuffle_xor(kf.mc.threads, b, v, mask) for v in accs.load(h)] for h in range(len(accs.heroes))]
        combine(em, accs, theirs)
    warps = block // WARP
    if warps == 1:
        return
    staged = {(h, k): [kf.shared(I32, warps, f"partial{h}_{k}_{w}") for w in range(word_count(accs.types[h][k]))]
              for h, k in accs.flat()}
    lane, warp = b.and_(tid, I64(WARP - 1)), b.lshr(tid, I64(5))
    with b.if_then(b.icmp_unsigned("==", lane, I64(0))):
        for (h, k), arrays in staged.items():
            for array, word in zip(arrays, to_words(b, accs.load(h)[k])):
                b.store(word, b.gep(array, [warp], source_etype=I32))
    kf.barrier()
    with b.if_then(b.icmp_unsigned("==", tid, I64(0))):
        for w in range(1, warps):
            theirs = [[_read_words(b, staged[h, k], I64(w), accs.types[h][k]) for k in range(len(accs.types[h]))]
                      for h in range(len(accs.heroes))]
            combine(em, accs, theirs)


def _read_words(b: ir.IRBuilder, arrays: list, position: ir.Value, ty: ir.Type) -> ir.Value:
    words = [b.load(b.gep(a, [position], source_etype=I32), typ=I32) for a in arrays]
    return from_words(b, words, ty)


def to_scratch(kf, accs: Accumulators, scratch: list[list], position: ir.Value) -> None:
    """Write thread 0's totals as words at `position` of the scratch buffers."""
    b = kf.builder
    for (h, k), buffers in zip(accs.flat(), scratch):
        for buf, word in zip(buffers, to_words(b, accs.load(h)[k])):
            b.store(word, b.gep(kf.pointer(buf), [position], source_etype=I32))


def from_scratch(kf, accs: Accumulators, scratch: list[list], position: ir.Value) -> list[list]:
    """The totals at `position` of the scratch buffers, per hero, per accumulator."""
    b = kf.builder
    words = iter(scratch)  # one list of buffers per accumulator, in accs.flat() order
    return [[_read_words(b, [kf.pointer(buf) for buf in next(words)], position, ty) for ty in types]
            for types in accs.types]
