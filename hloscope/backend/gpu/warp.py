"""Values as 32-bit words, so any accumulator can cross lanes (shuffles) or wait in shared memory.

A warp shuffle moves one 32-bit register between lanes. An accumulator of another type is
split into words first (f64 and 64-bit integers into two, pred and narrow integers widened
into one), each word shuffled, and the value put back together: one mechanism for every
reducer, variadic ones (argmax's value and index) included.
"""

from __future__ import annotations

from typing import Sequence

from llvmlite import ir

from ..llvm_types import F32, F64, I1, I32, I64, emitted, type_of
from .kernel import ThreadModel


def to_words(b: ir.IRBuilder, v: ir.Value) -> list[ir.Value]:
    """The i32 words of a register value (low word first)."""
    ty = type_of(v)
    if ty == F32:
        return [emitted(b.bitcast(v, I32))]
    if ty == F64:
        v = emitted(b.bitcast(v, I64))
        ty = I64
    if not isinstance(ty, ir.IntType):
        raise TypeError(f"cannot split a {ty} into words")
    if ty.width < 32:
        return [emitted(b.zext(v, I32))]
    if ty.width == 32:
        return [v]
    return [emitted(b.trunc(v, I32)), emitted(b.trunc(b.lshr(v, ty(32)), I32))]


def from_words(b: ir.IRBuilder, words: Sequence[ir.Value], ty: ir.Type) -> ir.Value:
    """The inverse of to_words for a value of type `ty`."""
    if ty == F32:
        return emitted(b.bitcast(words[0], F32))
    if ty == F64:
        return emitted(b.bitcast(from_words(b, words, I64), F64))
    if ty == I1:
        return b.icmp_unsigned("!=", words[0], I32(0))
    if not isinstance(ty, ir.IntType):
        raise TypeError(f"cannot make a {ty} of words")
    if ty.width < 32:
        return emitted(b.trunc(words[0], ty))
    if ty.width == 32:
        return words[0]
    low, high = b.zext(words[0], I64), b.zext(words[1], I64)
    return emitted(b.or_(low, b.shl(high, I64(32))))


def word_count(ty: ir.Type) -> int:
    return 2 if ty == F64 or (isinstance(ty, ir.IntType) and ty.width > 32) else 1


def shuffle_xor(threads: ThreadModel, b: ir.IRBuilder, v: ir.Value, lane_mask: int) -> ir.Value:
    """The value `v` of lane (this lane XOR lane_mask), for any register type."""
    return from_words(b, [threads.shuffle_xor(b, w, lane_mask) for w in to_words(b, v)], type_of(v))
