"""What every sort kernel asks of the HLO comparator, whatever its algorithm.

    comes_first     does the element at row position a come before the one at b? (the
                    comparator called on every operand's values at a and b, inlined)
    store_permuted  out_k[row, i] = operand_k[row, source] for every operand k

A sort moves all its operands by one permutation of each row (a "row" is one position of
every dimension but the sorted one, given as `base`, its first element's multi-index).
The CPU's merge sort and the GPU's bitonic network differ only in which pairs they
compare, and in what order.
"""

from __future__ import annotations

from llvmlite import ir

from .index import Index
from .llvm_types import I1, storage_type, store


def comes_first(em, sort, dim: int, base: list, a: ir.Value, b_pos: ir.Value) -> ir.Value:
    """comparator(operands at a, operands at b_pos) along the sort dimension of the row at
    `base`: does a come before b_pos?"""
    b = em.b
    with em.scope():
        args = []
        for operand in sort.operands:
            op_shape = em.comp[operand].shape
            for pos in (a, b_pos):
                multi = list(base)
                multi[dim] = pos
                args.append(em.value(operand, Index(op_shape, multi=multi)))
        result = em.apply(sort.attr("to_apply"), args)
    return result if result.type == I1 else b.trunc(result, I1)


def store_permuted(em, kf, sort, outputs, dim: int, base: list, i: ir.Value, source: ir.Value) -> None:
    """out_k[row, i] = operand_k[row, source] for every operand of the sort."""
    b = em.b
    with em.scope():
        for operand, out in zip(sort.operands, outputs):
            from_multi, to_multi = list(base), list(base)
            from_multi[dim], to_multi[dim] = source, i
            value = em.value(operand, Index(em.comp[operand].shape, multi=from_multi))
            ptr = b.gep(kf.pointer(out), [Index(out.shape, multi=to_multi).linear_for(b, out.shape)], inbounds=True,
                        source_etype=storage_type(out.shape.dtype))
            store(b, value, ptr, out.shape.dtype)
