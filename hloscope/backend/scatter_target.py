"""Where one scatter update element goes: XLA's scatter index arithmetic, for kernels that
handle one update element at a time (the GPU's: one per thread).

    update position u = (scatter position s, window offset w)
    start[scatter_dims_to_operand_dims[k]] = indices[s with index_vector_dim = k]
    start[input batching dim]              = s along its paired indices batching dim
    fits   = 0 <= start[d] <= dim[d] - window[d] for every d   (else the update is dropped)
    target = start + w, w placed on the operand dims that are neither inserted nor batching

The CPU kernel (cpu/scatter_kernel.py) shares ScatterDims and hoists the start out of the
window loop.
"""

from __future__ import annotations

from llvmlite import ir

from . import scalar_convert
from .elemental_data import all_of
from .index import Index
from .llvm_types import I64


class ScatterDims:
    """The dimension numbers of one scatter, resolved against its shapes."""

    def __init__(self, scatter, update_rank: int, operand_rank: int):
        self.vector_dim = scatter.attr("index_vector_dim")
        self.window_dims = tuple(scatter.attr("update_window_dims") or ())
        self.to_operand = tuple(scatter.attr("scatter_dims_to_operand_dims") or ())
        pairs = zip(scatter.attr("input_batching_dims") or (), scatter.attr("scatter_indices_batching_dims") or ())
        # input batching dim -> the scatter position it runs in step with (indices dims but index_vector_dim)
        self.batching = {op: (i if i < self.vector_dim else i - 1) for op, i in pairs}
        inserted = set(scatter.attr("inserted_window_dims") or ()) | set(self.batching)
        self.scatter_dims = [d for d in range(update_rank) if d not in self.window_dims]
        self.operand_window = [d for d in range(operand_rank) if d not in inserted]

    def evaluation_order(self) -> list[int]:
        """Update dims in the evaluator's combining order: scatter dims, then window dims."""
        return self.scatter_dims + list(self.window_dims)


def update_target(em, dims: ScatterDims, indices: str, update_dims, operand_dims, update_multi: list
                  ) -> tuple[ir.Value, list[ir.Value]]:
    """(whether the update's window fits, the operand position of update element update_multi)."""
    b = em.b
    index_shape = em.comp[indices].array_shape
    positions = [update_multi[d] for d in dims.scatter_dims]
    window_size = {op: update_dims[u] for op, u in zip(dims.operand_window, dims.window_dims)}
    starts: list[ir.Value] = [I64(0)] * len(operand_dims)
    fits = []
    for k, op_dim in enumerate(dims.to_operand):
        at = list(positions)
        if dims.vector_dim < index_shape.rank:
            at.insert(dims.vector_dim, I64(k))
        start = em.value(indices, Index(index_shape, multi=at))
        start = scalar_convert.emit_convert(em.ctx.scalar, start, index_shape.dtype, "s64")
        last = operand_dims[op_dim] - window_size.get(op_dim, 1)
        fits += [b.icmp_signed(">=", start, I64(0)), b.icmp_signed("<=", start, I64(last))]
        starts[op_dim] = start
    for op_dim, position in dims.batching.items():
        starts[op_dim] = positions[position]
    target = list(starts)
    for op_dim, u in zip(dims.operand_window, dims.window_dims):
        target[op_dim] = b.add(starts[op_dim], update_multi[u])
    return all_of(b, fits), target
