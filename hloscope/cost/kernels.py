"""Costs per kernel: a kernel computes one instruction (a fusion or an unfused op), so its
work is that instruction's, and its estimates are that work on each target's roofline.

When one instruction needs several kernels (a column reduction's initializing kernel and
the reduction itself), the first kernel carries the instruction's whole cost and the others
are listed with none, so the kernels' sum is still the program's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from ..ir.module import HloModule
from ..ir.shape import ArrayShape, Shape, TupleShape
from .analysis import Cost, analyze
from .roofline import Peaks, estimates


@dataclass(frozen=True)
class KernelCost:
    """One kernel's work and its estimated seconds per target."""

    name: str
    instruction: str
    cost: Cost
    estimates: dict[str, float] = field(default_factory=dict)
    dtype: str = "f32"

    def as_dict(self) -> dict:
        c = self.cost
        return {"name": self.name, "instruction": self.instruction, "flops": c.flops,
                "transcendentals": c.transcendentals, "bytes_read": c.bytes_read, "bytes_written": c.bytes_written,
                "estimates": dict(sorted(self.estimates.items()))}


def result_dtype(shape: Shape | None) -> str:
    """The element type a kernel computes in (its first array result's)."""
    leaves = shape.leaves() if isinstance(shape, TupleShape) else [shape]
    arrays = [s for s in leaves if isinstance(s, ArrayShape)]
    return arrays[0].dtype if arrays else "f32"


def kernel_costs(module: HloModule, kernels: Iterable[tuple[str, str]], peaks: dict[str, Peaks],
                 costs: dict[str, Cost] | None = None) -> list[KernelCost]:
    """A KernelCost per (kernel name, instruction), in the order given."""
    costs = costs if costs is not None else analyze(module)
    shapes = {inst.name: inst.shape for _, inst in module.all_instructions()}
    seen: set[str] = set()
    out = []
    for name, instruction in kernels:
        cost = costs.get(instruction, Cost(instruction, "unknown"))
        if instruction in seen:
            cost = Cost(instruction, cost.opcode, fused_in=cost.fused_in)
        seen.add(instruction)
        dtype = result_dtype(shapes.get(instruction))
        out.append(KernelCost(name, instruction, cost, estimates(cost, peaks, dtype), dtype))
    return out
